import { Injectable } from '@nestjs/common';
import { RocksDBConfig } from '@nest-streams/nestjs';
import type { RocksDBConfigSetter, RocksDBOptions } from '@nest-streams/streams';

const MiB = 1024 * 1024;

/** Block cache of each RocksDB instance, in MiB (hot keys read without touching disk). */
export const ORDER_STATS_BLOCK_CACHE_MIB = 16;
/** Size of each memtable, in MiB (bigger = fewer, larger flushes). */
export const ORDER_STATS_WRITE_BUFFER_MIB = 4;
/**
 * Memtables one RocksDB instance may hold: the default engine (@nxtedition/rocksdb) fixes the
 * number of write buffers at 6 and rejects another value.
 */
export const ORDER_STATS_WRITE_BUFFERS = 6;
/** What one RocksDB instance may take at most: block cache + every memtable full, in MiB. */
export const ORDER_STATS_MIB_PER_STORE_INSTANCE =
  ORDER_STATS_BLOCK_CACHE_MIB + ORDER_STATS_WRITE_BUFFERS * ORDER_STATS_WRITE_BUFFER_MIB;

/**
 * The example's RocksDB tuning: a 16 MiB block cache and 4 MiB memtables per RocksDB instance,
 * 40 MiB at most each. It applies per instance, one per key-value store partition and one per
 * live segment of a window store partition: size a replica for instances x 40 MiB (the
 * deployment chapter of the README works it out for deploy/kubernetes).
 */
@RocksDBConfig()
@Injectable()
export class OrderStatsRocksDBConfig implements RocksDBConfigSetter {
  setConfig(_storeName: string, options: RocksDBOptions): void {
    options.blockCacheSize = ORDER_STATS_BLOCK_CACHE_MIB * MiB;
    options.writeBufferSize = ORDER_STATS_WRITE_BUFFER_MIB * MiB;
  }
}
