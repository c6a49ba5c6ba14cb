import { Injectable } from '@nestjs/common';
import { RocksDBConfig } from '@nest-streams/nestjs';
import type { RocksDBConfigSetter, RocksDBOptions } from '@nest-streams/streams';

const MiB = 1024 * 1024;

/**
 * The example's RocksDB tuning: a 64 MiB block cache (bigger = fewer disk reads for hot keys)
 * and 32 MiB memtables (bigger = fewer, larger flushes). The number of write buffers is left
 * as the default engine (@nxtedition/rocksdb) fixes it, at 6: it would reject another value. It applies per store
 * instance, one per store per partition: size instances for stores x partitions x (cache +
 * write buffers).
 */
@RocksDBConfig()
@Injectable()
export class OrderStatsRocksDBConfig implements RocksDBConfigSetter {
  setConfig(_storeName: string, options: RocksDBOptions): void {
    options.blockCacheSize = 64 * MiB;
    options.writeBufferSize = 32 * MiB;
  }
}
