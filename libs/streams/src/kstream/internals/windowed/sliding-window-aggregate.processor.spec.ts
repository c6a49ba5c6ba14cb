import { TopologyError } from '../../../errors/topology.error';
import { Serdes } from '../../../serde/serdes';
import { Consumed } from '../../consumed';
import { Materialized } from '../../materialized';
import { Produced } from '../../produced';
import { StreamsBuilder } from '../../streams-builder';
import { SlidingWindows } from '../../windows/sliding-windows';
import { dslDriverPerTest, windowLabel } from '../../../../test-support/dsl-test-support';

const str = Serdes.String();

/**
 * Expected records are Kafka Streams 4.4's, from its TopologyTestDriver on the same input
 * (`KStreamSlidingWindowAggregateTest.testAggregateSmallInput` and our own inputs).
 */
describe('SlidingWindowAggregateProcessor through the TopologyTestDriver', () => {
  const dsl = dslDriverPerTest();

  function aggregating(
    windows: SlidingWindows,
    materialized: Materialized<string, string> = Materialized.as<string, string>('store'),
    reduce = false,
  ): StreamsBuilder {
    const builder = new StreamsBuilder();
    const windowed = builder
      .stream('topic', Consumed.with(str, str))
      .groupByKey()
      .windowedBy(windows);
    const table = reduce
      ? windowed.reduce((a, b) => `${a}+${b}`, materialized.withValueSerde(str))
      : windowed.aggregate(
          () => '0',
          (_k, v, agg) => `${agg}+${v}`,
          materialized.withValueSerde(str),
        );
    table
      .toStream()
      .map((w, v) => ({ key: windowLabel(w), value: v }))
      .to('out', Produced.with(str, str));
    return builder;
  }

  it('is described as Kafka Streams describes it', () => {
    const builder = aggregating(SlidingWindows.ofTimeDifferenceAndGrace(10, 5));
    expect(builder.build().describe()).toBe(
      [
        'Topologies:',
        '   Sub-topology: 0',
        '    Source: KSTREAM-SOURCE-0000000000 (topics: [topic])',
        '      --> KSTREAM-AGGREGATE-0000000001',
        '    Processor: KSTREAM-AGGREGATE-0000000001 (stores: [store])',
        '      --> KTABLE-TOSTREAM-0000000002',
        '      <-- KSTREAM-SOURCE-0000000000',
        '    Processor: KTABLE-TOSTREAM-0000000002 (stores: [])',
        '      --> KSTREAM-MAP-0000000003',
        '      <-- KSTREAM-AGGREGATE-0000000001',
        '    Processor: KSTREAM-MAP-0000000003 (stores: [])',
        '      --> KSTREAM-SINK-0000000004',
        '      <-- KTABLE-TOSTREAM-0000000002',
        '    Sink: KSTREAM-SINK-0000000004 (topic: out)',
        '      <-- KSTREAM-MAP-0000000003',
        '',
        '',
      ].join('\n'),
    );
  });

  it("creates, updates and emits the windows of Kafka's small-input test", async () => {
    await dsl.start(
      aggregating(
        SlidingWindows.ofTimeDifferenceAndGrace(10, 5),
        Materialized.as<string, string>('store').withCachingDisabled(),
      ),
    );
    await dsl.pipeLines('topic', [
      'A=1@10',
      'A=2@10',
      'A=3@14',
      'A=4@15',
      'A=5@20',
      'A=6@22',
      'A=7@30',
    ]);
    expect(dsl.lines('out')).toEqual([
      'A@0/10=0+1@10',
      'A@0/10=0+1+2@10',
      'A@11/21=0+3@14',
      'A@4/14=0+1+2+3@14',
      'A@11/21=0+3+4@15',
      'A@15/25=0+4@15',
      'A@5/15=0+1+2+3+4@15',
      'A@15/25=0+4+5@20',
      'A@11/21=0+3+4+5@20',
      'A@16/26=0+5@20',
      'A@10/20=0+1+2+3+4+5@20',
      'A@16/26=0+5+6@22',
      'A@15/25=0+4+5+6@22',
      'A@21/31=0+6@22',
      'A@12/22=0+3+4+5+6@22',
      'A@21/31=0+6+7@30',
      'A@23/33=0+7@30',
      'A@20/30=0+5+6+7@30',
    ]);
  });

  const early = [
    'A=a@3',
    'A=b@8',
    'A=c@1',
    'A=d@12',
    'B=x@5',
    'A=e@40',
    'A=f@9',
    'A=g@25',
    'A=h@2',
  ];
  const earlyOutput = [
    'A@0/10=0+a@3',
    'A@4/14=0+b@8',
    'A@0/10=0+a+b@8',
    'A@2/12=0+a+b@8',
    'A@0/10=0+a+b+c@8',
    'A@4/14=0+b+d@12',
    'A@2/12=0+a+b+d@12',
    'A@9/19=0+d@12',
    'B@0/10=0+x@5',
    'A@30/40=0+e@40',
    'A@15/25=0+g@25',
  ];

  it.each([
    ['without caching', Materialized.as<string, string>('store').withCachingDisabled()],
    ['with caching', Materialized.as<string, string>('store')],
  ])(
    'puts records earlier than the difference into [0, d] and drops late ones (%s)',
    async (_label, materialized) => {
      const driver = await dsl.start(
        aggregating(SlidingWindows.ofTimeDifferenceAndGrace(10, 20), materialized),
      );
      await dsl.pipeLines('topic', early);
      expect(dsl.lines('out')).toEqual(earlyOutput);
      const store = driver.getWindowStore<string, string>('store');
      expect([...store.all()].map((e) => `${windowLabel(e.key)}=${e.value}`)).toEqual([
        'A@0/10=0+a+b+c',
        'A@2/12=0+a+b+d',
        'A@4/14=0+b+d',
        'A@9/19=0+d',
        'A@15/25=0+g',
        'A@30/40=0+e',
        'B@0/10=0+x',
      ]);
      expect(driver.metrics().droppedRecords).toBe(2);
    },
  );

  it('reduces per sliding window, the first value of a window being its aggregate', async () => {
    await dsl.start(
      aggregating(
        SlidingWindows.ofTimeDifferenceAndGrace(10, 20),
        Materialized.as<string, string>('store').withCachingDisabled(),
        true,
      ),
    );
    await dsl.pipeLines('topic', early);
    expect(dsl.lines('out')).toEqual(earlyOutput.map((line) => line.replace('=0+', '=')));
  });

  it('refuses a retention below twice the difference plus grace', () => {
    expect(() =>
      aggregating(
        SlidingWindows.ofTimeDifferenceAndGrace(10, 5),
        Materialized.as<string, string>('store').withRetention(24),
      ),
    ).toThrow(
      new TopologyError(
        "the retention of window store 'store' (24 ms) must be no smaller than its twice the time difference plus grace period (25 ms): raise it with Materialized.withRetention",
      ),
    );
  });
});
