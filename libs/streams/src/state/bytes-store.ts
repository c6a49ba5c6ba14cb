/**
 * The one bytes-store contract every storage engine implements (RocksDB bindings, the
 * in-memory sorted engine) and every layer (logging, caching, metering) wraps.
 *
 * Keys and values are raw bytes; ordering is unsigned lexicographic byte order, exactly as
 * RocksDB's default comparator (and Kafka Streams' `Bytes` comparator) orders them. The empty
 * key is a valid key (the smallest one). Range bounds are inclusive on both ends, as in Kafka
 * Streams' `range(from, to)`; a range whose `from` is above its `to` is empty.
 *
 * Reads come in two flavours:
 * - asynchronous (`getAsync`, `getManyAsync`, `rangeAsync`, `prefixScanAsync`) that every
 *   engine implements, used for interactive queries and for prefetching a fetched batch's
 *   keys in one multi-get;
 * - synchronous (`get`, `getMany`, the iterators, and the read-modify-write calls `delete` and
 *   `putIfAbsent`) used on the processing hot path, so that a record never costs one awaited
 *   RocksDB call. Engines without synchronous reads set `capabilities.syncReads = false` and
 *   throw `UnsupportedStoreOperationError` from these; the caching layer then serves the hot
 *   path from prefetched entries and deletes with a blind `put(key, null)`.
 *
 * Every read sees every write accepted before it, including writes an engine still holds in a
 * pending batch.
 *
 * Writes are synchronous calls that an engine may apply at once or buffer in a pending write
 * batch; `flush()` makes every accepted write durable in the engine (RocksDB's WAL is not the
 * durable copy: the changelog topic is, as in Kafka Streams).
 *
 * Buffers: an engine may keep references to the buffers it is given and may hand out buffers
 * it still holds (the in-memory engine does both, like Kafka Streams' in-memory store), so
 * callers must not mutate a buffer after passing it in or getting it back.
 *
 * Iterators hold engine resources (a RocksDB iterator and its snapshot): consume them to the
 * end or stop them with `return()` (a `for ... of` loop that breaks does that). RocksDB
 * iterators read a snapshot taken when iteration starts; the in-memory engine's iterators are
 * weakly consistent (each key at most once, in order; writes made during the iteration may or
 * may not be seen). An iterator used after its store closed throws `StoreClosedError`.
 */
export interface KeyValueBytes {
  readonly key: Buffer;
  readonly value: Buffer;
}

/** A write in a batch: a `null` value is a delete (a tombstone in the changelog). */
export interface BytesWrite {
  readonly key: Buffer;
  readonly value: Buffer | null;
}

/** What an engine can do beyond the contract's required part. */
export interface BytesStoreCapabilities {
  /**
   * `get`, `getMany`, the iterators, `delete` and `putIfAbsent` work synchronously from the
   * engine itself. When false they throw `UnsupportedStoreOperationError`.
   */
  readonly syncReads: boolean;
  /** The engine keeps its data across close and reopen. */
  readonly persistent: boolean;
}

/**
 * A bytes store.
 *
 * Errors (all from `libs/streams/src/errors`):
 * - `StoreClosedError` from every read and write while the store is not open (before `open()`,
 *   after `close()`/`destroy()`, from an iterator that outlived an open period): reopen it, or
 *   for queries rediscover the store;
 * - `UnsupportedStoreOperationError` from the synchronous reads of an engine without them:
 *   a programming error, use the asynchronous calls;
 * - `ProcessorStateError` when the engine itself fails (I/O, a locked or corrupt directory, a
 *   failed write batch), with the engine's message and the original error as `cause`: fatal for
 *   the task, whose state is then wiped and restored from the changelog;
 * - `RocksDBConfigError` from `open()` of a RocksDB engine given options it cannot apply: fix
 *   the config setter.
 */
export interface BytesStore {
  /** The store's name (the `Materialized.as(name)` name, or a segment's name). */
  readonly name: string;
  readonly capabilities: BytesStoreCapabilities;

  /** Opens (or reopens after `close`) the engine. Idempotent while open. */
  open(): Promise<void>;
  isOpen(): boolean;

  /** Synchronous point read; `undefined` when absent. Needs `capabilities.syncReads`. */
  get(key: Buffer): Buffer | undefined;
  /** Synchronous multi-get, results in the order of `keys`. Needs `capabilities.syncReads`. */
  getMany(keys: readonly Buffer[]): (Buffer | undefined)[];
  /** Asynchronous point read (every engine). */
  getAsync(key: Buffer): Promise<Buffer | undefined>;
  /** Asynchronous multi-get in one engine call (every engine), results in the order of `keys`. */
  getManyAsync(keys: readonly Buffer[]): Promise<(Buffer | undefined)[]>;

  /** Writes `value` under `key`; a `null` value deletes the key (a blind delete). */
  put(key: Buffer, value: Buffer | null): void;
  /** Applies all writes as one atomic write batch, in order (a later write to a key wins). */
  putAll(writes: readonly BytesWrite[]): void;
  /**
   * {@link putAll} off the main thread, for engines that can (the restore path uses it so that
   * the next changelog fetch is decoded while RocksDB writes this batch). Optional: without it,
   * restores call `putAll`. Rejects with the same errors `putAll` throws.
   */
  putAllAsync?(writes: readonly BytesWrite[]): Promise<void>;
  /**
   * Writes only if absent; returns the existing value, or undefined when it wrote.
   * Needs `capabilities.syncReads` (it reads first).
   */
  putIfAbsent(key: Buffer, value: Buffer): Buffer | undefined;
  /**
   * Deletes and returns the old value (undefined when there was none).
   * Needs `capabilities.syncReads` (it reads first); use `put(key, null)` otherwise.
   */
  delete(key: Buffer): Buffer | undefined;

  /**
   * Entries with `from <= key <= to` in ascending order. Either bound may be omitted (open).
   * Needs `capabilities.syncReads`.
   */
  range(from: Buffer | undefined, to: Buffer | undefined): IterableIterator<KeyValueBytes>;
  /** Same entries as `range`, descending. Needs `capabilities.syncReads`. */
  reverseRange(from: Buffer | undefined, to: Buffer | undefined): IterableIterator<KeyValueBytes>;
  /** Entries whose key starts with `prefix`, ascending. Needs `capabilities.syncReads`. */
  prefixScan(prefix: Buffer): IterableIterator<KeyValueBytes>;
  /** Every entry, ascending. Needs `capabilities.syncReads`. */
  all(): IterableIterator<KeyValueBytes>;
  /** Every entry, descending. Needs `capabilities.syncReads`. */
  reverseAll(): IterableIterator<KeyValueBytes>;

  /**
   * Asynchronous range read (every engine), ascending or, with `reverse`, descending. Reads
   * the whole range into memory: bound it for large stores.
   */
  rangeAsync(
    from: Buffer | undefined,
    to: Buffer | undefined,
    reverse?: boolean,
  ): Promise<KeyValueBytes[]>;
  /** Asynchronous prefix scan (every engine), ascending. */
  prefixScanAsync(prefix: Buffer): Promise<KeyValueBytes[]>;

  /** An estimate of the number of entries (RocksDB `rocksdb.estimate-num-keys`). */
  approximateNumEntries(): number;

  /** Makes every accepted write durable in the engine. */
  flush(): Promise<void>;
  /** Flushes and closes; reads and writes then fail until `open()`. Idempotent. */
  close(): Promise<void>;
  /**
   * Closes and deletes all data (used to wipe corrupt state before a full restore). Works on a
   * closed or never-opened store too; `open()` afterwards starts empty.
   */
  destroy(): Promise<void>;
}
