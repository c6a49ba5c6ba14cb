import type { LocalStoreMetrics } from '../../../state/store-metrics-snapshot';
import type { RocksDBStoreMetrics } from '../../../state/rocksdb-store-metrics';
import {
  ROCKSDB_PROPERTY_METRICS,
  ROCKSDB_STATISTICS_METRICS,
  STORE_OPERATION_NAMES,
} from '../../store-metric-catalog';
import type { MetricsReport, MetricTags } from '../metrics/metrics-report';

const STATE = 'stream-state-metrics';

/** Kafka Streams' store scope of an engine's: `rocksdb` is `rocksdb-state`, and so on. */
export function kafkaStoreScope(scope: string): string {
  return scope.endsWith('-state') ? scope : `${scope}-state`;
}

/**
 * Adds the metrics of the active tasks' stores to `report` (Kafka Streams'
 * `stream-state-metrics` and `stream-record-cache-metrics`): RocksDB's properties (INFO); each
 * operation's rate and latency, RocksDB's statistics and the record cache's hit ratio (DEBUG).
 */
export function reportStoreMetrics(report: MetricsReport, stores: readonly LocalStoreMetrics[]) {
  for (const store of stores) {
    const taskId = store.taskId ?? '';
    const tags = {
      'task-id': taskId,
      'store-scope': kafkaStoreScope(store.scope),
      'store-id': store.store,
    };
    if (report.records('DEBUG')) {
      for (const [name, op] of Object.entries(STORE_OPERATION_NAMES)) {
        const figures = store.operations[op];
        report.add(STATE, `${name}-rate`, tags, figures.ratePerSec, 'DEBUG');
        report.add(STATE, `${name}-latency-avg`, tags, nanos(figures.latencyAvgMs), 'DEBUG');
        report.add(STATE, `${name}-latency-max`, tags, nanos(figures.latencyMaxMs), 'DEBUG');
      }
      if (store.cache) {
        const cacheTags = { 'task-id': taskId, 'record-cache-id': store.store };
        report.add(
          'stream-record-cache-metrics',
          'hit-ratio-avg',
          cacheTags,
          store.cache.hitRatio,
          'DEBUG',
        );
      }
    }
    if (store.rocksdb) reportRocksDB(report, tags, store.rocksdb);
  }
}

function nanos(ms: number | undefined): number {
  return ms === undefined ? NaN : ms * 1e6;
}

function reportRocksDB(report: MetricsReport, tags: MetricTags, rocksdb: RocksDBStoreMetrics) {
  for (const [name, field] of ROCKSDB_PROPERTY_METRICS) {
    const value = rocksdb[field];
    if (value !== undefined) report.add(STATE, name, tags, Number(value));
  }
  const tickers = rocksdb.statistics;
  if (!tickers || !report.records('DEBUG')) return;
  const ticker = (name: string) => tickers[name] ?? 0;
  for (const [name, kind, [first, second]] of ROCKSDB_STATISTICS_METRICS) {
    if (kind === 'ratio') {
      const hits = report.growthOf(STATE, `${name}:hits`, tags, ticker(first));
      const misses = report.growthOf(STATE, `${name}:misses`, tags, ticker(second!));
      report.add(STATE, name, tags, hits + misses === 0 ? NaN : hits / (hits + misses), 'DEBUG');
      continue;
    }
    report.add(
      STATE,
      `${name}-rate`,
      tags,
      report.rateOf(STATE, name, tags, ticker(first)),
      'DEBUG',
    );
    if (kind === 'rate') report.add(STATE, `${name}-total`, tags, ticker(first), 'DEBUG');
  }
  const stallMs = ticker('rocksdb.stall.micros') / 1000;
  const stallPerMinute = report.rateOf(STATE, 'write-stall-duration', tags, stallMs) * 60;
  report.add(STATE, 'write-stall-duration-avg', tags, stallPerMinute, 'DEBUG');
  report.add(STATE, 'write-stall-duration-total', tags, stallMs, 'DEBUG');
  const open = ticker('rocksdb.no.file.opens') - ticker('rocksdb.no.file.closes');
  report.add(STATE, 'number-open-files', tags, open, 'DEBUG');
  report.add(STATE, 'number-file-errors-total', tags, ticker('rocksdb.no.file.errors'), 'DEBUG');
}
