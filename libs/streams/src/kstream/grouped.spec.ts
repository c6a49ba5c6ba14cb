import { TopologyError } from '../errors/topology.error';
import { Serdes } from '../serde/serdes';
import { Grouped } from './grouped';

describe('Grouped.with', () => {
  const str = Serdes.String();
  const long = Serdes.Long();

  it("takes serdes alone, as Kafka Streams' with(keySerde, valueSerde)", () => {
    const grouped = Grouped.with(str, long);
    expect([grouped.name, grouped.keySerde, grouped.valueSerde]).toEqual([undefined, str, long]);
  });

  it('takes a name (or undefined) and serdes', () => {
    const named = Grouped.with('by-user', str, long);
    expect([named.name, named.keySerde, named.valueSerde]).toEqual(['by-user', str, long]);
    const unnamed = Grouped.with(undefined, str);
    expect([unnamed.name, unnamed.keySerde, unnamed.valueSerde]).toEqual([
      undefined,
      str,
      undefined,
    ]);
    expect(() => Grouped.with('no spaces', str, long)).toThrow(TopologyError);
  });
});
