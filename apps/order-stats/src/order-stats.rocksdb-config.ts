import { Injectable } from '@nestjs/common';
import { RocksDBConfig } from '@nest-streams/nestjs';
import type { RocksDBConfigSetter, RocksDBOptions } from '@nest-streams/streams';

const MiB = 1024 * 1024;

/**
 * The source text's RocksDB tuning (section 8): a 64 MiB block cache (bigger = fewer disk
 * reads for hot keys) and 32 MiB memtables (bigger = fewer, larger flushes). The text also
 * sets 3 write buffers; the default engine (@nxtedition/rocksdb) fixes that number at 6 and
 * would reject another value, so it is left as the engine reports it. It applies per store
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
