/** A key and its value, as read from a store. */
export interface KeyValue<K, V> {
  readonly key: K;
  readonly value: V;
}

/**
 * An iterator over a store's entries, usable with `for ... of`. It holds engine resources (a
 * RocksDB iterator and snapshot): consume it to the end, break out of the loop, or call
 * `close()`. Reading it after its store closed throws `StoreClosedError`.
 */
export interface KeyValueIterator<K, V> extends IterableIterator<KeyValue<K, V>> {
  /** The next entry's key without consuming it, or `undefined` at the end. */
  peekNextKey(): K | undefined;
  /** Releases the iterator's resources. Idempotent. */
  close(): void;
}

/**
 * Read access to a key-value store: what interactive queries get.
 *
 * Synchronous reads need an engine with synchronous reads (the in-memory engine,
 * `@nxtedition/rocksdb`), else they throw `UnsupportedStoreOperationError`: use the `...Async`
 * reads, which every engine serves. Reads of a closed or migrated store throw
 * `StoreClosedError`: rediscover the store (`KafkaStreams.store()`) and retry.
 * Values that do not deserialize throw `SerializationError`: the value serde does not match
 * the data; fix the serde.
 */
export interface ReadOnlyKeyValueStore<K, V> {
  readonly name: string;
  /** The value of `key`, or `undefined`. */
  get(key: K): V | undefined;
  /** Entries with `from <= key <= to` (serialized order), ascending; omitted bounds are open. */
  range(from?: K, to?: K): KeyValueIterator<K, V>;
  /** The same entries as `range`, descending. */
  reverseRange(from?: K, to?: K): KeyValueIterator<K, V>;
  /** Entries whose serialized key starts with the serialized `prefix`, ascending. */
  prefixScan<P>(
    prefix: P,
    prefixSerializer: { serialize(value: P): Buffer },
  ): KeyValueIterator<K, V>;
  /** Every entry, ascending. */
  all(): KeyValueIterator<K, V>;
  /** Every entry, descending. */
  reverseAll(): KeyValueIterator<K, V>;
  /** An estimate of the number of entries. */
  approximateNumEntries(): number;

  /** `get` for every engine. */
  getAsync(key: K): Promise<V | undefined>;
  /** `range` (or with `reverse`, `reverseRange`) for every engine, read into an array. */
  rangeAsync(from?: K, to?: K, reverse?: boolean): Promise<KeyValue<K, V>[]>;
  /** `all` (or with `reverse`, `reverseAll`) for every engine, read into an array. */
  allAsync(reverse?: boolean): Promise<KeyValue<K, V>[]>;
}

/**
 * A key-value store as processors use it. Writes are synchronous (no await per record) and
 * reach the changelog either at once (caching disabled) or when the cache flushes (on commit
 * or eviction).
 *
 * `delete`, `putIfAbsent` and `get` read first: on an engine without synchronous reads they
 * need the key prefetched (`prefetch`) or a caching layer that holds it, else they throw
 * `SyncReadUnavailableError`: prefetch the batch's keys before processing it.
 */
export interface KeyValueStore<K, V> extends ReadOnlyKeyValueStore<K, V> {
  /** Writes `value` under `key`; `null` deletes the key. */
  put(key: K, value: V | null): void;
  /** Writes every entry, in order. */
  putAll(entries: readonly KeyValue<K, V | null>[]): void;
  /** Writes only when absent; returns the existing value, or `undefined` when it wrote. */
  putIfAbsent(key: K, value: V): V | undefined;
  /** Deletes `key` and returns its old value. */
  delete(key: K): V | undefined;
  /**
   * Loads `keys` in one multi-get so that the following synchronous reads of them never wait
   * on the engine. A no-op for engines with synchronous reads and no cache.
   */
  prefetch(keys: readonly K[]): Promise<void>;
}
