import type { Processor } from '../../processor/processor';
import type { ProcessorContext } from '../../processor/processor-context';
import { Record } from '../../processor/record';
import type { TimestampedKeyValueStore, ValueAndTimestamp } from '../../state/value-and-timestamp';
import { change, type Change } from './change';
import { DroppedRecords, distinctKeys } from './dropped-records';
import { AggregateSupplier } from './aggregate-supplier';
import { TimestampedStoreGetter } from './timestamped-store-getter';
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
  private updatable: UpdatableStore<K, ValueAndTimestamp<VA>> | undefined;

  constructor(
    private readonly storeName: string,
    private readonly aggregate: AggregateFunction<K, V, VA>,
    private readonly sendOldValues: boolean,
  ) {}

  init(context: ProcessorContext<K, Change<VA>>): void {
    this.dropped.attach(context);
    this.store = context.getStateStore<TimestampedKeyValueStore<K, VA>>(this.storeName);
    this.updatable = isUpdatable<K, ValueAndTimestamp<VA>>(this.store) ? this.store : undefined;
    this.forwarder = TupleForwarder.ofTimestampedValues(this.store, context, this.sendOldValues);
  }

  prefetch(records: readonly Record<K, V>[]): Promise<void> {
    return this.store.prefetch(distinctKeys(records));
  }

  process(record: Record<K, V>): void {
    const { key, value } = record;
    if (this.dropped.nullKey(key) || this.dropped.nullValue(value)) return;
    const store = this.store;
    const updatable = this.updatable;
    const old = updatable ? updatable.getForUpdate(key) : store.get(key);
    const timestamp =
      old === undefined ? record.timestamp : Math.max(record.timestamp, old.timestamp);
    let aggregate: VA;
    try {
      aggregate = this.aggregate(key, value, old?.value);
    } catch (error) {
      // The aggregator may have mutated the cached object before it threw.
      updatable?.forgetUpdate(key);
      throw error;
    }
    if (updatable) updatable.putUpdated(key, { value: aggregate, timestamp });
    else store.put(key, { value: aggregate, timestamp });
    this.forwarder.maybeForward(
      new Record(key, change(aggregate, old?.value ?? null), timestamp, record.headers),
    );
  }
}

/**
 * The reads and writes for update of the metered key-value store: with a record cache, the
 * aggregator receives the aggregate object the cache kept from the key's last update instead of
 * a fresh deserialization (it may mutate and return it). Old values forwarded downstream are
 * unaffected: with caching they come from the flushed bytes; without, these are `get`/`put`.
 */
interface UpdatableStore<K, V> {
  getForUpdate(key: K): V | undefined;
  putUpdated(key: K, value: V | null): void;
  forgetUpdate(key: K): void;
}

function isUpdatable<K, V>(store: object): store is UpdatableStore<K, V> & object {
  return typeof (store as Partial<UpdatableStore<K, V>>).getForUpdate === 'function';
}

/** The KTable node of an aggregation by key: its timestamped key-value store is the table. */
export function aggregateSupplier<K, V, VA>(
  storeName: string,
  aggregate: AggregateFunction<K, V, VA>,
): AggregateSupplier<K, V, K, VA> {
  return new AggregateSupplier(
    storeName,
    (sendOldValues) => new KStreamAggregateProcessor(storeName, aggregate, sendOldValues),
    () => new TimestampedStoreGetter<K, VA>(storeName),
  );
}
