/**
 * The one bytes-store contract every storage engine implements (RocksDB bindings, the
 * in-memory sorted engine) and every layer (logging, caching, metering) wraps.
 *
 * Keys and values are raw bytes; ordering is unsigned lexicographic byte order, exactly as
 * RocksDB's default comparator (and Kafka Streams' `Bytes` comparator) orders them.
 * Range bounds are inclusive on both ends, as in Kafka Streams' `range(from, to)`.
 *
 * Reads come in two flavours:
 * - asynchronous (`getAsync`, `getManyAsync`) that every engine implements, used for
 *   interactive queries and for prefetching a fetched batch's keys in one multi-get;
 * - synchronous (`get`, `getMany`, iterators) used on the processing hot path, so that a
 *   record never costs one awaited RocksDB call. Engines without synchronous reads set
 *   `capabilities.syncReads = false`; the caching layer then serves the hot path from
 *   prefetched entries.
 *
 * Writes are synchronous calls that an engine may apply at once or buffer in a pending write
 * batch; `flush()` makes every accepted write durable in the engine (RocksDB's WAL is off:
 * the changelog topic is the durable copy, as in Kafka Streams).
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
  /** `get`, `getMany` and the iterators work synchronously from the engine itself. */
  readonly syncReads: boolean;
  /** The engine keeps its data across close and reopen. */
  readonly persistent: boolean;
}

/**
 * A bytes store. Throws {@link import('../../errors').StoreClosedError}-style typed errors
 * (see `libs/streams/src/errors`) when used closed; engine I/O errors surface as
 * `ProcessorStateError`-style typed errors with the engine's message.
 */
export interface BytesStore {
  /** The store's name (the `Materialized.as(name)` name, or a segment's name). */
  readonly name: string;
  readonly capabilities: BytesStoreCapabilities;

  /** Opens (or reopens after `close`) the engine. Idempotent while open. */
  open(): Promise<void>;
  isOpen(): boolean;

  /** Synchronous point read; `undefined` when absent. */
  get(key: Buffer): Buffer | undefined;
  /** Synchronous multi-get, results in the order of `keys`. */
  getMany(keys: readonly Buffer[]): (Buffer | undefined)[];
  /** Asynchronous point read (every engine). */
  getAsync(key: Buffer): Promise<Buffer | undefined>;
  /** Asynchronous multi-get in one engine call (every engine). */
  getManyAsync(keys: readonly Buffer[]): Promise<(Buffer | undefined)[]>;

  put(key: Buffer, value: Buffer | null): void;
  /** Applies all writes as one atomic write batch. */
  putAll(writes: readonly BytesWrite[]): void;
  /** Writes only if absent; returns the existing value, or undefined when it wrote. */
  putIfAbsent(key: Buffer, value: Buffer): Buffer | undefined;
  /** Deletes and returns the old value. */
  delete(key: Buffer): Buffer | undefined;

  /** Entries with `from <= key <= to` in ascending order. Either bound may be omitted (open). */
  range(from: Buffer | undefined, to: Buffer | undefined): IterableIterator<KeyValueBytes>;
  /** Same entries as `range`, descending. */
  reverseRange(from: Buffer | undefined, to: Buffer | undefined): IterableIterator<KeyValueBytes>;
  /** Entries whose key starts with `prefix`, ascending. */
  prefixScan(prefix: Buffer): IterableIterator<KeyValueBytes>;
  /** Every entry, ascending. */
  all(): IterableIterator<KeyValueBytes>;
  /** Every entry, descending. */
  reverseAll(): IterableIterator<KeyValueBytes>;

  /** Asynchronous range read for engines without synchronous iterators (and for queries). */
  rangeAsync(
    from: Buffer | undefined,
    to: Buffer | undefined,
    reverse?: boolean,
  ): Promise<KeyValueBytes[]>;

  /** An estimate of the number of entries (RocksDB `rocksdb.estimate-num-keys`). */
  approximateNumEntries(): number;

  /** Makes every accepted write durable in the engine. */
  flush(): Promise<void>;
  /** Flushes and closes; reads and writes then fail until `open()`. Idempotent. */
  close(): Promise<void>;
  /** Closes and deletes all data (used to wipe corrupt state before a full restore). */
  destroy(): Promise<void>;
}
