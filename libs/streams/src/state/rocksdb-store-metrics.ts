/**
 * Memory and compaction figures of one RocksDB store, read from RocksDB's own properties
 * (named in brackets). A figure is `undefined` when the binding does not report it.
 *
 * With a block cache shared by every store (`BoundedMemoryRocksDBConfig`), each store reports
 * the shared cache's usage, pinned usage and capacity (memtables charged to it included): read
 * them once, never sum them across stores.
 *
 * Block-cache hit and miss counts, bytes read and written and write stalls are RocksDB
 * statistics: {@link RocksDBStoreMetrics.statistics}, on the native engine at the DEBUG
 * recording level only (they cost a few per cent of RocksDB's throughput).
 *
 * A window or session store reports the sum over its live segments (the block cache figures
 * once when the segments share one cache).
 */
export interface RocksDBStoreMetrics {
  /** Bytes held in the block cache (`rocksdb.block-cache-usage`). */
  readonly blockCacheUsageBytes: number | undefined;
  /** Bytes pinned in the block cache (`rocksdb.block-cache-pinned-usage`). */
  readonly blockCachePinnedUsageBytes: number | undefined;
  /** Block cache capacity (`rocksdb.block-cache-capacity`). */
  readonly blockCacheCapacityBytes: number | undefined;
  /**
   * Whether the block cache is a shared one (the options' `blockCache`, as the memory budget
   * and `BoundedMemoryRocksDBConfig` set), whose figures every store using it reports.
   */
  readonly sharedBlockCache?: boolean;
  /** Active and unflushed memtables (`rocksdb.cur-size-all-mem-tables`). */
  readonly memTablesBytes: number | undefined;
  /** All memtables, including flushed ones still pinned (`rocksdb.size-all-mem-tables`). */
  readonly allMemTablesBytes: number | undefined;
  /** Index and filter blocks outside the block cache (`rocksdb.estimate-table-readers-mem`). */
  readonly tableReadersBytes: number | undefined;
  /** Estimated number of keys (`rocksdb.estimate-num-keys`). */
  readonly estimatedNumKeys: number | undefined;
  /** Size of all SST files (`rocksdb.total-sst-files-size`). */
  readonly totalSstFilesBytes: number | undefined;
  /** Size of the live SST files (`rocksdb.live-sst-files-size`). */
  readonly liveSstFilesBytes: number | undefined;
  /** Whether a compaction is pending (`rocksdb.compaction-pending`). */
  readonly compactionPending: boolean | undefined;
  /** Bytes compaction still has to rewrite (`rocksdb.estimate-pending-compaction-bytes`). */
  readonly pendingCompactionBytes: number | undefined;
  /** Running compactions (`rocksdb.num-running-compactions`). */
  readonly runningCompactions: number | undefined;
  /** Whether a memtable flush is pending (`rocksdb.mem-table-flush-pending`). */
  readonly memTableFlushPending: boolean | undefined;
  /** Running memtable flushes (`rocksdb.num-running-flushes`). */
  readonly runningFlushes: number | undefined;
  /** Immutable memtables not yet flushed (`rocksdb.num-immutable-mem-table`). */
  readonly immutableMemTables: number | undefined;
  /** Background errors so far (`rocksdb.background-errors`). */
  readonly backgroundErrors: number | undefined;
  /** Bytes of the active memtable (`rocksdb.cur-size-active-mem-table`). */
  readonly activeMemTableBytes: number | undefined;
  /** Entries in the active memtable (`rocksdb.num-entries-active-mem-table`). */
  readonly activeMemTableEntries: number | undefined;
  /** Entries in the unflushed immutable memtables (`rocksdb.num-entries-imm-mem-tables`). */
  readonly immutableMemTableEntries: number | undefined;
  /** Deletes in the active memtable (`rocksdb.num-deletes-active-mem-table`). */
  readonly activeMemTableDeletes: number | undefined;
  /** Deletes in the unflushed immutable memtables (`rocksdb.num-deletes-imm-mem-tables`). */
  readonly immutableMemTableDeletes: number | undefined;
  /** Live versions of the LSM tree (`rocksdb.num-live-versions`). */
  readonly liveVersions: number | undefined;
  /**
   * RocksDB's tickers by their RocksDB names (`rocksdb.block.cache.data.hit`,
   * `rocksdb.stall.micros`...), counts since the store opened; `undefined` unless the engine
   * collects statistics (the native engine, at `metricsRecordingLevel` DEBUG or TRACE).
   */
  readonly statistics?: Readonly<Record<string, number>>;
}
