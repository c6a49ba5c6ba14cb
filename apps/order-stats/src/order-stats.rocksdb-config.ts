import { Injectable } from '@nestjs/common';
import { RocksDBConfig } from '@nest-streams/nestjs';
import {
  BoundedMemoryRocksDBConfig,
  type BoundedMemoryRocksDBConfigOptions,
} from '@nest-streams/streams';
import { orderStatsConfig } from './order-stats.config';

const MiB = 1024 * 1024;

/**
 * RocksDB's memory of the instance from one budget, `ROCKSDB_MEMORY_MB`: one block cache of
 * that size shared by every store, partition and window segment, a quarter of it for the
 * memtables (a write-buffer manager charged to the cache), index and filter blocks in the cache
 * with high priority (Kafka Streams' `BoundedMemoryRocksDBConfig`). Inside it, the source
 * text's tuning (section 8): 32 MiB memtables, three of them (smaller when the budget is small).
 * Each RocksDB instance still costs a little fixed memory outside the budget: see the README's
 * sizing section.
 */
export function orderStatsRocksDBSizing(memoryMb: number): BoundedMemoryRocksDBConfigOptions {
  const total = memoryMb * MiB;
  const memtables = Math.floor(total / 4);
  return {
    totalOffHeapBytes: total,
    totalMemtableBytes: memtables,
    writeBufferSize: Math.max(1 * MiB, Math.min(32 * MiB, Math.floor(memtables / 4))),
    maxWriteBufferNumber: 3,
  };
}

/** The application's RocksDB config setter, sized by `ROCKSDB_MEMORY_MB`. */
@RocksDBConfig()
@Injectable()
export class OrderStatsRocksDBConfig extends BoundedMemoryRocksDBConfig {
  constructor() {
    super(orderStatsRocksDBSizing(orderStatsConfig().rocksdbMemoryMb));
  }
}
