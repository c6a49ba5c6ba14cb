import { metricDefinition, type StreamsMetricDefinition } from './streams-metric';

const STATE = 'stream-state-metrics';
const WINDOW = 'over the last 30 to 60 s';

/** A store's operations as Kafka Streams names them, and the engine's names for them. */
export const STORE_OPERATION_NAMES = {
  put: 'put',
  'put-if-absent': 'putIfAbsent',
  'put-all': 'putAll',
  get: 'get',
  delete: 'delete',
  range: 'range',
  'prefix-scan': 'prefixScan',
  all: 'all',
  flush: 'flush',
} as const;

/**
 * RocksDB's properties Kafka Streams reports (KIP-607), by metric name, and the
 * `RocksDBStoreMetrics` field each is read from; `flag` ones are 1 or 0.
 */
export const ROCKSDB_PROPERTY_METRICS = [
  ['num-immutable-mem-table', 'immutableMemTables', 'Immutable memtables not flushed yet.'],
  ['cur-size-active-mem-table', 'activeMemTableBytes', 'Bytes of the active memtable.'],
  [
    'cur-size-all-mem-tables',
    'memTablesBytes',
    'Bytes of the active and unflushed immutable memtables.',
  ],
  [
    'size-all-mem-tables',
    'allMemTablesBytes',
    'Bytes of the active, unflushed and pinned immutable memtables.',
  ],
  ['num-entries-active-mem-table', 'activeMemTableEntries', 'Entries in the active memtable.'],
  [
    'num-entries-imm-mem-tables',
    'immutableMemTableEntries',
    'Entries in the unflushed immutable memtables.',
  ],
  ['num-deletes-active-mem-table', 'activeMemTableDeletes', 'Deletes in the active memtable.'],
  [
    'num-deletes-imm-mem-tables',
    'immutableMemTableDeletes',
    'Deletes in the unflushed immutable memtables.',
  ],
  [
    'mem-table-flush-pending',
    'memTableFlushPending',
    '1 while a memtable flush is pending, else 0.',
  ],
  ['num-running-flushes', 'runningFlushes', 'Memtable flushes running.'],
  ['compaction-pending', 'compactionPending', '1 while a compaction is pending, else 0.'],
  ['num-running-compactions', 'runningCompactions', 'Compactions running.'],
  [
    'estimate-pending-compaction-bytes',
    'pendingCompactionBytes',
    'Bytes compaction still has to rewrite (level compaction).',
  ],
  ['total-sst-files-size', 'totalSstFilesBytes', 'Bytes of all SST files.'],
  ['live-sst-files-size', 'liveSstFilesBytes', 'Bytes of the SST files of the current LSM tree.'],
  ['num-live-versions', 'liveVersions', 'Live versions of the LSM tree.'],
  [
    'block-cache-capacity',
    'blockCacheCapacityBytes',
    'Capacity of the block cache in bytes (a cache shared by every store reports the same figure in each).',
  ],
  ['block-cache-usage', 'blockCacheUsageBytes', 'Bytes held in the block cache.'],
  ['block-cache-pinned-usage', 'blockCachePinnedUsageBytes', 'Bytes pinned in the block cache.'],
  ['estimate-num-keys', 'estimatedNumKeys', 'Estimated number of keys.'],
  [
    'estimate-table-readers-mem',
    'tableReadersBytes',
    'Bytes of the table readers (index and filter blocks) outside the block cache.',
  ],
  ['background-errors', 'backgroundErrors', 'Background errors (flush, compaction) so far.'],
] as const;

/**
 * The statistics-based RocksDB metrics Kafka Streams reports (KIP-471), from RocksDB's tickers
 * (the native engine's `statistics`, turned on at DEBUG). A `ratio` is hits over hits and
 * misses; a `rate` and its `-total`, the growth of a ticker.
 */
