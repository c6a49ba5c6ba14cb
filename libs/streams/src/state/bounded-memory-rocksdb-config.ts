import { Cache, WriteBufferManager } from '@nest-streams/rocksdb';
import { StreamsConfigError } from '../errors/streams-config.error';
import { chooseRocksDBEngine } from './internals/rocksdb/rocksdb-engine-choice';
import type { RocksDBConfigSetter } from './rocksdb-config-setter';
import type { RocksDBCompactionStyle, RocksDBCompression, RocksDBOptions } from './rocksdb-options';

const MiB = 1024 * 1024;
const DEFAULT_ARENA_BLOCK_BYTES = 64 * 1024;

/** Settings of {@link BoundedMemoryRocksDBConfig}; sizes in bytes. */
export interface BoundedMemoryRocksDBConfigOptions {
  /**
   * The whole RocksDB budget of the process (Java's `TOTAL_OFF_HEAP_MEMORY`): one block cache
   * of this capacity holds data blocks, index and filter blocks, and the memtables, which are
   * charged to it. What stays outside: a fixed cost per RocksDB instance (see the README's
   * sizing section).
   */
  readonly totalOffHeapBytes: number;
  /**
   * The memtables' share of the budget (Java's `TOTAL_MEMTABLE_MEMORY`), enforced by one
   * write-buffer manager charged to the cache, without stalling writes; default a quarter of
   * `totalOffHeapBytes`.
   */
  readonly totalMemtableBytes?: number;
  /**
   * Share of the cache reserved for index and filter blocks, cached with high priority
   * (Java's `INDEX_FILTER_BLOCK_RATIO`, LRU only); default 0.1.
   */
  readonly indexFilterBlockRatio?: number;
  /** `lru` (default, Java's `LRUCache`) or `hyperClock` (Java's `HyperClockCache`). */
  readonly cacheType?: 'lru' | 'hyperClock';
  /** Java's setter surface, each left at the store's default when undefined. */
  readonly blockSize?: number;
  readonly writeBufferSize?: number;
  readonly maxWriteBufferNumber?: number;
  readonly bloomFilterBitsPerKey?: number;
  readonly compactionStyle?: RocksDBCompactionStyle;
  readonly compression?: RocksDBCompression;
  readonly maxBackgroundJobs?: number;
  /** Two-level index and filters with a pinned top level (default true, as Java's example). */
  readonly partitionedIndexAndFilters?: boolean;
  /**
   * Bytes an active memtable allocates at a time (RocksDB's `arena_block_size`); default
   * 64 KiB. RocksDB's own default, an eighth of the write buffer (up to 1 MiB), makes every
   * store that was written to hold that much even when it took one record, so that a few
   * dozen stores fill the write-buffer manager's share without holding any data.
   */
  readonly arenaBlockSize?: number;
  /**
   * On the fallback engine (`@nxtedition/rocksdb`, which cannot share a cache): each store's
   * own block cache, holding its index and filter blocks; default 4 MiB. Memory then grows
   * with the number of stores.
   */
  readonly fallbackBlockCacheBytesPerStore?: number;
}

/**
 * Kafka Streams' `BoundedMemoryRocksDBConfig`: every store of the process shares one block
 * cache (LRU or HyperClock) and one write-buffer manager charged to it, index and filter
 * blocks live in that cache with high priority, table readers and file metadata are charged
 * to it, memtables grow in 64 KiB blocks, so RocksDB's memory stays within
 * `totalOffHeapBytes` (plus a small fixed cost per RocksDB instance) whatever the number of
 * stores, partitions and window segments. The shared objects are created at the first store's
 * `setConfig` and never closed by a store's `close()`; `dispose()` releases them once every
 * store is closed.
 *
 * @example
 * new KafkaStreams(topology, {
 *   ...config,
 *   rocksDBConfigSetter: new BoundedMemoryRocksDBConfig({ totalOffHeapBytes: 256 * 1024 ** 2 }),
 * });
 *
 * On the fallback engine (logged at start when the addon is not built) nothing can be shared:
 * each store gets `fallbackBlockCacheBytesPerStore` and the setter's other settings.
 *
 * Errors: the constructor throws `StreamsConfigError` for a size or ratio out of range (fix the
 * options); `setConfig` throws the addon's `RocksDBUnavailableError` only if the addon stops
 * loading after the engine was chosen (reinstall it).
 */
export class BoundedMemoryRocksDBConfig implements RocksDBConfigSetter {
  private shared: { cache: Cache; writeBufferManager: WriteBufferManager } | undefined;
  private readonly memtableBytes: number;
  private readonly ratio: number;

  constructor(readonly options: BoundedMemoryRocksDBConfigOptions) {
    const { totalOffHeapBytes } = options;
    requireBytes('totalOffHeapBytes', totalOffHeapBytes, MiB);
    this.memtableBytes = options.totalMemtableBytes ?? Math.floor(totalOffHeapBytes / 4);
    requireBytes('totalMemtableBytes', this.memtableBytes, 0);
    if (this.memtableBytes > totalOffHeapBytes) {
      throw new StreamsConfigError(
        `totalMemtableBytes (${this.memtableBytes}) must not exceed totalOffHeapBytes (${totalOffHeapBytes})`,
      );
    }
    this.ratio = options.indexFilterBlockRatio ?? 0.1;
    if (!(this.ratio >= 0 && this.ratio <= 1)) {
      throw new StreamsConfigError(`indexFilterBlockRatio must be in [0, 1], got ${this.ratio}`);
    }
    if (options.arenaBlockSize !== undefined)
      requireBytes('arenaBlockSize', options.arenaBlockSize, 4096);
    if (options.fallbackBlockCacheBytesPerStore !== undefined) {
      requireBytes('fallbackBlockCacheBytesPerStore', options.fallbackBlockCacheBytesPerStore, 0);
    }
  }

