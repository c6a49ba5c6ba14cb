import { Serdes } from '../../../serde/serdes';
import { Consumed } from '../../consumed';
import { Grouped } from '../../grouped';
import { Materialized } from '../../materialized';
import { Named } from '../../named';
import { Produced } from '../../produced';
import { StreamsBuilder } from '../../streams-builder';
import { dslDriverPerTest } from '../../../../test-support/dsl-test-support';

const str = Serdes.String();

/** User `u` moves to region `r`; expected records are Kafka Streams 4.4's after each record. */
const MOVES = ['u1=eu@1', 'u2=us@2', 'u3=eu@3', 'u1=us@4', 'u3=null@5', 'u2=us@6', 'u4=eu@7'];

describe('KTable.groupBy and KGroupedTable through the TopologyTestDriver', () => {
  const dsl = dslDriverPerTest();

  function users(builder: StreamsBuilder) {
    return builder.table(
      'in',
      Consumed.with(str, str),
      Materialized.as<string, string>('users').withCachingDisabled(),
    );
  }

  it('counts the rows per new key, moving a row from its old key to its new one', async () => {
    const builder = new StreamsBuilder();
    users(builder)
      .groupBy((user, region) => ({ key: region, value: user }), Grouped.with(undefined, str, str))
      .count(Materialized.as<string, number>('counts').withCachingDisabled())
      .toStream()
      .mapValues((count) => String(count))
      .to('out', Produced.with(str, str));
    const driver = await dsl.start(builder);
    expect(await dsl.linesPerRecord('in', MOVES)).toEqual([
      ['eu=1@1'],
      ['us=1@2'],
      ['eu=2@3'],
      ['eu=1@4', 'us=2@4'],
      ['eu=0@5'],
      ['us=2@6'],
      ['eu=1@7'],
    ]);
    // Kafka's Change layout on the repartition topic: old value + 0, new value + 1, or both + 2.
    expect(
      driver
        .producedRecords('topology-test-driver-counts-repartition')
        .map((r) => `${r.key!.toString()} ${r.value!.toString('hex')}`),
    ).toEqual([
      'eu 753101',
      'us 753201',
      'eu 753301',
      'eu 753100',
      'us 753101',
      'eu 753300',
      'us 047532753202',
      'eu 753401',
    ]);
    expect(builder.build().describe()).toContain(
      [
        '    Processor: KTABLE-SELECT-0000000002 (stores: [])',
        '      --> KSTREAM-SINK-0000000003',
        '      <-- KTABLE-SOURCE-0000000001',
        '    Sink: KSTREAM-SINK-0000000003 (topic: counts-repartition)',
        '      <-- KTABLE-SELECT-0000000002',
        '',
        '  Sub-topology: 1',
        '    Source: KSTREAM-SOURCE-0000000004 (topics: [counts-repartition])',
        '      --> KTABLE-AGGREGATE-0000000005',
        '    Processor: KTABLE-AGGREGATE-0000000005 (stores: [counts])',
      ].join('\n'),
    );
  });

  it('reduces and aggregates with adder and subtractor over one named repartition topic', async () => {
    const builder = new StreamsBuilder();
    const grouped = users(builder).groupBy(
      (user, region) => ({ key: region, value: user }),
      Grouped.with('by-region', str, str),
    );
    grouped
      .reduce(
        (a, b) => `${a}+${b}`,
        (a, b) => `${a}-${b}`,
        Materialized.as<string, string>('names').withCachingDisabled(),
      )
      .toStream()
      .to('out', Produced.with(str, str));
    grouped
      .aggregate(
        () => '',
        (_k, v, agg) => `${agg}<${v}`,
        (_k, v, agg) => `${agg}>${v}`,
        Materialized.with(str, str).withCachingDisabled(),
        Named.as('agg'),
      )
      .toStream()
      .to('out2', Produced.with(str, str));
    await dsl.start(builder);
    expect(await dsl.linesPerRecord('in', MOVES)).toEqual([
      ['eu=u1@1'],
      ['us=u2@2'],
      ['eu=u1+u3@3'],
      ['eu=u1+u3-u1@4', 'us=u2+u1@4'],
      ['eu=u1+u3-u1-u3@5'],
      ['us=u2+u1-u2+u2@6'],
      ['eu=u1+u3-u1-u3+u4@7'],
    ]);
    expect(dsl.lines('out2')).toEqual([
      'eu=<u1@1',
      'us=<u2@2',
      'eu=<u1<u3@3',
      'eu=<u1<u3>u1@4',
      'us=<u2<u1@4',
      'eu=<u1<u3>u1>u3@5',
      'us=<u2<u1>u2<u2@6',
      'eu=<u1<u3>u1>u3<u4@7',
    ]);
    const topology = builder.build();
    expect([...topology.internalTopicDefs().keys()]).toEqual(['by-region-repartition']);
    expect(topology.describe()).toContain(
      [
        '    Source: KSTREAM-SOURCE-0000000004 (topics: [by-region-repartition])',
        '      --> KTABLE-REDUCE-0000000005, agg',
      ].join('\n'),
    );
    expect(topology.describe()).toContain(
      '    Processor: agg (stores: [KTABLE-AGGREGATE-STATE-STORE-0000000008])',
    );
  });

  it('names the repartition topic after the generated store when nothing is named', () => {
    const builder = new StreamsBuilder();
    builder
      .table<string, string>('in')
      .groupBy((k, v) => ({ key: v, value: k }))
      .count()
      .toStream()
      .to('out');
    expect([...builder.build().internalTopicDefs().keys()]).toEqual([
      'KTABLE-AGGREGATE-STATE-STORE-0000000004-repartition',
    ]);
  });
});
