import { TopologyError } from '../errors/topology.error';
import { Serdes } from '../serde/serdes';
import type { ValueAndTimestamp } from '../state/value-and-timestamp';
import type { WindowStore } from '../state/window-store';
import { Consumed } from './consumed';
import type { Reducer } from './functions';
import { Materialized } from './materialized';
import { Produced } from './produced';
import { StreamsBuilder } from './streams-builder';
import { TimeWindowedSerde } from './windows/time-windowed.serde';
import { TimeWindows } from './windows/time-windows';
import { dslDriverPerTest, windowLabel } from '../../test-support/dsl-test-support';

const str = Serdes.String();
const long = Serdes.Long();
const FIVE_MINUTES = 5 * 60_000;
const HOUR = 3_600_000;

/**
 * The input per key and window of 100 ms, reduced by `reducer` into `materialized` (string
 * values), written to `output`.
 */
function windowsReduced(
  reducer: Reducer<string>,
  materialized: Materialized<string, string>,
): StreamsBuilder {
  const builder = new StreamsBuilder();
  builder
    .stream('input', Consumed.with(str, str))
    .groupByKey()
    .windowedBy(TimeWindows.ofSizeWithNoGrace(100))
    .reduce(reducer, materialized.withValueSerde(str))
    .toStream()
    .map((w, v) => ({ key: windowLabel(w), value: v }))
    .to('output', Produced.with(str, str));
  return builder;
}

