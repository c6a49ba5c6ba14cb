import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SessionWindow } from '../windowing/session-window';
import { Windowed } from '../windowing/windowed';
import { Serdes } from '../serde/serdes';
import { WindowKeySchema } from './internals/segments/window-key-schema';
import { testStoreContext } from '../../test-support/store-test-support';
import { Stores } from './stores';

const MINUTE = 60_000;

describe('window stores (metered -> change-logging -> segmented engine)', () => {
  async function open(name = 'windowed-count-store') {
    const context = testStoreContext({ applicationId: 'shop' });
    const store = Stores.windowStoreBuilder(
      Stores.inMemoryWindowStore(name, 60 * MINUTE, 5 * MINUTE),
      Serdes.String(),
      Serdes.Long(),
    ).build();
    await store.init(context);
    return { context, store };
  }

  it('puts and fetches windows, and logs store keys to the changelog', async () => {
    const { context, store } = await open();
    context.timestamp = 42;
    store.put('alice', 1, 0);
    store.put('alice', 2, 5 * MINUTE);
    store.put('bob', 7, 5 * MINUTE);
    expect(store.fetch('alice', 0)).toBe(1);
    expect(store.fetch('alice', 10 * MINUTE)).toBeUndefined();
    expect([...store.fetch('alice', 0, 10 * MINUTE)]).toEqual([
      { key: 0, value: 1 },
      { key: 5 * MINUTE, value: 2 },
    ]);
    expect([...store.backwardFetch('alice', 0, 10 * MINUTE)].map((e) => e.key)).toEqual([
      5 * MINUTE,
      0,
    ]);
    const all = [...store.fetchAll(5 * MINUTE, 5 * MINUTE)].map((e) => [
      e.key.key,
      e.key.window.start,
      e.key.window.end,
      e.value,
    ]);
    expect(all).toEqual([
      ['alice', 5 * MINUTE, 10 * MINUTE, 2],
      ['bob', 5 * MINUTE, 10 * MINUTE, 7],
    ]);
    expect(
      (await store.fetchRangeAsync('b', undefined, 0, 10 * MINUTE)).map((e) => e.key.key),
    ).toEqual(['bob']);
    expect(await store.fetchWindowsAsync('alice', 0, 0)).toEqual([{ key: 0, value: 1 }]);

    const records = context.recordCollector.recordsFor('shop-windowed-count-store-changelog', 0);
    expect(records).toHaveLength(3);
    expect(WindowKeySchema.fromStoreKey(records[1].key as Buffer)).toMatchObject({
      key: Buffer.from('alice'),
      windowStart: 5 * MINUTE,
      seqnum: 0,
    });
    expect(records[1].timestamp).toBe(42);
    expect(context.registrations[0].changelog).toEqual({
      topic: 'shop-windowed-count-store-changelog',
      partition: 0,
    });
  });

  it('restores changelog records through the engine', async () => {
    const { context: source, store } = await open();
    store.put('alice', 3, 0);
    store.put('bob', 4, MINUTE * 5);
    const { context, store: restored } = await open();
    context.registrations[0].restoreBatch(
      source.recordCollector.records.map((r) => ({
        key: r.key as Buffer,
        value: r.value,
        timestamp: r.timestamp,
      })),
    );
    expect(restored.fetch('alice', 0)).toBe(3);
    expect(restored.fetch('bob', 5 * MINUTE)).toBe(4);
  });

  it('keeps timestamps with timestamped window stores', async () => {
    const context = testStoreContext();
    const store = Stores.timestampedWindowStoreBuilder(
      Stores.inMemoryWindowStore('tw', 60 * MINUTE, 5 * MINUTE),
      Serdes.String(),
      Serdes.Long(),
    ).build();
    await store.init(context);
    store.put('a', { value: 5, timestamp: 1234 }, 0);
    expect(store.fetch('a', 0)).toEqual({ value: 5, timestamp: 1234 });
    expect(context.recordCollector.records[0].timestamp).toBe(1234);
    expect(context.recordCollector.records[0].value?.length).toBe(8);
  });
});

describe('persistent window and session stores and the RocksDB config setter', () => {
  it('gives the setter each segment by its name, <store>.<segment start>, as Kafka Streams', async () => {
    const root = mkdtempSync(join(tmpdir(), 'segment-setter-'));
    try {
      const named: string[] = [];
      const closed: string[] = [];
      const configSetter = {
        setConfig: (storeName: string) => void named.push(storeName),
        close: (storeName: string) => void closed.push(storeName),
      };
      const context = testStoreContext({ applicationId: 'shop', taskDir: root });
      // Retention 60 min: segments of 30 min (max(retention / 2, 60 s)).
      const window = Stores.windowStoreBuilder(
        Stores.persistentWindowStore('counts', 60 * MINUTE, 5 * MINUTE, false, { configSetter }),
        Serdes.String(),
        Serdes.Long(),
      )
        .withLoggingDisabled()
        .build();
      await window.init(context);
      context.timestamp = 40 * MINUTE;
      window.put('alice', 1, 0);
      window.put('alice', 2, 35 * MINUTE);
      const session = Stores.sessionStoreBuilder(
        Stores.persistentSessionStore('sessions', 60 * MINUTE, { configSetter }),
        Serdes.String(),
        Serdes.Long(),
      )
        .withLoggingDisabled()
        .build();
      await session.init(context);
      session.put(new Windowed('bob', new SessionWindow(0, 10)), 3);
      await window.close();
      await session.close();
      expect(named.sort()).toEqual(['counts.0', `counts.${30 * MINUTE}`, 'sessions.0']);
      expect(closed.sort()).toEqual(named.sort());
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