export const ROCKSDB_STATISTICS_METRICS = [
  ['bytes-written', 'rate', ['rocksdb.bytes.written'], 'Bytes written to the store'],
  ['bytes-read', 'rate', ['rocksdb.bytes.read'], 'Bytes read from the store'],
  [
    'memtable-bytes-flushed',
    'rate',
    ['rocksdb.flush.write.bytes'],
    'Bytes flushed from memtables to SST files',
  ],
  [
    'memtable-hit-ratio',
    'ratio',
    ['rocksdb.memtable.hit', 'rocksdb.memtable.miss'],
    'Lookups answered by a memtable',
  ],
  [
    'block-cache-data-hit-ratio',
    'ratio',
    ['rocksdb.block.cache.data.hit', 'rocksdb.block.cache.data.miss'],
    'Data block lookups the block cache answered',
  ],
  [
    'block-cache-index-hit-ratio',
    'ratio',
    ['rocksdb.block.cache.index.hit', 'rocksdb.block.cache.index.miss'],
    'Index block lookups the block cache answered',
  ],
  [
    'block-cache-filter-hit-ratio',
    'ratio',
    ['rocksdb.block.cache.filter.hit', 'rocksdb.block.cache.filter.miss'],
    'Filter block lookups the block cache answered',
  ],
  [
    'bytes-read-compaction',
    'rate-only',
    ['rocksdb.compact.read.bytes'],
    'Bytes read by compactions',
  ],
  [
    'bytes-written-compaction',
    'rate-only',
    ['rocksdb.compact.write.bytes'],
    'Bytes written by compactions',
  ],
] as const;

const ratioOf = (what: string) => `${what}, hits over lookups ${WINDOW} (NaN without lookups).`;

/** The state store, RocksDB and record cache metrics (see STREAMS_METRIC_DEFINITIONS). */
export const STORE_METRIC_DEFINITIONS: readonly StreamsMetricDefinition[] = [
  ...Object.keys(STORE_OPERATION_NAMES).flatMap((op) => [
    metricDefinition(STATE, `${op}-rate`, 'DEBUG', `${op} calls per second, ${WINDOW}.`),
    metricDefinition(
      STATE,
      `${op}-latency-avg`,
      'DEBUG',
      `Mean ${op} time in ns since the store opened (every call is timed at DEBUG).`,
      { kafka: `same, but since the store opened where Kafka's covers ${WINDOW}` },
    ),
    metricDefinition(
      STATE,
      `${op}-latency-max`,
      'DEBUG',
      `Largest ${op} time in ns since the store opened.`,
      { kafka: `same, but since the store opened where Kafka's covers ${WINDOW}` },
    ),
  ]),
  ...ROCKSDB_PROPERTY_METRICS.map(([name, , description]) =>
    metricDefinition(
      STATE,
      name,
      'INFO',
      `${description} RocksDB stores only: window and session stores sum their segments.`,
    ),
  ),
  ...ROCKSDB_STATISTICS_METRICS.flatMap(([name, kind, , what]) =>
    kind === 'ratio'
      ? [metricDefinition(STATE, name, 'DEBUG', ratioOf(what))]
      : [
          metricDefinition(STATE, `${name}-rate`, 'DEBUG', `${what} per second, ${WINDOW}.`),
          ...(kind === 'rate'
            ? [metricDefinition(STATE, `${name}-total`, 'DEBUG', `${what} since the store opened.`)]
            : []),
        ],
  ),
  metricDefinition(
    STATE,
    'write-stall-duration-avg',
    'DEBUG',
    `Milliseconds RocksDB stalled writes per minute, ${WINDOW}.`,
    { kafka: 'same measure (rocksdb.stall.micros), averaged per minute' },
  ),
  metricDefinition(
    STATE,
    'write-stall-duration-total',
    'DEBUG',
    'Milliseconds RocksDB stalled writes since the store opened.',
  ),
  metricDefinition(STATE, 'number-open-files', 'DEBUG', 'SST files open (opened minus closed).'),
  metricDefinition(
    STATE,
    'number-file-errors-total',
    'DEBUG',
    'File errors since the store opened.',
  ),
  metricDefinition(
    'stream-record-cache-metrics',
    'hit-ratio-avg',
    'DEBUG',
    'Record-cache reads the cache answered, over every read since the store opened.',
    {
      kafka:
        'the ratio since the store opened; Kafka averages it per read over a window, and has -min and -max',
    },
  ),
];
