import type { ProcessorContext } from '../../processor/processor-context';
import type { ValueAndTimestamp } from '../../state/value-and-timestamp';

/**
 * Reads a KTable's current value for a key, synchronously, from inside a processor of the
 * same task (Kafka Streams' `KTableValueGetter`): a materialized table reads its store, a
 * derived one (filter, mapValues, join) computes from its parent's getter.
 *
 * Errors: `get` of a key that was neither prefetched nor cached, on an engine without
 * synchronous reads, throws `SyncReadUnavailableError`: call `prefetch` with the batch's keys
 * first (the processor's own `prefetch` hook does).
 */
export interface KTableValueGetter<K, V> {
  /** Resolves the stores it reads; call from the owning processor's `init`. */
  init(context: ProcessorContext<unknown, unknown>): void;
  /** The value and its timestamp, or `undefined` when the table has no row for `key`. */
  get(key: K): ValueAndTimestamp<V> | undefined;
  /** Loads the rows of `keys` in one multi-get per store, for synchronous `get` afterwards. */
  prefetch(keys: readonly K[]): Promise<void>;
}

/** Makes one getter per processor instance and names the stores the getters read. */
export interface KTableValueGetterSupplier<K, V> {
  get(): KTableValueGetter<K, V>;
  /** Stores a processor using these getters must be connected to. */
  storeNames(): readonly string[];
}

/** What every KTable node's supplier offers its downstream operators. */
export interface KTableProcessorSupplier<K, V> {
  /** How to read this table's current rows. */
  view(): KTableValueGetterSupplier<K, V>;
  /**
   * Makes this table's updates carry the values they replace (`Change.oldValue`), asking
   * upstream tables to do the same where this one computes old values from theirs. Called
   * while the topology is built; processors read the flag when the task creates them.
   *
   * As Kafka Streams' `enableSendingOldValues(forceMaterialization)`: a table that would need
   * materializing for it (a source table nobody named, read or asked with force) declines
   * unless `forceMaterialization`, and returns false; otherwise returns true.
   */
  enableSendingOldValues(forceMaterialization: boolean): boolean;
}
