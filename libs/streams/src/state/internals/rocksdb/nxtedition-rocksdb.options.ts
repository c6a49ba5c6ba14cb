import type { NxtOpenOptions } from '@nxtedition/rocksdb';
import { RocksDBOptions, type RocksDBOptionValues } from '../../rocksdb-options';
import { RocksDBOptionChecks } from './rocksdb-option-checks';

/** The engine's name in errors and metrics. */
export const NXTEDITION_ENGINE = '@nxtedition/rocksdb';

/**
 * Values `@nxtedition/rocksdb` 12.2.12 fixes, replacing Kafka Streams' defaults: setting the
 * write buffer size (only possible through `compaction` + `memtableMemoryBudget`) also fixes
 * six memtables, and no option turns the WAL off.
 */
export const NXTEDITION_FIXED_OPTIONS: Readonly<Partial<RocksDBOptionValues>> = Object.freeze({
  maxWriteBufferNumber: 6,
  walEnabled: true,
});

/** Kafka Streams' defaults as this binding can run them. */
export function nxteditionDefaultOptions(): RocksDBOptions {
  return new RocksDBOptions(NXTEDITION_FIXED_OPTIONS);
}

/**
 * Translates {@link RocksDBOptions} into the binding's open options.
 *
 * Supported: `blockCacheSize` (a HyperClockCache per store, < 4 GiB; 0 = none), `blockSize`,
 * `writeBufferSize`, `compression` `none` or `zstd` (the prebuilt binary has no Snappy),
 * `bloomFilterBitsPerKey` (0 = no filter), `compactionStyle` (`level` compresses levels 2 and
 * below with ZSTD, so it needs `compression: 'zstd'`), `cacheIndexAndFilterBlocks` (needs a
 * block cache), `parallelism`. Fixed: `maxWriteBufferNumber` 6, `walEnabled` true,
 * `maxOpenFiles` -1 (not exposed), `cacheIndexAndFilterBlocksWithHighPriority` true,
 * `partitionedIndexAndFilters` false, `chargeTableReadersToCache` false, `arenaBlockSize` 0
 * (RocksDB's), `maxBackgroundJobs` 0. Refused: a shared `blockCache` or
 * `writeBufferManager`.
 *
 * Throws `RocksDBConfigError` listing every value it cannot apply: change the config setter.
 */
export function toNxteditionOpenOptions(
  storeName: string,
  options: RocksDBOptions,
): NxtOpenOptions {
  new RocksDBOptionChecks(options, NXTEDITION_ENGINE)
    .integer('blockCacheSize', 0)
    .integer('blockSize', 1)
    .integer('writeBufferSize', 1, Number.MAX_SAFE_INTEGER / 4)
    .fixed('maxWriteBufferNumber', 6, 'the binding sets six memtables with the write buffer size')
    .oneOf('compression', ['none', 'zstd'], 'the prebuilt binary links ZSTD only')
    .require(
      !(Number.isFinite(options.bloomFilterBitsPerKey) && options.bloomFilterBitsPerKey >= 0),
      `bloomFilterBitsPerKey=${options.bloomFilterBitsPerKey} (a number >= 0 is required)`,
    )
    .oneOf('compactionStyle', ['universal', 'level'], 'RocksDB compaction styles')
    .require(
      options.compactionStyle === 'level' && options.compression !== 'zstd',
      "compactionStyle=level needs compression=zstd (the binding's level style compresses " +
        'levels 2 and below with ZSTD)',
    )
    .fixed('maxOpenFiles', -1, 'the binding does not expose max_open_files')
    .require(
      options.cacheIndexAndFilterBlocks && options.blockCacheSize === 0,
      'cacheIndexAndFilterBlocks=true needs a block cache (blockCacheSize > 0)',
    )
    .fixed('walEnabled', true, 'the binding has no option to disable the WAL')
    .integer('parallelism', 1, 1024)
    .fixed(
      'cacheIndexAndFilterBlocksWithHighPriority',
      true,
      "the binding keeps RocksDB's default (high priority)",
    )
    .fixed('partitionedIndexAndFilters', false, 'the binding has no two-level index')
    .fixed('chargeTableReadersToCache', false, 'the binding has no cache usage options')
    .fixed('arenaBlockSize', 0, 'the binding does not expose the arena block size')
    .fixed('maxBackgroundJobs', 0, 'the binding only exposes parallelism')
    .require(
      options.blockCache !== undefined,
      'blockCache (the binding cannot share a block cache between stores; bounded memory needs ' +
        'the @nest-streams/rocksdb engine)',
    )
    .require(
      options.writeBufferManager !== undefined,
      'writeBufferManager (the binding has no write-buffer manager; bounded memory needs the ' +
        '@nest-streams/rocksdb engine)',
    )
    .throwIfAny(storeName);

  return {
    createIfMissing: true,
    errorIfExists: false,
    compression: options.compression === 'zstd',
    cacheSize: options.blockCacheSize,
    blockSize: options.blockSize,
    compaction: options.compactionStyle,
    memtableMemoryBudget: options.writeBufferSize * 4,
    filterPolicy:
      options.bloomFilterBitsPerKey > 0 ? `bloomfilter:${options.bloomFilterBitsPerKey}:false` : '',
    cacheIndexAndFilterBlocks: options.cacheIndexAndFilterBlocks,
    parallelism: options.parallelism,
  };
}
