import { availableParallelism } from 'node:os';
import type { Cache, WriteBufferManager } from '@nest-streams/rocksdb';
import { KAFKA_STREAMS_ROCKSDB_DEFAULTS, RocksDBOptions } from './rocksdb-options';

/** Kafka Streams' `RocksDBStore` defaults, written out here rather than read from the code. */
const KAFKA_DEFAULTS = {
  blockCacheSize: 50 * 1024 * 1024,
  blockSize: 4096,
  writeBufferSize: 16 * 1024 * 1024,
  maxWriteBufferNumber: 3,
  compression: 'none',
  bloomFilterBitsPerKey: 10,
  compactionStyle: 'universal',
  maxOpenFiles: -1,
  cacheIndexAndFilterBlocks: false,
  // RocksDB's own defaults, which Kafka Streams leaves (0 background jobs: what parallelism sets).
  cacheIndexAndFilterBlocksWithHighPriority: true,
  partitionedIndexAndFilters: false,
  chargeTableReadersToCache: false,
  arenaBlockSize: 0,
  walEnabled: false,
  parallelism: Math.max(availableParallelism(), 2),
  maxBackgroundJobs: 0,
};

describe('RocksDBOptions', () => {
  it("starts from Kafka Streams' RocksDBStore defaults", () => {
    expect(new RocksDBOptions().toJSON()).toEqual(KAFKA_DEFAULTS);
    expect(KAFKA_STREAMS_ROCKSDB_DEFAULTS).toEqual(KAFKA_DEFAULTS);
  });

  it('takes overrides and is mutable by config setters', () => {
    const options = new RocksDBOptions({ walEnabled: true });
    options.blockCacheSize = 1024;
    expect(options.toJSON()).toEqual({ ...KAFKA_DEFAULTS, walEnabled: true, blockCacheSize: 1024 });
    expect(Object.isFrozen(KAFKA_STREAMS_ROCKSDB_DEFAULTS)).toBe(true);
  });

  it('leaves the shared cache and write-buffer manager out of its plain copy', () => {
    const options = new RocksDBOptions();
    options.blockCache = {} as Cache;
    options.writeBufferManager = {} as WriteBufferManager;
    expect(options.toJSON()).toStrictEqual(KAFKA_DEFAULTS);
  });
});