  /**
   * The setter of one budget as the engine sizes it by default (`rocksDBMemoryBudgetMb`): a
   * cache of `totalOffHeapBytes`, a quarter of it for the memtables, memtables of a sixteenth
   * of it (1 to 32 MiB), three of them.
   *
   * @throws StreamsConfigError for a budget under 1 MiB.
   */
  static forBudget(totalOffHeapBytes: number): BoundedMemoryRocksDBConfig {
    return new BoundedMemoryRocksDBConfig({
      totalOffHeapBytes,
      totalMemtableBytes: Math.floor(totalOffHeapBytes / 4),
      writeBufferSize: Math.max(MiB, Math.min(32 * MiB, Math.floor(totalOffHeapBytes / 16))),
      maxWriteBufferNumber: 3,
    });
  }

  setConfig(_storeName: string, options: RocksDBOptions): void {
    const tuning = this.options;
    if (chooseRocksDBEngine().engine === '@nest-streams/rocksdb') {
      const { cache, writeBufferManager } = this.sharedObjects();
      options.blockCache = cache;
      options.writeBufferManager = writeBufferManager;
      options.partitionedIndexAndFilters = tuning.partitionedIndexAndFilters ?? true;
      // Table readers and file metadata come out of the budget too (Java's setter cannot set
      // RocksDB's cache_usage_options), and a memtable grows in small blocks.
      options.chargeTableReadersToCache = true;
      options.arenaBlockSize = tuning.arenaBlockSize ?? DEFAULT_ARENA_BLOCK_BYTES;
      if (tuning.maxBackgroundJobs !== undefined) {
        options.maxBackgroundJobs = tuning.maxBackgroundJobs;
      }
      if (tuning.maxWriteBufferNumber !== undefined) {
        options.maxWriteBufferNumber = tuning.maxWriteBufferNumber;
      }
    } else {
      options.blockCacheSize = tuning.fallbackBlockCacheBytesPerStore ?? 4 * MiB;
    }
    options.cacheIndexAndFilterBlocks = true;
    options.cacheIndexAndFilterBlocksWithHighPriority = true;
    if (tuning.blockSize !== undefined) options.blockSize = tuning.blockSize;
    if (tuning.writeBufferSize !== undefined) options.writeBufferSize = tuning.writeBufferSize;
    if (tuning.bloomFilterBitsPerKey !== undefined) {
      options.bloomFilterBitsPerKey = tuning.bloomFilterBitsPerKey;
    }
    if (tuning.compactionStyle !== undefined) options.compactionStyle = tuning.compactionStyle;
    if (tuning.compression !== undefined) options.compression = tuning.compression;
  }

  /** Nothing per store: the cache and the write-buffer manager are shared (Java's advice). */
  close(): void {}

  /**
   * The shared cache's usage (memtables, table readers and file metadata included, as they are
   * charged to it), the part of it in use and so not evictable (`pinnedBytes`: the cache goes
   * over its capacity by at most that much, as it does not stall), and the memtables' own;
   * zeros before the first store opened or on the fallback engine.
   */
  usage(): {
    capacityBytes: number;
    cacheUsageBytes: number;
    pinnedBytes: number;
    memtableBytes: number;
  } {
    const shared = this.shared;
    if (shared === undefined) {
      return { capacityBytes: 0, cacheUsageBytes: 0, pinnedBytes: 0, memtableBytes: 0 };
    }
    return {
      capacityBytes: shared.cache.capacity(),
      cacheUsageBytes: shared.cache.usage(),
      pinnedBytes: shared.cache.pinnedUsage(),
      memtableBytes: shared.writeBufferManager.memoryUsage(),
    };
  }

  /**
   * Drops this setter's references to the shared objects; stores still open keep theirs, so
   * call it after the application closed. The next `setConfig` creates new ones.
   */
  dispose(): void {
    this.shared?.writeBufferManager.close();
    this.shared?.cache.close();
    this.shared = undefined;
  }

  private sharedObjects(): { cache: Cache; writeBufferManager: WriteBufferManager } {
    if (this.shared === undefined) {
      const type = this.options.cacheType ?? 'lru';
      const cache = new Cache(this.options.totalOffHeapBytes, {
        type,
        ...(type === 'lru' && { highPriPoolRatio: this.ratio }),
      });
      this.shared = {
        cache,
        writeBufferManager: new WriteBufferManager(this.memtableBytes, cache),
      };
    }
    return this.shared;
  }
}

function requireBytes(name: string, value: number, min: number): void {
  if (!Number.isSafeInteger(value) || value < min) {
    throw new StreamsConfigError(
      `${name} must be an integer of at least ${min} bytes, got ${value}`,
    );
  }
}
