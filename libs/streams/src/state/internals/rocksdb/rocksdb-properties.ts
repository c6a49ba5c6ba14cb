import type { RocksDBStoreMetrics } from '../../rocksdb-store-metrics';

/**
 * Reads {@link RocksDBStoreMetrics} through a binding's synchronous `getProperty`, which
 * returns an empty string for a property it does not know.
 */
export function readRocksDBMetrics(getProperty: (name: string) => string): RocksDBStoreMetrics {
  const number = (name: string): number | undefined => {
    const text = getProperty(name);
    if (text === '') {
      return undefined;
    }
    const value = Number(text);
    return Number.isFinite(value) ? value : undefined;
  };
  const flag = (name: string): boolean | undefined => {
    const value = number(name);
    return value === undefined ? undefined : value !== 0;
  };
  return {
    blockCacheUsageBytes: number('rocksdb.block-cache-usage'),
    blockCachePinnedUsageBytes: number('rocksdb.block-cache-pinned-usage'),
    blockCacheCapacityBytes: number('rocksdb.block-cache-capacity'),
    memTablesBytes: number('rocksdb.cur-size-all-mem-tables'),
    allMemTablesBytes: number('rocksdb.size-all-mem-tables'),
    tableReadersBytes: number('rocksdb.estimate-table-readers-mem'),
    estimatedNumKeys: number('rocksdb.estimate-num-keys'),
    totalSstFilesBytes: number('rocksdb.total-sst-files-size'),
    liveSstFilesBytes: number('rocksdb.live-sst-files-size'),
    compactionPending: flag('rocksdb.compaction-pending'),
    pendingCompactionBytes: number('rocksdb.estimate-pending-compaction-bytes'),
    runningCompactions: number('rocksdb.num-running-compactions'),
    memTableFlushPending: flag('rocksdb.mem-table-flush-pending'),
    runningFlushes: number('rocksdb.num-running-flushes'),
    immutableMemTables: number('rocksdb.num-immutable-mem-table'),
    backgroundErrors: number('rocksdb.background-errors'),
  };
}
