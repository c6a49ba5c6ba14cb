import { nativeAddon, type NativeCache } from './internals/native';

/** Options of a block cache. */
export interface CacheOptions {
  /** `lru` (default) or `hyperClock` (RocksDB's lock-free cache, experimental in 7.8). */
  readonly type?: 'lru' | 'hyperClock';
  /** Inserts fail instead of exceeding the capacity (default false: a soft limit). */
  readonly strictCapacityLimit?: boolean;
  /** LRU only: share of the capacity for high-priority blocks (index, filter), 0..1 (0.5). */
  readonly highPriPoolRatio?: number;
  /** HyperClock only: expected average entry size in bytes (default 4096, the block size). */
  readonly estimatedEntryCharge?: number;
  /** 2^n shards; -1 (default) lets RocksDB choose. */
  readonly numShardBits?: number;
}

/**
 * A RocksDB block cache that many databases can share (pass it as `blockCache` to
 * `RocksDB.open`), with a `WriteBufferManager` charged to it for one memory budget
 * across stores, like Kafka Streams' `BoundedMemoryRocksDBConfig`.
 *
 * Memory is freed when the last user lets go: `close()` drops this object's reference, and
 * each database opened with the cache keeps its own until it closes.
 *
 * Errors: `RocksDBUnavailableError` from the constructor when the addon is not built (install
 * RocksDB and rebuild, or use another engine); `TypeError`/`RangeError` for bad options (fix
 * the call); `RocksDBClosedError` from every call after `close()`.
 */
export class Cache {
  /** @internal The addon's object; handed to the addon by `RocksDB.open`. */
  readonly native: NativeCache;

  constructor(
    /** Capacity in bytes. */
    readonly initialCapacity: number,
    options: CacheOptions = {},
  ) {
    this.native = new (nativeAddon().Cache)({ ...options, capacity: initialCapacity });
  }

  /** Bytes held, including memory charged by write-buffer managers. */
  usage(): number {
    return this.native.usage();
  }

  /** Bytes held by entries in use (pinned). */
  pinnedUsage(): number {
    return this.native.pinnedUsage();
  }

  capacity(): number {
    return this.native.capacity();
  }

  /** Changes the capacity; shrinking evicts unpinned entries. */
  setCapacity(capacity: number): void {
    this.native.setCapacity(capacity);
  }

  /** Drops this handle's reference; databases that use the cache keep theirs. Idempotent. */
  close(): void {
    this.native.close();
  }
}
