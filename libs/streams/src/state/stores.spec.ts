import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Materialized } from '../kstream/materialized';
import { Serdes } from '../serde/serdes';
import { InMemoryBytesStore } from './internals/in-memory-bytes.store';
import { timestampedKeyValueStoreBuilderFor } from '../kstream/internals/key-value-store-materializer';
import { AsyncOnlyBytesStore, testStoreContext } from '../../test-support/store-test-support';
import type { KeyValueBytesStoreSupplier } from './key-value-bytes-store-supplier';
import type { StateStore } from '../processor/state-store';
import type { StateStoreContext } from '../processor/state-store-context';
import type { StoreBuilder } from '../processor/store-builder';
import { Stores } from './stores';

interface Stats {
  count: number;
  sum: number;
}

function asyncOnlySupplier(name: string): KeyValueBytesStoreSupplier {
  return {
    name,
    metricsScope: 'test-async',
    persistent: false,
    get: () => new AsyncOnlyBytesStore(new InMemoryBytesStore(name)),
  };
}

/** A builder of in-memory store `name`: String keys, Long values. */
const longs = (name: string) =>
  Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(name), Serdes.String(), Serdes.Long());

/** The store `builder` builds, opened in `context`. */
async function opened<S extends StateStore>(
  builder: StoreBuilder<S>,
  context: StateStoreContext,
): Promise<S> {
  const store = builder.build();
  await store.init(context);
  return store;
}

