import { readRocksDBMetrics } from '../../../state/internals/rocksdb/rocksdb-properties';
import type { LocalStoreMetrics } from '../../../state/store-metrics-snapshot';
import { STORE_OPERATION_NAMES } from '../../store-metric-catalog';
import type { MetricsRecordingLevel } from '../../streams-config';
import { MetricsReport } from '../metrics/metrics-report';
import { WindowRates } from '../metrics/window-rates';
import { kafkaStoreScope, reportStoreMetrics } from './store-metrics-report';

/** A RocksDB store's snapshot: 2 gets of 0.5 ms mean, 1 ms max; RocksDB tickers as given. */
function store(tickers: Record<string, number> | undefined): LocalStoreMetrics {
  const idle = { count: 0, ratePerSec: 0, sampled: 0 };
  const operations = Object.fromEntries(
    Object.values(STORE_OPERATION_NAMES).map((op) => [op, idle]),
  ) as unknown as LocalStoreMetrics['operations'];
  return {
    store: 'stats-store',
    taskId: '0_1',
    scope: 'rocksdb',
    operations: {
      ...operations,
      get: { count: 2, ratePerSec: 0.5, sampled: 2, latencyAvgMs: 0.5, latencyMaxMs: 1 },
    },
    cache: { hits: 3, misses: 1, hitRatio: 0.75, entries: 2, sizeBytes: 100 },
    rocksdb: {
      ...readRocksDBMetrics((name) => (name === 'rocksdb.compaction-pending' ? '1' : '7')),
      ...(tickers ? { statistics: tickers } : {}),
    },
  };
}

function read(level: MetricsRecordingLevel, rates: WindowRates, now: number, s: LocalStoreMetrics) {
  const report = new MetricsReport(level, now, rates);
  reportStoreMetrics(report, [s]);
  return new Map(report.metrics.map((m) => [`${m.group} ${m.name}`, m]));
}

describe('reportStoreMetrics', () => {
  it("names stores by Kafka Streams' scopes", () => {
    expect(kafkaStoreScope('rocksdb')).toBe('rocksdb-state');
    expect(kafkaStoreScope('in-memory-window')).toBe('in-memory-window-state');
    expect(kafkaStoreScope('my-state')).toBe('my-state');
  });

  it("reports RocksDB's properties at INFO, nothing of DEBUG", () => {
    const metrics = read('INFO', new WindowRates(), 0, store({ 'rocksdb.bytes.written': 5 }));
    expect(metrics.get('stream-state-metrics total-sst-files-size')).toEqual({
      group: 'stream-state-metrics',
      name: 'total-sst-files-size',
      tags: { 'task-id': '0_1', 'store-scope': 'rocksdb-state', 'store-id': 'stats-store' },
      value: 7,
    });
    expect(metrics.get('stream-state-metrics compaction-pending')?.value).toBe(1);
    expect(metrics.get('stream-state-metrics get-rate')).toBeUndefined();
    expect(metrics.get('stream-state-metrics bytes-written-total')).toBeUndefined();
    expect(metrics.get('stream-record-cache-metrics hit-ratio-avg')).toBeUndefined();
  });

  it('adds operations in ns, the cache hit ratio and ratios and rates of tickers at DEBUG', () => {
    const rates = new WindowRates();
    const tickers = (hits: number, misses: number, stallMicros: number) => ({
      'rocksdb.block.cache.data.hit': hits,
      'rocksdb.block.cache.data.miss': misses,
      'rocksdb.bytes.written': hits * 10,
      'rocksdb.stall.micros': stallMicros,
      'rocksdb.no.file.opens': 5,
      'rocksdb.no.file.closes': 2,
    });
    read('DEBUG', rates, 0, store(tickers(100, 100, 0)));
    const metrics = read('DEBUG', rates, 10_000, store(tickers(190, 110, 3_000_000)));
    const value = (name: string) => metrics.get(`stream-state-metrics ${name}`)?.value;
    expect(value('get-rate')).toBe(0.5);
    expect(value('get-latency-avg')).toBe(500_000);
    expect(value('get-latency-max')).toBe(1_000_000);
    expect(value('put-latency-avg')).toBeNaN();
    // 90 hits and 10 misses since the read before.
    expect(value('block-cache-data-hit-ratio')).toBe(0.9);
    expect(value('block-cache-index-hit-ratio')).toBeNaN();
    expect(value('bytes-written-total')).toBe(1_900);
    expect(value('bytes-written-rate')).toBe(900 / 30); // over 30 s at least
    expect(value('write-stall-duration-total')).toBe(3_000);
    expect(value('write-stall-duration-avg')).toBe((3_000 / 30) * 60); // ms per minute
    expect(value('number-open-files')).toBe(3);
    expect(metrics.get('stream-record-cache-metrics hit-ratio-avg')).toMatchObject({
      tags: { 'task-id': '0_1', 'record-cache-id': 'stats-store' },
      value: 0.75,
    });
  });

  it('reports no statistics where the engine collects none', () => {
    const metrics = read('DEBUG', new WindowRates(), 0, store(undefined));
    expect(metrics.get('stream-state-metrics block-cache-data-hit-ratio')).toBeUndefined();
    expect(metrics.get('stream-state-metrics estimate-num-keys')?.value).toBe(7);
  });
});
