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
 * `StreamsBuilder.table` and `KStream.toTable`: upserts every record of the topic into the
 * table's store (a `null` value deletes the row) and emits the change, per record without
 * caching or on cache flush with caching; without a store (an unmaterialized table) it
 * emits each record as the change to its value. Records with a `null` key are dropped and
 * counted.
 */
export class KTableSourceProcessor<K, V> implements Processor<K, V, K, Change<V>> {
  readonly keyPreserving = true;
  readonly dropped = new DroppedRecords();
  private store: TimestampedKeyValueStore<K, V> | undefined;
  private forwarder: TupleForwarder<K, ValueAndTimestamp<V>, K, V> | undefined;
  private context!: ProcessorContext<K, Change<V>>;

  /**
   * Loads the batch's rows, only when old values are needed (nothing else reads the store).
   * Absent otherwise, so that the task's prefetch looks through this key-preserving node to
   * the processors below (a table-table join reading the other table).
   */
  readonly prefetch?: (records: readonly Record<K, V>[]) => Promise<void>;

  constructor(
    private readonly storeName: string | undefined,
    private readonly sendOldValues: boolean,
  ) {
    if (sendOldValues && storeName !== undefined) {
      this.prefetch = (records) => this.store!.prefetch(distinctKeys(records));
    }
  }

  init(context: ProcessorContext<K, Change<V>>): void {
    this.dropped.attach(context);
    this.context = context;
    if (this.storeName === undefined) return;
    this.store = context.getStateStore<TimestampedKeyValueStore<K, V>>(this.storeName);
    this.forwarder = TupleForwarder.ofTimestampedValues(this.store, context, this.sendOldValues);
  }

  process(record: Record<K, V>): void {
    if (this.dropped.nullKey(record.key)) return;
    const value = record.value ?? null;
    const { store, forwarder } = this;
    if (store === undefined || forwarder === undefined) {
      this.context.forward(record.withValue(change(value, null)));
      return;
    }
    const old = this.sendOldValues ? store.get(record.key) : undefined;
    store.put(record.key, value === null ? null : { value, timestamp: record.timestamp });
    forwarder.maybeForward(record.withValue(change(value, old?.value ?? null)));
  }
}

/**
 * The KTable node of a source table, materialized as Kafka Streams' `KTableSource`: in
 * `storeName` from the start when it is named (no `materialize` given), else only once a
 * downstream operator reads its rows ({@link view}: joins) or forces old values from it
 * (`enableSendingOldValues(true)`): `materialize` then adds the store to the topology, once.
 * Unmaterialized, it has no store and emits every record as it comes.
 */
export class KTableSourceSupplier<K, V> implements KTableProcessorSupplier<K, V> {
  private sendOldValues = false;
  private materialized: boolean;

  constructor(
    readonly storeName: string,
    private readonly materialize?: () => void,
  ) {
    this.materialized = materialize === undefined;
  }

  processorSupplier(): ProcessorSupplier<K, V, K, Change<V>> {
    return () =>
      new KTableSourceProcessor<K, V>(
        this.materialized ? this.storeName : undefined,
        this.sendOldValues,
      );
  }

  view(): KTableValueGetterSupplier<K, V> {
    this.materializeOnce();
    return storeGetterSupplier(this.storeName);
  }

  enableSendingOldValues(forceMaterialization: boolean): boolean {
    if (!this.materialized && !forceMaterialization) return false;
    this.materializeOnce();
    this.sendOldValues = true;
    return true;
  }

  private materializeOnce(): void {
    if (this.materialized) return;
    this.materialized = true;
    this.materialize?.();
  }
}
