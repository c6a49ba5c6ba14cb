import { Serdes } from '../../serde/serdes';
import { Consumed } from '../consumed';
import { Materialized } from '../materialized';
import { Produced } from '../produced';
import { StreamsBuilder } from '../streams-builder';
import { dslDriverPerTest, type SideRecord } from '../../../test-support/dsl-test-support';

const str = Serdes.String();

/** Side, key, value, timestamp; expected records are Kafka Streams 4.4's after each record. */
const INPUT: readonly SideRecord<'L' | 'R'>[] = [
  ['L', 'a', '1', 1],
  ['R', 'a', 'x', 2],
  ['R', 'b', 'y', 3],
  ['L', 'b', '2', 5],
  ['R', 'a', null, 6],
  ['L', 'b', null, 7],
  ['R', 'b', null, 8],
  ['R', 'c', 'z', 4],
  ['L', 'c', '3', 9],
];

describe('table-table joins through the TopologyTestDriver', () => {
  const dsl = dslDriverPerTest();

  async function run(kind: 'left' | 'outer', materialized?: Materialized<string, string>) {
    const builder = new StreamsBuilder();
    const left = builder.table('l', Consumed.with(str, str));
    const right = builder.table('r', Consumed.with(str, str));
    const joiner = (l: string | null, r: string | null): string => `${l}+${r}`;
    const joined =
      kind === 'left'
        ? left.leftJoin(right, joiner, undefined, materialized)
        : left.outerJoin(right, joiner, undefined, materialized);
    joined.toStream().to('out', Produced.with(str, str));
    const driver = await dsl.start(builder);
    const out = await dsl.linesPerSideRecord({ L: 'l', R: 'r' }, INPUT);
    return { out, builder, driver };
  }

  it('left-joins as Kafka Streams does', async () => {
    const { out, builder } = await run('left');
    expect(out).toEqual([
      ['a=1+null@1'],
      ['a=1+x@2'],
      [],
      ['b=2+y@5'],
      ['a=1+null@6'],
      ['b=null@7'],
      [],
      [],
      ['c=3+z@9'],
    ]);
    expect(builder.build().describe()).toContain(
      '    Processor: KTABLE-JOINTHIS-0000000007 (stores: [r-STATE-STORE-0000000003])',
    );
  });

  it('outer-joins as Kafka Streams does, a row for either side', async () => {
    const { out } = await run('outer');
    expect(out).toEqual([
      ['a=1+null@1'],
      ['a=1+x@2'],
      ['b=null+y@3'],
      ['b=2+y@5'],
      ['a=1+null@6'],
      ['b=null+y@7'],
      ['b=null@8'],
      ['c=null+z@4'],
      ['c=3+z@9'],
    ]);
  });

  it('keeps a materialized outer join queryable, rows of either side', async () => {
    const { driver } = await run(
      'outer',
      Materialized.as<string, string>('joined').withValueSerde(str).withCachingDisabled(),
    );
    const store = driver.getKeyValueStore<string, string>('joined');
    expect([...store.all()].map((e) => `${e.key}=${e.value}`)).toEqual(['a=1+null', 'c=3+z']);
  });
});
