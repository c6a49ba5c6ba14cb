import type { Cache } from './cache';
import type { WriteBufferManager } from './write-buffer-manager';

/** SST block compression; `supportedCompressions()` lists what the system RocksDB has. */
export type Compression = 'none' | 'snappy' | 'lz4' | 'zstd';

/**
 * Options of `RocksDB.open`. Defaults are Kafka Streams' per-store defaults where it has one
 * (50 MiB LRU cache, 4 KiB blocks, bloom filter of 10 bits, 16 MiB x 3 memtables, no
 * compression, universal compaction), RocksDB's otherwise. Always set, not configurable:
 * `max_write_buffer_size_to_maintain = 0` (flushed memtables are not kept: memory stays
 * bounded).
 */
export interface OpenOptions {
  /** Create the database when missing (default true). */
  readonly createIfMissing?: boolean;
  /** Fail when it exists (default false). */
  readonly errorIfExists?: boolean;
  /** A shared block cache; when given, `blockCacheSize` is ignored. */
  readonly blockCache?: Cache;
  /** Size of this database's own LRU block cache in bytes (default 50 MiB; 0 = no cache). */
  readonly blockCacheSize?: number;
  /** SST data block size in bytes (default 4096). */
  readonly blockSize?: number;
  /** Bloom filter bits per key, 0 = no filter (default 10). */
  readonly bloomFilterBitsPerKey?: number;
  /** Keep index and filter blocks in the block cache, charged to it (default false). */
  readonly cacheIndexAndFilterBlocks?: boolean;
  /** With `cacheIndexAndFilterBlocks`: in the cache's high-priority pool (default true). */
  readonly cacheIndexAndFilterBlocksWithHighPriority?: boolean;
  /** Two-level (partitioned) index and filters, top level pinned (default false). */
  readonly partitionedIndexAndFilters?: boolean;
  /**
   * Charge the memory of open table readers (table properties, and index and filters when they
   * are not cached) to the block cache (`CacheEntryRole::kBlockBasedTableReader`), so that it
   * comes out of the cache's budget (default false; needs a block cache).
   */
  readonly chargeTableReadersToCache?: boolean;
  /**
   * Charge the in-memory metadata of every table file to the block cache
   * (`CacheEntryRole::kFileMetadata`; default false; needs a block cache).
   */
  readonly chargeFileMetadataToCache?: boolean;
  /** Size of one memtable in bytes (default 16 MiB). */
  readonly writeBufferSize?: number;
  /** Memtables: one active plus ones waiting for flush (default 3, at least 2). */
  readonly maxWriteBufferNumber?: number;
  /**
   * Bytes a memtable allocates at a time, at least 4096; 0 (the default) is RocksDB's, an
   * eighth of `writeBufferSize`. An active memtable holds at least one block once written to,
   * so with a shared `writeBufferManager` many databases cost many blocks: keep
   * databases × arenaBlockSize well under the manager's size.
   */
  readonly arenaBlockSize?: number;
  /** A shared memtable budget across databases. */
  readonly writeBufferManager?: WriteBufferManager;
  /** Compaction style (default `universal`). */
  readonly compactionStyle?: 'universal' | 'level';
  /** SST compression (default `none`). */
  readonly compression?: Compression;
  /** RocksDB's `IncreaseParallelism(n)`: background threads and jobs. */
  readonly parallelism?: number;
  /** `max_background_jobs` (flushes and compactions at once), applied after `parallelism`. */
  readonly maxBackgroundJobs?: number;
  /** Open table files kept, -1 = all (default -1). */
  readonly maxOpenFiles?: number;
  /**
   * The default of every write: true (the default) writes the WAL, false does not (Kafka
   * Streams' setting: the changelog is the durable copy). Each write can override it.
   */
  readonly walEnabled?: boolean;
  /**
   * Skip the memtable flush that `close()` does for writes made without the WAL (default false:
   * a clean close keeps them). With true, only `flush()` makes them durable.
   */
  readonly avoidFlushDuringShutdown?: boolean;
  /**
   * Collect RocksDB statistics (every ticker, no per-operation timers: RocksDB's
   * `kExceptDetailedTimers`), read with `RocksDB.statistics()` (default false). They cost a few
   * per cent of RocksDB's throughput; Kafka Streams turns them on at its DEBUG metrics level.
   */
  readonly statistics?: boolean;
}

/** Options of one write. */
export interface WriteOptions {
  /** Skip the WAL for this write (default: the database's `walEnabled` setting). */
  readonly disableWAL?: boolean;
  /** fsync the WAL before returning (needs the WAL; default false). */
  readonly sync?: boolean;
  /**
   * Apply the batch's writes in key order (default false): a stable sort, so that for one key
   * the last write still wins (only that one is applied), and the result is the same as in
   * batch order. RocksDB's memtable inserts keys in order several times faster than in random
   * order; with `writeAsync` the sort runs on the pool. For batches of puts and deletes only: a
   * batch with a `deleteRange` is refused (`RocksDBError`, `InvalidArgument`).
   */
  readonly orderByKey?: boolean;
}

/**
 * Bounds and direction of an iterator. Give at most one lower bound (`gte` or `gt`) and one
 * upper bound (`lte` or `lt`); no bound means open.
 */
export interface IteratorOptions {
  readonly gte?: Buffer;
  readonly gt?: Buffer;
  readonly lte?: Buffer;
  readonly lt?: Buffer;
  /** Descending order (default false). */
  readonly reverse?: boolean;
  /** Put the blocks read into the block cache (default true; false for one-off scans). */
  readonly fillCache?: boolean;
}

/** Options of an SST file writer: the table settings the file is written with. */
export interface SstFileWriterOptions {
  readonly blockSize?: number;
  readonly bloomFilterBitsPerKey?: number;
  readonly compression?: Compression;
}

/** What `SstFileWriter.finish` wrote. */
export interface SstFileInfo {
  readonly path: string;
  readonly fileSize: number;
  readonly entries: number;
  readonly smallestKey?: Buffer;
  readonly largestKey?: Buffer;
}
