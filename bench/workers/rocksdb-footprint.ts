import type { LocalStoreMetrics } from '@nest-streams/streams';

/** What the RocksDB engines of a process report holding, in MiB (one sample, all stores). */
export interface RocksDBFootprint {
  /** Store copies on RocksDB that reported figures (a window store's segments count once). */
  readonly stores: number;
  /**
   * The shared block cache's usage, counted once (with per-store caches: their sum). With the
   * memory budget it includes the memtables' and table readers' charges.
   */
  readonly blockCacheMb: number;
  /** Of it, pinned (index and filter tops, blocks held by open iterators, reservations). */
  readonly blockCachePinnedMb: number;
  /** Active and unflushed memtables of every store (`rocksdb.cur-size-all-mem-tables`). */
  readonly memTablesMb: number;
  /** Index and filter blocks outside the block cache (`rocksdb.estimate-table-readers-mem`). */
  readonly tableReadersMb: number;
}

const MIB = 2 ** 20;

/**
 * Sums `KafkaStreams.storeMetrics()`'s RocksDB figures into one footprint. A shared cache is
 * reported by every store using it (and by a window store once per segment, summed), so its
 * usage is the smallest any store reports; caches of their own are summed.
 */
export function rocksdbFootprint(stores: readonly LocalStoreMetrics[]): RocksDBFootprint {
  const rocks = stores.flatMap((s) => (s.rocksdb ? [s.rocksdb] : []));
  const shared = rocks.filter((r) => r.sharedBlockCache === true);
  const own = rocks.filter((r) => r.sharedBlockCache !== true);
  const min = (values: (number | undefined)[]): number =>
    values.length === 0 ? 0 : Math.min(...values.map((v) => v ?? 0));
  const sum = (values: (number | undefined)[]): number =>
    values.reduce<number>((total, v) => total + (v ?? 0), 0);
  const mb = (bytes: number): number => Math.round((bytes / MIB) * 10) / 10;
  return {
    stores: rocks.length,
    blockCacheMb: mb(
      min(shared.map((r) => r.blockCacheUsageBytes)) + sum(own.map((r) => r.blockCacheUsageBytes)),
    ),
    blockCachePinnedMb: mb(
      min(shared.map((r) => r.blockCachePinnedUsageBytes)) +
        sum(own.map((r) => r.blockCachePinnedUsageBytes)),
    ),
    memTablesMb: mb(sum(rocks.map((r) => r.memTablesBytes))),
    tableReadersMb: mb(sum(rocks.map((r) => r.tableReadersBytes))),
  };
}
