/**
 * Memory and compaction figures of one RocksDB store, read from RocksDB's own properties
 * (named in brackets). A figure is `undefined` when the binding does not report it.
 *
 * With a block cache shared by every store (`BoundedMemoryRocksDBConfig`), each store reports
 * the shared cache's usage, pinned usage and capacity (memtables charged to it included): read
 * them once, never sum them across stores.
 *
 * Not available: block-cache hit and miss counts (they need RocksDB statistics, which no
 * engine turns on).
 */
export interface RocksDBStoreMetrics {
  /** Bytes held in the block cache (`rocksdb.block-cache-usage`). */
  readonly blockCacheUsageBytes: number | undefined;
  /** Bytes pinned in the block cache (`rocksdb.block-cache-pinned-usage`). */
  readonly blockCachePinnedUsageBytes: number | undefined;
  /** Block cache capacity (`rocksdb.block-cache-capacity`). */
  readonly blockCacheCapacityBytes: number | undefined;
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
}
