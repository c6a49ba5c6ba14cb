import type { RocksDBStoreMetrics } from '../../rocksdb-store-metrics';

/**
 * Reads {@link RocksDBStoreMetrics} through a binding's synchronous `getProperty`, which
 * returns an empty string for a property it does not know.
 */
export function readRocksDBMetrics(
  getProperty: (name: string) => string,
  statistics?: Readonly<Record<string, number>>,
): RocksDBStoreMetrics {
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
    activeMemTableBytes: number('rocksdb.cur-size-active-mem-table'),
    activeMemTableEntries: number('rocksdb.num-entries-active-mem-table'),
    immutableMemTableEntries: number('rocksdb.num-entries-imm-mem-tables'),
    activeMemTableDeletes: number('rocksdb.num-deletes-active-mem-table'),
    immutableMemTableDeletes: number('rocksdb.num-deletes-imm-mem-tables'),
    liveVersions: number('rocksdb.num-live-versions'),
    ...(statistics ? { statistics } : {}),
  };
}

const BLOCK_CACHE: readonly (keyof RocksDBStoreMetrics)[] = [
  'blockCacheUsageBytes',
  'blockCachePinnedUsageBytes',
  'blockCacheCapacityBytes',
];

/**
 * The figures of a store made of several RocksDB databases (a window or session store's
 * segments), as Kafka Streams reports them: every figure and ticker summed, a flag set when
 * one is, and the block cache's figures once when every database uses a shared cache of the
 * same capacity (one cache), else summed. `undefined` for none.
 */
export function sumRocksDBMetrics(
  parts: readonly RocksDBStoreMetrics[],
): RocksDBStoreMetrics | undefined {
  if (parts.length <= 1) return parts[0];
  const sum: Record<string, unknown> = { sharedBlockCache: parts.every((p) => p.sharedBlockCache) };
  const shared = parts.every(
    (p) => p.sharedBlockCache && p.blockCacheCapacityBytes === parts[0].blockCacheCapacityBytes,
  );
  for (const key of Object.keys(parts[0]) as (keyof RocksDBStoreMetrics)[]) {
    if (key === 'statistics' || key === 'sharedBlockCache') continue;
    const values = parts.map((p) => p[key]);
    if (values.some((v) => v === undefined)) sum[key] = undefined;
    else if (typeof values[0] === 'boolean') sum[key] = values.some(Boolean);
    else if (shared && BLOCK_CACHE.includes(key)) sum[key] = values[0];
    else sum[key] = (values as number[]).reduce((a, b) => a + b, 0);
  }
  const tickers = parts.map((p) => p.statistics);
  if (tickers.every((t) => t !== undefined)) {
    const total: Record<string, number> = {};
    for (const t of tickers)
      for (const [name, n] of Object.entries(t!)) total[name] = (total[name] ?? 0) + n;
    sum.statistics = total;
  }
  return sum as unknown as RocksDBStoreMetrics;
}
