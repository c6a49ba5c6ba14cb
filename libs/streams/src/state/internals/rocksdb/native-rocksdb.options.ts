import type { IteratorOptions, OpenOptions } from '@nest-streams/rocksdb';
import { RocksDBOptions } from '../../rocksdb-options';
import { assertBuffer, isEmptyRange, prefixUpperBound } from '../byte-range';
import { RocksDBOptionChecks } from './rocksdb-option-checks';

/** The engine's name in errors and metrics. */
export const NATIVE_ENGINE = '@nest-streams/rocksdb';

const MAX_BYTES = Number.MAX_SAFE_INTEGER / 4;

/**
 * Kafka Streams' defaults, all of which this engine applies as they are: the WAL off (the
 * changelog is the durable copy), three 16 MiB memtables, a 50 MiB LRU cache per store.
 */
export function nativeDefaultOptions(): RocksDBOptions {
  return new RocksDBOptions();
}

/**
 * Translates {@link RocksDBOptions} into the addon's open options. Every field is supported:
 * `blockCache` (a shared cache; else `blockCacheSize`, an LRU cache per store, 0 = none),
 * `writeBufferManager` (shared, never stalls), `blockSize` (>= 256), `writeBufferSize`
 * (>= 64 KiB), `maxWriteBufferNumber` (2..64), `compression` (`none`, or `snappy`/`zstd` when
 * the system RocksDB has it: `supportedCompressions`), `bloomFilterBitsPerKey` (0..100, 0 = no
 * filter), `compactionStyle`, `maxOpenFiles` (-1 or >= 10), `cacheIndexAndFilterBlocks` (needs
 * a block cache) and `cacheIndexAndFilterBlocksWithHighPriority`, `partitionedIndexAndFilters`,
 * `chargeTableReadersToCache` (needs a block cache; table readers and file metadata),
 * `arenaBlockSize` (0 = RocksDB's, else >= 4096), `walEnabled` (the default of every write), `parallelism` (`IncreaseParallelism`),
 * `maxBackgroundJobs` (0 = what `parallelism` set). Always:
 * `max_write_buffer_size_to_maintain = 0`.
 *
 * Throws `RocksDBConfigError` listing every value it cannot apply: change the config setter.
 */
export function toNativeOpenOptions(
  storeName: string,
  options: RocksDBOptions,
  supportedCompressions: readonly string[],
): OpenOptions {
  const compressions = (['none', 'snappy', 'zstd'] as const).filter((name) =>
    supportedCompressions.includes(name),
  );
  const { blockCache, writeBufferManager } = options;
  new RocksDBOptionChecks(options, NATIVE_ENGINE)
    .integer('blockCacheSize', 0, MAX_BYTES)
    .integer('blockSize', 256, 1024 * 1024 * 1024)
    .integer('writeBufferSize', 64 * 1024, MAX_BYTES)
    .integer('maxWriteBufferNumber', 2, 64)
    .oneOf('compression', compressions, 'what the system RocksDB was built with')
    .require(
      !(typeof options.bloomFilterBitsPerKey === 'number' && options.bloomFilterBitsPerKey >= 0) ||
        options.bloomFilterBitsPerKey > 100,
      `bloomFilterBitsPerKey=${options.bloomFilterBitsPerKey} (a number in [0, 100] is required)`,
    )
    .oneOf('compactionStyle', ['universal', 'level'], 'RocksDB compaction styles')
    .require(
      !(
        options.maxOpenFiles === -1 ||
        (Number.isInteger(options.maxOpenFiles) && options.maxOpenFiles >= 10)
      ),
      `maxOpenFiles=${options.maxOpenFiles} (-1 or an integer >= 10 is required)`,
    )
    .require(
      options.cacheIndexAndFilterBlocks && options.blockCacheSize === 0 && !blockCache,
      'cacheIndexAndFilterBlocks=true needs a block cache (blockCacheSize > 0 or blockCache)',
    )
    .boolean('cacheIndexAndFilterBlocksWithHighPriority')
    .boolean('partitionedIndexAndFilters')
    .boolean('chargeTableReadersToCache')
    .require(
      options.chargeTableReadersToCache && options.blockCacheSize === 0 && !blockCache,
      'chargeTableReadersToCache=true needs a block cache (blockCacheSize > 0 or blockCache)',
    )
    .require(
      !(
        options.arenaBlockSize === 0 ||
        (Number.isSafeInteger(options.arenaBlockSize) &&
          options.arenaBlockSize >= 4096 &&
          options.arenaBlockSize <= 1024 * 1024 * 1024)
      ),
      `arenaBlockSize=${options.arenaBlockSize} (0 or an integer in [4096, 1 GiB] is required)`,
    )
    .boolean('walEnabled')
    .integer('parallelism', 1, 1024)
    .integer('maxBackgroundJobs', 0, 1024)
    .require(
      blockCache !== undefined && !isAddonObject(blockCache, 'capacity'),
      'blockCache (a Cache of @nest-streams/rocksdb, e.g. RocksDBCache, is required)',
    )
    .require(
      writeBufferManager !== undefined && !isAddonObject(writeBufferManager, 'bufferSize'),
      'writeBufferManager (a WriteBufferManager of @nest-streams/rocksdb is required)',
    )
    .throwIfAny(storeName);

  return {
    createIfMissing: true,
    ...(blockCache !== undefined && { blockCache }),
    ...(writeBufferManager !== undefined && { writeBufferManager }),
    blockCacheSize: options.blockCacheSize,
    blockSize: options.blockSize,
    bloomFilterBitsPerKey: options.bloomFilterBitsPerKey,
    cacheIndexAndFilterBlocks: options.cacheIndexAndFilterBlocks,
    cacheIndexAndFilterBlocksWithHighPriority: options.cacheIndexAndFilterBlocksWithHighPriority,
    partitionedIndexAndFilters: options.partitionedIndexAndFilters,
    chargeTableReadersToCache: options.chargeTableReadersToCache,
    chargeFileMetadataToCache: options.chargeTableReadersToCache,
    arenaBlockSize: options.arenaBlockSize,
    writeBufferSize: options.writeBufferSize,
    maxWriteBufferNumber: options.maxWriteBufferNumber,
    compactionStyle: options.compactionStyle,
    compression: options.compression,
    maxOpenFiles: options.maxOpenFiles,
    walEnabled: options.walEnabled,
    parallelism: options.parallelism,
    ...(options.maxBackgroundJobs > 0 && { maxBackgroundJobs: options.maxBackgroundJobs }),
  };
}

/**
 * Whether `value` looks like one of the addon's shared objects (duck-typed: it may come from
 * another copy of the package or another realm; the addon checks the native handle itself).
 */
function isAddonObject(value: unknown, method: string): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { native?: unknown }).native === 'object' &&
    typeof (value as Record<string, unknown>)[method] === 'function'
  );
}

/** `[from, to]` (inclusive, undefined = open) as iterator bounds; undefined when empty. */
export function rangeBounds(
  from: Buffer | undefined,
  to: Buffer | undefined,
  reverse: boolean,
): IteratorOptions | undefined {
  if (isEmptyRange(from, to)) {
    return undefined;
  }
  return {
    reverse,
    ...(from !== undefined && { gte: from }),
    ...(to !== undefined && { lte: to }),
  };
}

/** Keys starting with `prefix`, ascending, as iterator bounds. */
export function prefixBounds(prefix: Buffer): IteratorOptions {
  assertBuffer(prefix, 'prefix');
  const upper = prefixUpperBound(prefix);
  return { gte: prefix, ...(upper !== undefined && { lt: upper }) };
}
