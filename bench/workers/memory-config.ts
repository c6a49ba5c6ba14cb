import { BoundedMemoryRocksDBConfig } from '@nest-streams/streams';

const MiB = 1024 * 1024;

/**
 * The `memory` scenario's bounded setter, sized like the example application's
 * (`ROCKSDB_MEMORY_MB`) and like the Java peer's `BoundedMemoryRocksDBConfig` with the same
 * budget: one cache of the whole budget shared by every store, a quarter of it for memtables
 * (a write-buffer manager charged to the cache), index and filter blocks cached with high
 * priority and partitioned, memtables of a sixteenth of the budget (at most 32 MiB), three of
 * them.
 */
export function boundedRocksDB(budgetMb: number): BoundedMemoryRocksDBConfig {
  return new BoundedMemoryRocksDBConfig(boundedSizing(budgetMb));
}

/** The sizes of {@link boundedRocksDB}, in bytes. */
export function boundedSizing(budgetMb: number): {
  totalOffHeapBytes: number;
  totalMemtableBytes: number;
  writeBufferSize: number;
  maxWriteBufferNumber: number;
} {
  const total = budgetMb * MiB;
  return {
    totalOffHeapBytes: total,
    totalMemtableBytes: Math.floor(total / 4),
    writeBufferSize: Math.max(1 * MiB, Math.min(32 * MiB, Math.floor(total / 16))),
    maxWriteBufferNumber: 3,
  };
}

/** The settings of {@link boundedRocksDB}, for the report. */
export function boundedDescription(budgetMb: number): string {
  const s = boundedSizing(budgetMb);
  return (
    `BoundedMemoryRocksDBConfig: one ${budgetMb} MiB LRU cache (index/filter ratio 0.1) shared by ` +
    `all stores, a ${s.totalMemtableBytes / MiB} MiB write-buffer manager charged to it, ` +
    `${s.writeBufferSize / MiB} MiB memtables x ${s.maxWriteBufferNumber}, index and filters ` +
    'cached with high priority, partitioned, top level pinned'
  );
}
