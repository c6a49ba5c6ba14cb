import type { LeveldownOpenOptions } from './leveldown-binding';
import { RocksDBOptions, type RocksDBOptionValues } from '../rocksdb-options';
import { RocksDBOptionChecks } from './rocksdb-option-checks';

/** The engine's name in errors and metrics. */
export const LEVELDOWN_ENGINE = 'rocksdb';

/**
 * Values the `rocksdb` 5.2.1 binding (RocksDB 6.17) fixes, replacing Kafka Streams' defaults:
 * RocksDB's own two memtables, level compaction, the WAL, two background jobs, a 10-bit
 * bloom filter and index/filter blocks outside the cache.
 */
export const LEVELDOWN_FIXED_OPTIONS: Readonly<Partial<RocksDBOptionValues>> = Object.freeze({
  maxWriteBufferNumber: 2,
  compactionStyle: 'level',
  walEnabled: true,
  parallelism: 2,
  bloomFilterBitsPerKey: 10,
  cacheIndexAndFilterBlocks: false,
});

/** Kafka Streams' defaults as this binding can run them. */
export function leveldownDefaultOptions(): RocksDBOptions {
  return new RocksDBOptions(LEVELDOWN_FIXED_OPTIONS);
}

/**
 * Translates {@link RocksDBOptions} into the binding's open options.
 *
 * Supported: `blockCacheSize` (an LRU cache per store, < 4 GiB; 0 = none), `blockSize`,
 * `writeBufferSize` (< 4 GiB), `compression` `none` or `snappy`, `maxOpenFiles`. Everything
 * else is fixed (see {@link LEVELDOWN_FIXED_OPTIONS}).
 *
 * Throws `RocksDBConfigError` listing every value it cannot apply: change the config setter.
 */
export function toLeveldownOpenOptions(
  storeName: string,
  options: RocksDBOptions,
): LeveldownOpenOptions {
  const notExposed = 'the binding does not expose it';
  new RocksDBOptionChecks(options, LEVELDOWN_ENGINE)
    .integer('blockCacheSize', 0)
    .integer('blockSize', 1)
    .integer('writeBufferSize', 1)
    .fixed('maxWriteBufferNumber', 2, notExposed)
    .oneOf('compression', ['none', 'snappy'], 'the binding offers Snappy or nothing')
    .fixed('bloomFilterBitsPerKey', 10, 'the binding always installs a 10-bit bloom filter')
    .fixed('compactionStyle', 'level', notExposed)
    .require(
      !(
        Number.isInteger(options.maxOpenFiles) &&
        (options.maxOpenFiles === -1 ||
          (options.maxOpenFiles >= 1 && options.maxOpenFiles <= 0x7fff_ffff))
      ),
      `maxOpenFiles=${options.maxOpenFiles} (-1 or a positive integer is required)`,
    )
    .fixed('cacheIndexAndFilterBlocks', false, notExposed)
    .fixed('walEnabled', true, 'the binding has no option to disable the WAL')
    .fixed('parallelism', 2, 'the binding keeps RocksDB’s two background jobs')
    .throwIfAny(storeName);

  return {
    createIfMissing: true,
    errorIfExists: false,
    compression: options.compression === 'snappy',
    cacheSize: options.blockCacheSize,
    writeBufferSize: options.writeBufferSize,
    blockSize: options.blockSize,
    maxOpenFiles: options.maxOpenFiles,
  };
}