describe('Stores and the key-value store builder', () => {
  it('builds metered -> caching -> change-logging -> engine', async () => {
    const context = testStoreContext({ applicationId: 'shop' });
    const store = Stores.keyValueStoreBuilder(
      Stores.inMemoryKeyValueStore('stats-store'),
      Serdes.String(),
      Serdes.Json<Stats>(),
    )
      .withCachingEnabled()
      .build();
    await store.init(context);

    store.put('alice', { count: 1, sum: 5 });
    store.put('alice', { count: 2, sum: 7 });
    expect(store.get('alice')).toEqual({ count: 2, sum: 7 });
    expect(context.recordCollector.records).toHaveLength(0);
    await store.flush();
    const records = context.recordCollector.recordsFor('shop-stats-store-changelog', 0);
    expect(records.map((r) => JSON.parse(String(r.value)))).toEqual([{ count: 2, sum: 7 }]);

    const [registration] = context.registrations;
    expect(registration.name).toBe('stats-store');
    expect(registration.changelog).toEqual({ topic: 'shop-stats-store-changelog', partition: 0 });
    expect(registration.persistent).toBe(false);
  });

  it('logs every write when caching is disabled (the builder default)', async () => {
    const context = testStoreContext();
    const store = await opened(longs('s'), context);
    store.put('a', 1);
    store.put('a', 2);
    expect(store.delete('a')).toBe(2);
    expect(context.recordCollector.records.map((r) => r.value?.length ?? null)).toEqual([
      8,
      8,
      null,
    ]);
  });

  it('has no changelog with logging disabled', async () => {
    const context = testStoreContext();
    const store = await opened(longs('s').withLoggingDisabled(), context);
    store.put('a', 1);
    expect(context.recordCollector.records).toHaveLength(0);
    expect(context.registrations[0].changelog).toBeUndefined();
  });

  it('adds the prefetching layer for an async-only engine without caching', async () => {
    const context = testStoreContext();
    const store = Stores.keyValueStoreBuilder(
      asyncOnlySupplier('s'),
      Serdes.String(),
      Serdes.Long(),
    ).build();
    await store.init(context);
    context.registrations[0].restoreBatch([
      { key: Buffer.from('a'), value: Buffer.alloc(8, 0), timestamp: '5' },
    ]);
    await store.prefetch(['a', 'b']);
    expect(store.get('a')).toBe(0);
    expect(store.get('b')).toBeUndefined();
    store.put('b', 3);
    expect(store.get('b')).toBe(3);
    expect(() => store.get('c')).toThrow(
      expect.objectContaining({ code: 'STORE_SYNC_READ_UNAVAILABLE' }),
    );
    expect(await store.getAsync('c')).toBeUndefined();
  });

  it('reads, ranges and iterates typed entries', async () => {
    const context = testStoreContext();
    const store = await opened(longs('s').withCachingEnabled(), context);
    store.putAll([
      { key: 'a', value: 1 },
      { key: 'b', value: 2 },
      { key: 'c', value: 3 },
      { key: 'ba', value: 4 },
    ]);
    expect(store.putIfAbsent('a', 9)).toBe(1);
    expect([...store.range('b', 'c')].map((e) => e.key)).toEqual(['b', 'ba', 'c']);
    expect([...store.reverseAll()].map((e) => e.key)).toEqual(['c', 'ba', 'b', 'a']);
    expect([...store.prefixScan('b', Serdes.String())].map((e) => e.value)).toEqual([2, 4]);
    const iterator = store.all();
    expect(iterator.peekNextKey()).toBe('a');
    expect(iterator.next().value).toEqual({ key: 'a', value: 1 });
    iterator.close();
    expect(iterator.next().done).toBe(true);
    expect(await store.rangeAsync('a', 'b', true)).toEqual([
      { key: 'b', value: 2 },
      { key: 'a', value: 1 },
    ]);
    expect((await store.allAsync()).length).toBe(4);
  });

  it('keeps timestamped values as ValueAndTimestamp bytes and restores record timestamps', async () => {
    const context = testStoreContext();
    const store = Stores.timestampedKeyValueStoreBuilder(
      Stores.inMemoryKeyValueStore('ts'),
      Serdes.String(),
      Serdes.String(),
    ).build();
    await store.init(context);
    store.put('k', { value: 'v', timestamp: 1234 });
    const [record] = context.recordCollector.records;
    expect(String(record.value)).toBe('v');
    expect(record.timestamp).toBe(1234);
    context.registrations[0].restoreBatch([
      { key: Buffer.from('r'), value: Buffer.from('restored'), timestamp: '777' },
    ]);
    expect(store.get('r')).toEqual({ value: 'restored', timestamp: 777 });
    expect(store.get('k')).toEqual({ value: 'v', timestamp: 1234 });
  });

  it('counts operations and reports the cache hit ratio', async () => {
    const context = testStoreContext({ metricsLatencySampling: 1 });
    const store = await opened(longs('m').withCachingEnabled(), context);
    store.put('a', 1);
    store.get('a');
    store.get('zz');
    await store.flush();
    const snapshot = store.metricsSnapshot();
    expect(snapshot.store).toBe('m');
    expect(snapshot.taskId).toBe('0_0');
    expect(snapshot.scope).toBe('in-memory');
    expect(snapshot.operations.put.count).toBe(1);
    expect(snapshot.operations.get.count).toBe(2);
    expect(snapshot.operations.get.sampled).toBe(2);
    expect(snapshot.operations.get.latencyAvgMs).toBeGreaterThanOrEqual(0);
    expect(snapshot.operations.flush.count).toBe(1);
    expect(snapshot.cache).toMatchObject({ hits: 1, misses: 1, hitRatio: 0.5 });
  });

  it('times every operation at metricsRecordingLevel DEBUG, none at INFO', async () => {
    const sampled = async (level: string) => {
      const context = { ...testStoreContext(), appConfigs: { metricsRecordingLevel: level } };
      const store = await opened(longs('m'), context);
      store.put('a', 1);
      store.get('a');
      return store.metricsSnapshot().operations.get.sampled;
    };
    expect(await sampled('DEBUG')).toBe(1);
    expect(await sampled('INFO')).toBe(0);
  });

  it('forwards typed flushed entries with old values to the listener', async () => {
    const context = testStoreContext();
    const store = longs('l').withCachingEnabled().build();
    const seen: unknown[] = [];
    expect(store.setFlushListener((k, v, old, ts) => seen.push([k, v, old, ts]), true)).toBe(true);
    await store.init(context);
    context.timestamp = 10;
    store.put('a', 1);
    await store.flush();
    context.timestamp = 20;
    store.put('a', 2);
    store.delete('a');
    await store.flush();
    expect(seen).toEqual([
      ['a', 1, null, 10],
      ['a', null, 1, 20],
    ]);
  });

  it('opens a persistent store under <taskDir>/rocksdb/<name> and keeps its data', async () => {
    const taskDir = await fs.mkdtemp(path.join(os.tmpdir(), 'stores-'));
    try {
      const build = () =>
        Stores.keyValueStoreBuilder(
          Stores.persistentKeyValueStore('p'),
          Serdes.String(),
          Serdes.Long(),
        )
          .withCachingEnabled()
          .build();
      const store = build();
      await store.init(testStoreContext({ taskDir }));
      store.put('a', 42);
      await store.close();
      expect(await fs.readdir(path.join(taskDir, 'rocksdb'))).toEqual(['p']);
      const again = build();
      await again.init(testStoreContext({ taskDir }));
      expect(again.get('a')).toBe(42);
      expect(again.persistent).toBe(true);
      // RocksDB's own figures reach the typed store (per-store memory is visible, not guessed).
      const figures = again.rocksDBMetrics();
      expect(figures).toBeDefined();
      expect(figures!.estimatedNumKeys).toBeGreaterThanOrEqual(1);
      expect(figures!.blockCacheCapacityBytes).toBe(50 * 1024 * 1024);
      await again.close();
      expect(again.rocksDBMetrics()).toBeUndefined();
    } finally {
      await fs.rm(taskDir, { recursive: true, force: true });
    }
  });

  it('throws StoreClosedError before init', () => {
    const store = longs('x').build();
    expect(() => store.get('a')).toThrow(expect.objectContaining({ code: 'STORE_CLOSED' }));
  });

  it('refuses store names that cannot be directories or topics', () => {
    expect(() => Stores.inMemoryKeyValueStore('a/b')).toThrow(RangeError);
    expect(() => Stores.persistentKeyValueStore('')).toThrow(RangeError);
  });

  it('materializes a DSL store: caching and logging as asked, timestamped values', async () => {
    const materialized = Materialized.as<string, number>('count-store')
      .withValueSerde(Serdes.Long())
      .withStoreType('IN_MEMORY')
      .withCachingDisabled()
      .withLoggingEnabled({ 'segment.bytes': '1048576' });
    const builder = timestampedKeyValueStoreBuilderFor(materialized, {
      generatedName: 'KSTREAM-AGGREGATE-STATE-STORE-0000000001',
      keySerde: Serdes.String(),
      valueSerde: Serdes.Long(),
    });
    expect(builder.name).toBe('count-store');
    expect(builder.cachingEnabled).toBe(false);
    expect(builder.logConfig).toEqual({ 'segment.bytes': '1048576' });
    expect(builder.supplier.persistent).toBe(false);
    const store = builder.build();
    const context = testStoreContext();
    await store.init(context);
    store.put('a', { value: 3, timestamp: 9 });
    expect(store.get('a')).toEqual({ value: 3, timestamp: 9 });
  });

  it('defaults Materialized as Kafka Streams does', () => {
    const m = Materialized.as<string, number>('x');
    expect([m.storeType, m.cachingEnabled, m.loggingEnabled, m.retentionMs]).toEqual([
      'ROCKS_DB',
      true,
      true,
      undefined,
    ]);
    expect(m.withRetention(3_600_000).retentionMs).toBe(3_600_000);
    expect(() => m.withRetention(-1)).toThrow(RangeError);
    expect(Materialized.with(Serdes.String()).storeName).toBeUndefined();
  });
});
