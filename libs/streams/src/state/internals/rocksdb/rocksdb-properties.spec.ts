import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Serdes } from '../../../serde/serdes';
import { testStoreContext } from '../../../../test-support/store-test-support';
import type { RocksDBStoreMetrics } from '../../rocksdb-store-metrics';
import { Stores } from '../../stores';
import { readRocksDBMetrics, sumRocksDBMetrics } from './rocksdb-properties';

const MINUTE = 60_000;

/** One database's figures: `n` everywhere, the given block cache capacity and flags. */
function figures(
  n: number,
  capacity: number,
  pending: boolean,
  sharedBlockCache = true,
): RocksDBStoreMetrics {
  const all = readRocksDBMetrics((name) =>
    name === 'rocksdb.block-cache-capacity' ? String(capacity) : String(n),
  );
  const statistics = { 'rocksdb.bytes.written': n };
  return { ...all, compactionPending: pending, sharedBlockCache, statistics };
}

describe('RocksDB figures of a store made of several databases', () => {
  it('sums every figure and ticker, sets a flag when one database does', () => {
    const sum = sumRocksDBMetrics([figures(2, 100, false, false), figures(3, 100, true, false)])!;
    expect(sum.estimatedNumKeys).toBe(5);
    expect(sum.totalSstFilesBytes).toBe(5);
    expect(sum.liveVersions).toBe(5);
    expect(sum.compactionPending).toBe(true);
    // Each its own block cache: the caches add up.
    expect(sum.blockCacheCapacityBytes).toBe(200);
    expect(sum.blockCacheUsageBytes).toBe(5);
    expect(sum.statistics).toEqual({ 'rocksdb.bytes.written': 5 });
  });

  it('reports a block cache the databases share once', () => {
    // (Two shared caches of different capacities are two caches: summed.)
    expect(
      sumRocksDBMetrics([figures(2, 100, false), figures(3, 200, false)])!.blockCacheCapacityBytes,
    ).toBe(300);
    const sum = sumRocksDBMetrics([figures(2, 100, false), figures(3, 100, false)])!;
    expect(sum.blockCacheCapacityBytes).toBe(100);
    expect(sum.blockCacheUsageBytes).toBe(2);
    expect(sum.compactionPending).toBe(false);
    expect(sum.sharedBlockCache).toBe(true);
  });

  it('is the one database of a store of one, and undefined for none', () => {
    const one = figures(7, 100, false);
    expect(sumRocksDBMetrics([one])).toBe(one);
    expect(sumRocksDBMetrics([])).toBeUndefined();
  });

  it('reads a window store over its segments, and RocksDB statistics at DEBUG only', async () => {
    const taskDir = mkdtempSync(join(tmpdir(), 'window-figures-'));
    try {
      const open = async (level: string, name: string) => {
        const context = {
          ...testStoreContext({ taskDir }),
          appConfigs: { metricsRecordingLevel: level },
        };
        const store = Stores.windowStoreBuilder(
          Stores.persistentWindowStore(name, 60 * MINUTE, 5 * MINUTE),
          Serdes.String(),
          Serdes.Long(),
        )
          .withLoggingDisabled()
          .withCachingDisabled()
          .build();
        await store.init(context);
        // Two segments of 30 minutes: windows at 0 and 35 min.
        context.timestamp = 40 * MINUTE;
        store.put('alice', 1, 0);
        store.put('bob', 2, 0);
        store.put('alice', 3, 35 * MINUTE);
        await store.flush();
        return store;
      };
      const debug = await open('DEBUG', 'counts');
      const summed = debug.rocksDBMetrics()!;
      expect(summed.estimatedNumKeys).toBe(3);
      // The segments share no cache here: each its own 50 MiB (Kafka Streams' default).
      expect(summed.blockCacheCapacityBytes).toBe(2 * 50 * 1024 * 1024);
      expect(summed.statistics!['rocksdb.number.keys.written']).toBe(3);
      const info = await open('INFO', 'counts-info');
      expect(info.rocksDBMetrics()!.estimatedNumKeys).toBe(3);
      expect(info.rocksDBMetrics()!.statistics).toBeUndefined();
      await debug.close();
      await info.close();
    } finally {
      rmSync(taskDir, { recursive: true, force: true });
    }
  });
});
