import { availableParallelism } from 'node:os';
import type { Cache, WriteBufferManager } from '@nest-streams/rocksdb';

/** Block compression of SST files. */
export type RocksDBCompression = 'none' | 'snappy' | 'zstd';

/** RocksDB compaction style. */
export type RocksDBCompactionStyle = 'universal' | 'level';

/** Every tunable setting of {@link RocksDBOptions}, as plain values. */
export interface RocksDBOptionValues {
  /** Block cache capacity in bytes (per store, unless the engine shares one); 0 disables it. */
  blockCacheSize: number;
  /** Size of an SST data block in bytes. */
  blockSize: number;
  /** Size of one memtable in bytes. */
  writeBufferSize: number;
  /** Memtables a store may hold (one active, the rest waiting to be flushed). */
  maxWriteBufferNumber: number;
  /** SST block compression. */
  compression: RocksDBCompression;
  /** Bits per key of the bloom filter; 0 disables the filter. */
  bloomFilterBitsPerKey: number;
  /** Compaction style. */
  compactionStyle: RocksDBCompactionStyle;
  /** Open table files kept per store; -1 keeps them all open. */
  maxOpenFiles: number;
  /** Charge index and filter blocks to the block cache (bounds memory; costs some reads). */
  cacheIndexAndFilterBlocks: boolean;
  /**
   * With `cacheIndexAndFilterBlocks`: keep them in the cache's high-priority pool, so data
   * blocks are evicted first (Java's `setCacheIndexAndFilterBlocksWithHighPriority`).
   */
  cacheIndexAndFilterBlocksWithHighPriority: boolean;
  /**
   * Two-level (partitioned) index and filters with the top level pinned: only the partitions
   * in use take cache space (Java's `kTwoLevelIndexSearch`, `setPartitionFilters`,
   * `setPinTopLevelIndexAndFilter`). Recommended with a shared, bounded cache.
   */
  partitionedIndexAndFilters: boolean;
  /**
   * Charge the memory of open table readers and of every table file's metadata to the block
   * cache (RocksDB's `cache_usage_options` for `kBlockBasedTableReader` and `kFileMetadata`),
   * so that it comes out of the cache's budget instead of adding to it. Needs a block cache.
   */
  chargeTableReadersToCache: boolean;
  /**
   * Bytes an active memtable allocates at a time; 0 is RocksDB's default (an eighth of
   * `writeBufferSize`, at most 1 MiB). Every store written to holds at least one block, so
   * with a shared write-buffer manager keep stores × arenaBlockSize well under its size.
   */
  arenaBlockSize: number;
  /** RocksDB's write-ahead log. Kafka Streams turns it off: the changelog is the durable copy. */
  walEnabled: boolean;
  /** Background flush and compaction threads (RocksDB `IncreaseParallelism`). */
  parallelism: number;
  /**
   * Flushes and compactions running at once (`max_background_jobs`); 0 leaves what
   * `parallelism` sets.
   */
  maxBackgroundJobs: number;
}

const MiB = 1024 * 1024;

/**
 * Kafka Streams' per-store RocksDB defaults (its `RocksDBStore`): a 50 MiB LRU block cache,
 * 4 KiB blocks, a bloom filter, 16 MiB x 3 memtables, no compression, universal compaction,
 * no WAL, every table file kept open, `max(cpus, 2)` background threads.
 */
export const KAFKA_STREAMS_ROCKSDB_DEFAULTS: Readonly<RocksDBOptionValues> = Object.freeze({
  blockCacheSize: 50 * MiB,
  blockSize: 4 * 1024,
  writeBufferSize: 16 * MiB,
  maxWriteBufferNumber: 3,
  compression: 'none',
  bloomFilterBitsPerKey: 10,
  compactionStyle: 'universal',
  maxOpenFiles: -1,
  cacheIndexAndFilterBlocks: false,
  cacheIndexAndFilterBlocksWithHighPriority: true,
  partitionedIndexAndFilters: false,
  chargeTableReadersToCache: false,
  arenaBlockSize: 0,
  walEnabled: false,
  parallelism: Math.max(availableParallelism(), 2),
  maxBackgroundJobs: 0,
});

/**
 * The RocksDB settings of one store, handed to a {@link RocksDBConfigSetter} before the store
 * opens (like Kafka Streams' `Options` in `RocksDBConfigSetter.setConfig`).
 *
 * Each engine creates it with Kafka Streams' defaults, replaced by the values the engine's
 * binding fixes where it cannot apply a default (for example `walEnabled` is `true` on both
 * npm bindings, which cannot turn the WAL off). So what a config setter reads is what the
 * store will run with. A config setter changes fields in place; at `open()` the engine checks
 * every field and throws `RocksDBConfigError` listing each value it cannot apply, instead of
 * ignoring it. See each engine's documentation for what it supports.
 *
 * Bounded memory (Kafka Streams' `BoundedMemoryRocksDBConfig`): `blockCache` and
 * `writeBufferManager` take objects shared by every store (`RocksDBCache`,
 * `RocksDBWriteBufferManager`, both from `@nest-streams/rocksdb`); `BoundedMemoryRocksDBConfig`
 * sets them up. Only the default engine (`@nest-streams/rocksdb`) applies them.
 */
export class RocksDBOptions implements RocksDBOptionValues {
  blockCacheSize!: number;
  blockSize!: number;
  writeBufferSize!: number;
  maxWriteBufferNumber!: number;
  compression!: RocksDBCompression;
  bloomFilterBitsPerKey!: number;
  compactionStyle!: RocksDBCompactionStyle;
  maxOpenFiles!: number;
  cacheIndexAndFilterBlocks!: boolean;
  cacheIndexAndFilterBlocksWithHighPriority!: boolean;
  partitionedIndexAndFilters!: boolean;
  chargeTableReadersToCache!: boolean;
  arenaBlockSize!: number;
  walEnabled!: boolean;
  parallelism!: number;
  maxBackgroundJobs!: number;
  /**
   * A block cache shared with other stores (Java's `tableConfig.setBlockCache(cache)`); when
   * set, `blockCacheSize` is ignored. Never close it in a setter's `close()`.
   */
  blockCache: Cache | undefined = undefined;
  /**
   * A memtable budget shared with other stores (Java's `options.setWriteBufferManager`),
   * usually charged to `blockCache`. It never stalls writes. Never close it in `close()`.
   */
  writeBufferManager: WriteBufferManager | undefined = undefined;

  /** Kafka Streams' defaults, with `overrides` applied. */
  constructor(overrides: Partial<RocksDBOptionValues> = {}) {
    Object.assign(this, KAFKA_STREAMS_ROCKSDB_DEFAULTS, overrides);
  }

  /** A plain copy of the values (for logs and metrics; the shared objects are left out). */
  toJSON(): RocksDBOptionValues {
    const { blockCache: _cache, writeBufferManager: _writeBufferManager, ...values } = this;
    return values;
  }
}