describe('TimeWindowedKStream through the TopologyTestDriver', () => {
  const dsl = dslDriverPerTest();

  function windowedCountTopology(): StreamsBuilder {
    const builder = new StreamsBuilder();
    builder
      .stream('labs.events', Consumed.with(str, str))
      .groupByKey()
      .windowedBy(TimeWindows.ofSizeWithNoGrace(FIVE_MINUTES))
      .count(Materialized.as<string, number>('windowed-count-store').withRetention(HOUR))
      .toStream()
      .map((w, count) => ({ key: windowLabel(w), value: count }))
      .to('output', Produced.with(str, long));
    return builder;
  }

  it('describes the windowed count like Kafka Streams', () => {
    expect(windowedCountTopology().build().describe()).toContain(
      [
        '    Processor: KSTREAM-AGGREGATE-0000000001 (stores: [windowed-count-store])',
        '      --> KTABLE-TOSTREAM-0000000002',
        '      <-- KSTREAM-SOURCE-0000000000',
      ].join('\n'),
    );
  });

  it('counts per key in 5-minute tumbling windows and drops late records', async () => {
    const driver = await dsl.start(windowedCountTopology());
    await dsl.pipeLines('labs.events', [
      'u1=e@1000',
      'u1=e@299999',
      'u2=e@100000',
      'u1=e@300000',
      'u1=e@200000',
      'u2=e@600000',
      'u2=e@599999',
    ]);
    expect(dsl.lines('output', str, long)).toEqual([
      'u1@0/300000=1@1000',
      'u1@0/300000=2@299999',
      'u2@0/300000=1@100000',
      'u1@300000/600000=1@300000',
      'u2@600000/900000=1@600000',
    ]);
    const store =
      driver.getStateStore<WindowStore<string, ValueAndTimestamp<number>>>('windowed-count-store');
    expect(store.fetch('u1', 0)).toEqual({ value: 2, timestamp: 299_999 });
    expect(store.fetch('u1', FIVE_MINUTES)).toEqual({ value: 1, timestamp: 300_000 });
    expect(store.fetch('u2', FIVE_MINUTES)).toBeUndefined();
    // The two late records, then a null key: the task's dropped-records.
    expect(driver.metrics().droppedRecords).toBe(2);
    await dsl.pipeLines('labs.events', ['null=e@600001']);
    expect(driver.metrics()).toMatchObject({ processed: 8, droppedRecords: 3 });
  });

  it('aggregates hopping windows with grace and writes windowed keys with their serde', async () => {
    const builder = new StreamsBuilder();
    const windowSerde = new TimeWindowedSerde(str, 10);
    builder
      .stream('input', Consumed.with(str, str))
      .groupByKey()
      .windowedBy(TimeWindows.ofSizeAndGrace(10, 5).advanceBy(5))
      .aggregate<string>(
        () => '',
        (_k, v, agg) => agg + v,
        Materialized.as<string, string>('letters').withValueSerde(str),
      )
      .toStream()
      .to('output', Produced.with(windowSerde, str));
    await dsl.start(builder);
    await dsl.pipeLines('input', ['k=a@7', 'k=b@12', 'k=c@4', 'k=d@21', 'k=e@9']);
    expect(dsl.lines('output', windowSerde, str)).toEqual([
      '[k@0/10]=a@7',
      '[k@5/15]=a@7',
      '[k@5/15]=ab@12',
      '[k@10/20]=b@12',
      '[k@0/10]=ac@7',
      '[k@15/25]=d@21',
      '[k@20/30]=d@21',
    ]);
  });

  it('reduce keeps the first value of a window and combines the rest', async () => {
    const reduced = windowsReduced((a, b) => `${a}${b}`, Materialized.as('r'));
    await dsl.start(reduced);
    await dsl.pipeLines('input', ['k=x@1', 'k=y@2', 'k=z@101']);
    expect(dsl.lines('output')).toEqual(['k@0/100=x@1', 'k@0/100=xy@2', 'k@100/200=z@101']);
  });

  it('hands null values to the reducer as Kafka Streams does: a window reduced to null is deleted', async () => {
    const reduced = windowsReduced(
      (a, b) => `${a}+${b}`,
      Materialized.as<string, string>('r').withRetention(1000),
    );
    const driver = await dsl.start(reduced, { config: { statestoreCacheMaxBytes: 0 } });
    // Windowed aggregations skip null keys only: a first null value reduces to null (the
    // window is deleted and a tombstone emitted), a later one is handed to the reducer.
    await dsl.pipeLines('input', ['k=null@1', 'k=x@2', 'k=null@3', 'k=null@101']);
    expect(dsl.lines('output')).toEqual([
      'k@0/100=null@1',
      'k@0/100=x@2',
      'k@0/100=x+null@3',
      'k@100/200=null@101',
    ]);
    expect(driver.getWindowStore<string, string>('r').fetch('k', 0)).toBe('x+null');
    expect(driver.getWindowStore<string, string>('r').fetch('k', 100)).toBeUndefined();
  });

  it('closes windows by the stream time the aggregation saw: null keys and filtered records do not count', async () => {
    const builder = new StreamsBuilder();
    builder
      .stream('input', Consumed.with(str, str))
      .filter((_k, v) => v !== 'skip')
      .groupByKey()
      .windowedBy(TimeWindows.ofSizeWithNoGrace(10))
      .count()
      .toStream()
      .map((w, v) => ({ key: windowLabel(w), value: v }))
      .to('output', Produced.with(str, long));
    await dsl.start(builder);
    // As Kafka Streams' observedStreamTime: the task's stream time reaches 50, the
    // aggregation's stays at 1, so window [0, 10) is still open for b@5.
    await dsl.pipeLines('input', ['k=a@1', 'null=x@50', 'k=skip@60', 'k=b@5']);
    expect(dsl.lines('output', str, long)).toEqual(['k@0/10=1@1', 'k@0/10=2@5']);
  });

  it('rejects a retention shorter than window size plus grace', () => {
    const builder = new StreamsBuilder();
    const windowed = builder
      .stream<string, string>('input')
      .groupByKey()
      .windowedBy(TimeWindows.ofSizeAndGrace(FIVE_MINUTES, 60_000));
    expect(() =>
      windowed.count(Materialized.as<string, number>('w').withRetention(FIVE_MINUTES)),
    ).toThrow(TopologyError);
    expect(() =>
      windowed.count(Materialized.as<string, number>('w2').withRetention(FIVE_MINUTES)),
    ).toThrow(
      "the retention of window store 'w2' (300000 ms) must be no smaller than its window size plus grace period (360000 ms)",
    );
  });
});
