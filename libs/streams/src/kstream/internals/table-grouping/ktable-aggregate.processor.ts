import type { Processor } from '../../../processor/processor';
import type { ProcessorContext } from '../../../processor/processor-context';
import type { Record } from '../../../processor/record';
import type {
  TimestampedKeyValueStore,
  ValueAndTimestamp,
} from '../../../state/value-and-timestamp';
import { AggregateSupplier } from '../aggregate-supplier';
import { change, type Change } from '../change';
import { distinctKeys } from '../dropped-records';
import { TimestampedStoreGetter } from '../timestamped-store-getter';
import { TupleForwarder } from '../tuple-forwarder';

/**
 * How a grouped table folds values in and out of a key's aggregate: Kafka Streams'
 * `KTableAggregate` (an `initializer` for a key's first value) or `KTableReduce` (no
 * initializer: a key's first value is its aggregate).
 */
export interface TableAggregation<K, V, VA> {
  /** The aggregate of a key's first value: from the initializer, or the value itself. */
  first(key: K, value: V): VA;
  add(key: K, value: V, aggregate: VA): VA;
  remove(key: K, value: V, aggregate: VA): VA;
  /** Kafka's reduce keeps the record's timestamp for a key's first value after a removal. */
  readonly reduce: boolean;
}

/**
 * `KGroupedTable.count`/`reduce`/`aggregate` (Kafka Streams' `KTableAggregate` and
 * `KTableReduce`): each change removes its old value from the key's aggregate (the
 * subtractor) and adds its new value (the adder), then writes the aggregate at the later of
 * the record's and the aggregate's timestamps and emits the change (per record without
 * caching, on cache flush with caching). An aggregate that becomes `null` deletes the row.
 *
 * Errors: a change with a `null` key throws (the task fails; a grouping never makes one).
 */
export class KTableAggregateProcessor<K, V, VA> implements Processor<K, Change<V>, K, Change<VA>> {
  private store!: TimestampedKeyValueStore<K, VA>;
  private forwarder!: TupleForwarder<K, ValueAndTimestamp<VA>, K, VA>;

  constructor(
    private readonly storeName: string,
    private readonly aggregation: TableAggregation<K, V, VA>,
    private readonly sendOldValues: boolean,
  ) {}

  init(context: ProcessorContext<K, Change<VA>>): void {
    this.store = context.getStateStore<TimestampedKeyValueStore<K, VA>>(this.storeName);
    this.forwarder = TupleForwarder.ofTimestampedValues(this.store, context, this.sendOldValues);
  }

  prefetch(records: readonly Record<K, Change<V>>[]): Promise<void> {
    return this.store.prefetch(distinctKeys(records));
  }

  process(record: Record<K, Change<V>>): void {
    const key = record.key;
    if (key === null || key === undefined) {
      throw new Error(
        `Record key for KTable aggregate operator with state ${this.storeName} should not be null.`,
      );
    }
    const { aggregation } = this;
    const old = this.store.get(key);
    const oldAggregate: VA | null = old?.value ?? null;
    const { newValue, oldValue } = record.value;
    let timestamp = record.timestamp;
    let intermediate: VA | null = oldAggregate;
    if (oldValue !== null && oldAggregate !== null) {
      intermediate = aggregation.remove(key, oldValue, oldAggregate);
      timestamp = Math.max(record.timestamp, old!.timestamp);
    }
    let aggregate = intermediate;
    if (newValue !== null) {
      if (intermediate === null) {
        aggregate = aggregation.first(key, newValue);
        if (!aggregation.reduce && old !== undefined) {
          timestamp = Math.max(record.timestamp, old.timestamp);
        }
      } else {
        aggregate = aggregation.add(key, newValue, intermediate);
        timestamp = Math.max(record.timestamp, old!.timestamp);
      }
    }
    this.store.put(key, aggregate === null ? null : { value: aggregate, timestamp });
    this.forwarder.maybeForward(
      record.withValue(change(aggregate, oldAggregate)).withTimestamp(timestamp),
    );
  }
}

/** The KTable node of a grouped table's aggregation: its timestamped store is the table. */
export function tableAggregateSupplier<K, V, VA>(
  storeName: string,
  aggregation: TableAggregation<K, V, VA>,
): AggregateSupplier<K, Change<V>, K, VA> {
  return new AggregateSupplier(
    storeName,
    (sendOldValues) => new KTableAggregateProcessor(storeName, aggregation, sendOldValues),
    () => new TimestampedStoreGetter<K, VA>(storeName),
  );
}
