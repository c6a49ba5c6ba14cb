import { Serdes } from '../../serde/serdes';
import { Consumed } from '../consumed';
import { Materialized } from '../materialized';
import { Named } from '../named';
import { Produced } from '../produced';
import { StreamsBuilder } from '../streams-builder';
import { dslDriverPerTest } from '../../../test-support/dsl-test-support';

const str = Serdes.String();

describe('KStream.toTable through the TopologyTestDriver', () => {
  const dsl = dslDriverPerTest();

  it('reads the stream as a table, a null value deleting the key, queryable when named', async () => {
    const builder = new StreamsBuilder();
    builder
      .stream('in', Consumed.with(str, str))
      .toTable(
        Named.as('latest'),
        Materialized.as<string, string>('latest-store').withCachingDisabled(),
      )
      .toStream()
      .to('out', Produced.with(str, str));
    const driver = await dsl.start(builder);
    await dsl.pipeLines('in', ['a=1@1', 'b=2@2', 'a=3@3', 'b=null@4', 'null=x@5']);
    expect(dsl.lines('out')).toEqual(['a=1@1', 'b=2@2', 'a=3@3', 'b=null@4']);
    const store = driver.getKeyValueStore<string, string>('latest-store');
    expect([...store.all()].map((e) => `${e.key}=${e.value}`)).toEqual(['a=3']);
    expect(driver.metrics().droppedRecords).toBe(1);
  });

  it('repartitions a key-changed stream through <KSTREAM-TOTABLE-n>-repartition and keeps no store unless needed', () => {
    const builder = new StreamsBuilder();
    builder
      .stream<string, string>('in')
      .selectKey((_k, v) => v)
      .toTable()
      .toStream()
      .to('out');
    const topology = builder.build();
    expect([...topology.internalTopicDefs().keys()]).toEqual([
      'KSTREAM-TOTABLE-0000000002-repartition',
    ]);
    expect(topology.describe()).toContain(
      [
        '    Source: KSTREAM-SOURCE-0000000006 (topics: [KSTREAM-TOTABLE-0000000002-repartition])',
        '      --> KSTREAM-TOTABLE-0000000002',
        '    Processor: KSTREAM-TOTABLE-0000000002 (stores: [])',
      ].join('\n'),
    );
  });

  it('materializes an unnamed table once a join reads it', () => {
    const builder = new StreamsBuilder();
    const named = builder
      .stream<string, string>('in2')
      .toTable(Named.as('t2'), Materialized.as('t2-store'));
    const unnamed = builder.stream<string, string>('in3').toTable();
    unnamed
      .join(named, (a, b) => `${a}${b}`)
      .toStream()
      .to('out3');
    const description = builder.build().describe();
    expect(description).toContain(
      '    Processor: KSTREAM-TOTABLE-0000000003 (stores: [KSTREAM-TOTABLE-STATE-STORE-0000000004])',
    );
    expect(description).toContain('    Processor: t2 (stores: [t2-store])');
  });
});
