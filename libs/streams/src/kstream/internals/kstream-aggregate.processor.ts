import type { Processor, ProcessorSupplier } from '../../processor/processor';
import type { ProcessorContext } from '../../processor/processor-context';
import { Record } from '../../processor/record';
import type { TimestampedKeyValueStore, ValueAndTimestamp } from '../../state/value-and-timestamp';
import { change, type Change } from './change';
import { DroppedRecords, distinctKeys } from './dropped-records';
import { AggregateSupplier } from './aggregate-supplier';
import type { KTableValueGetterSupplier } from './ktable-value-getter';
import { storeGetterSupplier } from './timestamped-store-getter';
import { TupleForwarder } from './tuple-forwarder';

/**
 * Folds a record into the aggregate of its key; `aggregate` is `undefined` for the first
 * record of a key. `count`, `reduce` and `aggregate` are all expressed with it.
 */
export type AggregateFunction<K, V, VA> = (key: K, value: V, aggregate: VA | undefined) => VA;

/**
 * `KGroupedStream.count`/`reduce`/`aggregate` (Kafka Streams' `KStreamAggregate` and
 * `KStreamReduce`): reads the key's aggregate from its timestamped store, folds the record
 * in, writes it back with timestamp `max(record, previous)` and emits the change (per record
 * without caching, on cache flush with caching). Records with a `null` key or value are
 * dropped and counted, as in Kafka Streams.
 *
 * `prefetch` loads the batch's distinct keys in one multi-get, so that `process` never waits
 * on the engine.
 */
export class KStreamAggregateProcessor<K, V, VA> implements Processor<K, V, K, Change<VA>> {
  readonly dropped = new DroppedRecords();
  private store!: TimestampedKeyValueStore<K, VA>;
  private forwarder!: TupleForwarder<K, ValueAndTimestamp<VA>, K, VA>;

  constructor(
    private readonly storeName: string,
    private readonly aggregate: AggregateFunction<K, V, VA>,
    private readonly sendOldValues: boolean,
  ) {}

  init(context: ProcessorContext<K, Change<VA>>): void {
    this.dropped.attach(context);
    this.store = context.getStateStore<TimestampedKeyValueStore<K, VA>>(this.storeName);
    this.forwarder = TupleForwarder.ofTimestampedValues(this.store, context, this.sendOldValues);
  }

  prefetch(records: readonly Record<K, V>[]): Promise<void> {
    return this.store.prefetch(distinctKeys(records));
  }

  process(record: Record<K, V>): void {
    const { key, value } = record;
    if (key === null || key === undefined) {
      this.dropped.record('null-key');
      return;
    }
    if (value === null || value === undefined) {
      this.dropped.record('null-value');
      return;
    }
    const old = this.store.get(key);
    const timestamp =
      old === undefined ? record.timestamp : Math.max(record.timestamp, old.timestamp);
    const aggregate = this.aggregate(key, value, old?.value);
    this.store.put(key, { value: aggregate, timestamp });
    this.forwarder.maybeForward(
      new Record(key, change(aggregate, old?.value ?? null), timestamp, record.headers),
    );
  }
}

/** The KTable node of an aggregation: its store is the table. */
export class KStreamAggregateSupplier<K, V, VA> extends AggregateSupplier<K, V, K, VA> {
  constructor(
    storeName: string,
    private readonly aggregate: AggregateFunction<K, V, VA>,
  ) {
    super(storeName);
  }

  processorSupplier(): ProcessorSupplier<K, V, K, Change<VA>> {
    return () => new KStreamAggregateProcessor(this.storeName, this.aggregate, this.sendOldValues);
  }

  view(): KTableValueGetterSupplier<K, VA> {
    return storeGetterSupplier(this.storeName);
  }
}
