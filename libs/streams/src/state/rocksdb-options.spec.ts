import { KAFKA_STREAMS_ROCKSDB_DEFAULTS, RocksDBOptions } from './rocksdb-options';

describe('RocksDBOptions', () => {
  it("starts from Kafka Streams' RocksDBStore defaults", () => {
    const options = new RocksDBOptions();
    expect(options.toJSON()).toEqual(KAFKA_STREAMS_ROCKSDB_DEFAULTS);
    expect(options).toMatchObject({
      blockCacheSize: 50 * 1024 * 1024,
      blockSize: 4096,
      writeBufferSize: 16 * 1024 * 1024,
      maxWriteBufferNumber: 3,
      compression: 'none',
      bloomFilterBitsPerKey: 10,
      compactionStyle: 'universal',
      maxOpenFiles: -1,
      walEnabled: false,
    });
    expect(options.parallelism).toBeGreaterThanOrEqual(2);
  });

  it('takes overrides and is mutable by config setters', () => {
    const options = new RocksDBOptions({ walEnabled: true });
    options.blockCacheSize = 1024;
    expect(options.toJSON()).toMatchObject({ walEnabled: true, blockCacheSize: 1024 });
    expect(Object.isFrozen(KAFKA_STREAMS_ROCKSDB_DEFAULTS)).toBe(true);
  });
});
