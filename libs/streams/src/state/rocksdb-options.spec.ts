import { availableParallelism } from 'node:os';
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
  walEnabled: false,
  parallelism: Math.max(availableParallelism(), 2),
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
});
