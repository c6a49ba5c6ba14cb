import { Serdes } from '../../../serde/serdes';
import { Consumed } from '../../consumed';
import { Grouped } from '../../grouped';
import { Materialized } from '../../materialized';
import { Named } from '../../named';
import { Produced } from '../../produced';
import { StreamsBuilder } from '../../streams-builder';
import { SessionWindows } from '../../windows/session-windows';
import { TimeWindows } from '../../windows/time-windows';
import type { CogroupedKStream } from '../../kgrouped-stream';
import { dslDriverPerTest, windowLabel } from '../../../../test-support/dsl-test-support';

const str = Serdes.String();

/** Stream, key, value, timestamp; expected records are Kafka Streams 4.4's after each record. */
const INPUT: readonly (readonly ['a' | 'b', string, string, number])[] = [
  ['a', 'k', '1', 1],
  ['b', 'x', 'k', 2],
  ['a', 'k', '2', 3],
  ['b', 'y', 'j', 12],
  ['a', 'j', '3', 13],
];

describe('cogroup through the TopologyTestDriver', () => {
  const dsl = dslDriverPerTest();

  /** Stream `a` as is, stream `b` re-keyed by value (so repartitioned), cogrouped. */
  function cogrouped(builder: StreamsBuilder): CogroupedKStream<string, string> {
    const a = builder.stream('a', Consumed.with(str, str)).groupByKey();
    const b = builder
      .stream('b', Consumed.with(str, str))
      .map((k, v) => ({ key: v, value: k }))
      .groupByKey(Grouped.with(undefined, str, str));
    return a
      .cogroup<string>((_k, v, agg) => `${agg}a${v}`)
      .cogroup(b, (_k, v, agg) => `${agg}b${v}`);
  }

  /** The aggregates of `cogrouped` over INPUT after each record (Kafka Streams 4.4's). */
  const FOLDED_PER_RECORD = [['k=a1@1'], ['k=a1bx@2'], ['k=a1bxa2@3'], ['j=by@12'], ['j=bya3@13']];

  function perRecord(): Promise<string[][]> {
    return dsl.linesPerSideRecord({ a: 'a', b: 'b' }, INPUT);
  }

  it('folds every stream into one aggregate per key, repartitioning a re-keyed stream', async () => {
    const builder = new StreamsBuilder();
    cogrouped(builder)
      .aggregate(() => '', Materialized.with(str, str).withCachingDisabled())
      .toStream()
      .to('out', Produced.with(str, str));
    await dsl.start(builder);
    expect(await perRecord()).toEqual(FOLDED_PER_RECORD);
    const description = builder.build().describe();
    for (const line of [
      '    Source: COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition-source (topics: [COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition])',
      '    Processor: COGROUPKSTREAM-AGGREGATE-0000000007 (stores: [COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000003])',
      '    Processor: COGROUPKSTREAM-AGGREGATE-0000000008 (stores: [COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000003])',
      '      <-- COGROUPKSTREAM-AGGREGATE-0000000007, COGROUPKSTREAM-AGGREGATE-0000000008',
      '    Sink: KSTREAM-SINK-0000000011 (topic: out)',
    ]) {
      expect(description).toContain(line);
    }
  });

  it('names the processors after Named and the store after Materialized, and is queryable', async () => {
    const builder = new StreamsBuilder();
    const table = cogrouped(builder).aggregate(
      () => '',
      Materialized.as<string, string>('co-store').withValueSerde(str).withCachingDisabled(),
      Named.as('co'),
    );
    table.toStream().to('out', Produced.with(str, str));
    const driver = await dsl.start(builder);
    expect(table.queryableStoreName).toBe('co-store');
    expect(await perRecord()).toEqual(FOLDED_PER_RECORD);
    const description = builder.build().describe();
    expect(description).toContain('    Processor: co-cogroup-agg-0 (stores: [co-store])');
    expect(description).toContain('    Processor: co-cogroup-agg-1 (stores: [co-store])');
    expect(description).toContain('      <-- co-cogroup-agg-0, co-cogroup-agg-1');
    expect(description).toContain('(topics: [co-store-repartition])');
    expect(driver.getKeyValueStore<string, string>('co-store').get('k')).toBe('a1bxa2');
  });

  it('aggregates per time window', async () => {
    const builder = new StreamsBuilder();
    cogrouped(builder)
      .windowedBy(TimeWindows.ofSizeWithNoGrace(10))
      .aggregate(() => '', Materialized.with(str, str).withCachingDisabled())
      .toStream()
      .map((w, v) => ({ key: `${w.key}@${w.window.start}`, value: v }))
      .to('out', Produced.with(str, str));
    await dsl.start(builder);
    expect(await perRecord()).toEqual([
      ['k@0=a1@1'],
      ['k@0=a1bx@2'],
      ['k@0=a1bxa2@3'],
      ['j@10=by@12'],
      ['j@10=bya3@13'],
    ]);
  });

  it('aggregates per session, merging with the merger', async () => {
    const builder = new StreamsBuilder();
    cogrouped(builder)
      .windowedBy(SessionWindows.ofInactivityGapWithNoGrace(5))
      .aggregate(
        () => '',
        (_k, x, y) => `${x}|${y}`,
        Materialized.with(str, str).withCachingDisabled(),
      )
      .toStream()
      .map((w, v) => ({ key: windowLabel(w), value: v }))
      .to('out', Produced.with(str, str));
    await dsl.start(builder);
    expect(await perRecord()).toEqual([
      ['k@1/1=a1@1'],
      ['k@1/1=null@1', 'k@1/2=|a1bx@2'],
      ['k@1/2=null@2', 'k@1/3=||a1bxa2@3'],
      ['j@12/12=by@12'],
      ['j@12/12=null@12', 'j@12/13=|bya3@13'],
    ]);
  });
});
