import type { Processor, ProcessorSupplier } from '../../processor/processor';
import type { ProcessorContext } from '../../processor/processor-context';
import type { Record } from '../../processor/record';
import type { TimestampedKeyValueStore, ValueAndTimestamp } from '../../state/value-and-timestamp';
import { change, type Change } from './change';
import { DroppedRecords, distinctKeys } from './dropped-records';
import type { KTableProcessorSupplier, KTableValueGetterSupplier } from './ktable-value-getter';
import { storeGetterSupplier } from './timestamped-store-getter';
import { TupleForwarder } from './tuple-forwarder';

/**
 * `StreamsBuilder.table`: upserts every record of the topic into the table's store (a `null`
 * value deletes the row) and emits the change, per record without caching or on cache flush
 * with caching. Records with a `null` key are dropped and counted.
 *
 * A table that Kafka Streams would leave unmaterialized (nobody named it, reads it or forced
 * it: see {@link KTableSourceSupplier}) skips its store and emits every record as it comes,
 * as Kafka Streams' `KTableSource` does then.
 */
export class KTableSourceProcessor<K, V> implements Processor<K, V, K, Change<V>> {
  readonly keyPreserving = true;
  readonly dropped = new DroppedRecords();
  private context!: ProcessorContext<K, Change<V>>;
  private store!: TimestampedKeyValueStore<K, V>;
  private forwarder: TupleForwarder<K, ValueAndTimestamp<V>, K, V> | undefined;

  /**
   * Loads the batch's rows, only when old values are needed (nothing else reads the store).
   * Absent otherwise, so that the task's prefetch looks through this key-preserving node to
   * the processors below (a table-table join reading the other table).
   */
  readonly prefetch?: (records: readonly Record<K, V>[]) => Promise<void>;

  constructor(
    private readonly storeName: string,
    private readonly sendOldValues: boolean,
    private readonly materialized = true,
  ) {
    if (sendOldValues) this.prefetch = (records) => this.store.prefetch(distinctKeys(records));
  }

  init(context: ProcessorContext<K, Change<V>>): void {
    this.dropped.attach(context);
    this.context = context;
    if (!this.materialized) return;
    this.store = context.getStateStore<TimestampedKeyValueStore<K, V>>(this.storeName);
    this.forwarder = TupleForwarder.ofTimestampedValues(this.store, context, this.sendOldValues);
  }

  process(record: Record<K, V>): void {
    if (this.dropped.nullKey(record.key)) return;
    const value = record.value ?? null;
    if (this.forwarder === undefined) {
      this.context.forward(record.withValue(change(value, null)));
      return;
    }
    const old = this.sendOldValues ? this.store.get(record.key) : undefined;
    this.store.put(record.key, value === null ? null : { value, timestamp: record.timestamp });
    this.forwarder.maybeForward(record.withValue(change(value, old?.value ?? null)));
  }
}

/**
 * The KTable node of a source table. Its store is always in the topology, but used as Kafka
 * Streams materializes a source table: when it is named (`queryable`), when a downstream
 * operator reads its rows ({@link view}: joins), or when one forces old values from it.
 */
export class KTableSourceSupplier<K, V> implements KTableProcessorSupplier<K, V> {
  private sendOldValues = false;
  private materialized: boolean;

  constructor(
    readonly storeName: string,
    queryable = true,
  ) {
    this.materialized = queryable;
  }

  processorSupplier(): ProcessorSupplier<K, V, K, Change<V>> {
    return () =>
      new KTableSourceProcessor<K, V>(this.storeName, this.sendOldValues, this.materialized);
  }

  view(): KTableValueGetterSupplier<K, V> {
    this.materialized = true;
    return storeGetterSupplier(this.storeName);
  }

  enableSendingOldValues(forceMaterialization: boolean): boolean {
    if (!this.materialized && !forceMaterialization) return false;
    this.materialized = true;
    this.sendOldValues = true;
    return true;
  }
}
