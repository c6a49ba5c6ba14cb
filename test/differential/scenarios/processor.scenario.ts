import {
  Consumed,
  type KeyValueStore,
  Materialized,
  type Processor,
  type ProcessorContext,
  Produced,
  PunctuationType,
  Record,
  Stores,
} from '@nest-streams/streams';
import type { DifferentialScenario } from '../harness/scenario';
import { long, num, str } from './serdes';

/**
 * Counts records per key in a store and forwards `value#count`; every 100 ms of stream time
 * and every 1000 ms of wall-clock time forwards the total (`stream`/`wall` keys). The Java
 * twin is `ProcessorScenarios.CountingProcessor`.
 */
class CountingProcessor implements Processor<string, string, string, string> {
  private context!: ProcessorContext<string, string>;
  private store!: KeyValueStore<string, number>;

  init(context: ProcessorContext<string, string>): void {
    this.context = context;
    this.store = context.getStateStore<KeyValueStore<string, number>>('seen');
    context.schedule(100, PunctuationType.STREAM_TIME, (ts) => this.total('stream', ts));
    context.schedule(1000, PunctuationType.WALL_CLOCK_TIME, (ts) => this.total('wall', ts));
  }

  process(record: Record<string, string>): void {
    if (record.key === null) return;
    const count = (this.store.get(record.key) ?? 0) + 1;
    this.store.put(record.key, count);
    this.context.forward(record.withValue(`${record.value}#${count}`));
  }

  private total(kind: string, timestamp: number): void {
    let total = 0;
    const all = this.store.all();
    try {
      for (const { value } of all) total += value;
    } finally {
      all.close();
    }
    this.context.forward(new Record(kind, `${total}@${timestamp}`, timestamp));
  }
}

/** The Processor API through `KStream.process`: a store, stream-time and wall-clock punctuators. */
export const processorPunctuationScenario: DifferentialScenario = {
  name: 'processor-punctuation',
  operators: 'KStream.process with a store, stream-time and wall-clock punctuation',
  input: {
    topics: [{ topic: 'events', keys: 6, values: 'number', tombstones: 0.05, nullKeys: 0.05 }],
    wallClock: 0.1,
    wallClockMs: 700,
  },
  outputs: [{ topic: 'out-processed', key: 'string', value: 'string' }],
  stores: [{ name: 'seen', kind: 'kv' }],
  caching: 'on',
  build(builder) {
    builder.addStateStore(
      Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore('seen'), str, long),
    );
    builder
      .stream('events', Consumed.with(str, str))
      .process(() => new CountingProcessor(), undefined, 'seen')
      .to('out-processed', Produced.with(str, str));
  },
};

/**
 * Two aggregations after two key changes, joined: one input record feeds two repartition
 * topics, whose records reach the downstream sub-topology in an order both drivers must share.
 */
export const repartitionJoinScenario: DifferentialScenario = {
  name: 'repartition-join',
  operators: 'two groupBy + count (two repartition topics) joined table-table; merge + groupByKey',
  input: {
    topics: [
      { topic: 'events', keys: 6, values: 'number', tombstones: 0.05 },
      { topic: 'more-events', keys: 6, values: 'number', tombstones: 0.05 },
    ],
  },
  outputs: [
    { topic: 'out-count-join', key: 'string', value: 'string' },
    { topic: 'out-merged-sum', key: 'string', value: 'long' },
  ],
  stores: [
    { name: 'by-mod3', kind: 'kv' },
    { name: 'by-mod2', kind: 'kv' },
    { name: 'merged-sum', kind: 'kv' },
  ],
  build(builder) {
    const events = builder.stream('events', Consumed.with(str, str));
    const byMod3 = events.groupBy((_k, v) => `g${num(v) % 3}`).count(Materialized.as('by-mod3'));
    const byMod2 = events.groupBy((_k, v) => `g${num(v) % 2}`).count(Materialized.as('by-mod2'));
    byMod3
      .join(byMod2, (a, b) => `${a}/${b}`)
      .toStream()
      .to('out-count-join', Produced.with(str, str));
    events
      .merge(builder.stream('more-events', Consumed.with(str, str)))
      .selectKey((_k, v) => `m${num(v) % 4}`)
      .groupByKey()
      .aggregate(
        () => 0,
        (_k, v, sum) => sum + num(v),
        Materialized.as<string, number>('merged-sum').withValueSerde(long),
      )
      .toStream()
      .to('out-merged-sum', Produced.with(str, long));
  },
};
