import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { SessionWindow } from '../windowing/session-window';
import { Windowed } from '../windowing/windowed';
import { Serdes } from '../serde/serdes';
import type { KeyValue } from './key-value-store';
import type { MeteredSessionStore } from './internals/metered/metered-session-store';
import { SessionKeySchema } from './internals/segments/session-key-schema';
import { testStoreContext, type TestStoreContext } from '../../test-support/store-test-support';
import type { SessionBytesStoreSupplier } from './session-bytes-store-supplier';
import { Stores } from './stores';
import { useTempDirectory } from '../../../rocksdb/test-support/temp-directory';

const HOUR = 3_600_000;
const session = (key: string, start: number, end: number): Windowed<string> =>
  new Windowed(key, new SessionWindow(start, end));
/** `key@start/end=value` per session, for exact assertions. */
const show = (entries: readonly KeyValue<Windowed<string>, number | bigint>[]): string[] =>
  entries.map((e) => `${e.key.toString()}=${e.value}`);

interface Opened {
  readonly context: TestStoreContext;
  readonly store: MeteredSessionStore<string, number | bigint>;
}

describe.each([
  ['in-memory', false],
  ['RocksDB', true],
])('session stores on the %s engine', (_engine, persistent) => {
  const opened: Opened[] = [];

  afterEach(async () => {
    for (const { store } of opened.splice(0)) await store.close();
  });

  async function open(taskDir = join(root(), 'a'), logging = true): Promise<Opened> {
    const context = testStoreContext({ applicationId: 'shop', taskDir });
    const supplier: SessionBytesStoreSupplier = persistent
      ? Stores.persistentSessionStore('clicks', HOUR)
      : Stores.inMemorySessionStore('clicks', HOUR);
    const builder = Stores.sessionStoreBuilder(supplier, Serdes.String(), Serdes.Long());
    if (!logging) builder.withLoggingDisabled();
    const store = builder.build();
    await store.init(context);
    opened.push({ context, store });
    return { context, store };
  }

  it('puts, fetches, finds and removes sessions', async () => {
    const { store } = await open();
    expect(store.persistent).toBe(persistent);
    expect(store.timestampedValues).toBe(false);
    store.put(session('alice', 0, 10), 2);
    store.put(session('alice', 100, 150), 3);
    store.put(session('bob', 5, 5), 1);
    store.put(session('carol', 20, 40), 4);

    expect(show(store.fetch('alice'))).toEqual(['[alice@0/10]=2', '[alice@100/150]=3']);
    expect(store.fetch('alice')[0].key.window).toBeInstanceOf(SessionWindow);
    expect(store.fetchSession('alice', 100, 150)).toBe(3);
    expect(store.fetchSession('alice', 100, 151)).toBeUndefined();
    expect(show(store.findSessions('alice', 11, 200))).toEqual(['[alice@100/150]=3']);
    expect(show(store.findSessions('alice', 10, 100))).toEqual([
      '[alice@0/10]=2',
      '[alice@100/150]=3',
    ]);
    expect(show(store.findSessions('alice', 0, 99))).toEqual(['[alice@0/10]=2']);
    expect(show(store.backwardFindSessions('alice', 0, 200))).toEqual([
      '[alice@100/150]=3',
      '[alice@0/10]=2',
    ]);
    expect(show(store.fetch('b', 'c'))).toEqual(['[bob@5/5]=1']);
    expect(show(store.fetch(undefined, undefined))).toEqual([
      '[alice@0/10]=2',
      '[alice@100/150]=3',
      '[bob@5/5]=1',
      '[carol@20/40]=4',
    ]);

    expect(show(await store.fetchAsync('alice'))).toEqual(['[alice@0/10]=2', '[alice@100/150]=3']);
    expect(show(await store.findSessionsAsync('alice', 11, 200))).toEqual(['[alice@100/150]=3']);
    expect(show(await store.findSessionsAsync('alice', 0, 200, true))).toEqual([
      '[alice@100/150]=3',
      '[alice@0/10]=2',
    ]);
    expect(show(await store.fetchRangeAsync('bob', undefined))).toEqual([
      '[bob@5/5]=1',
      '[carol@20/40]=4',
    ]);
    expect(await store.fetchSessionAsync('bob', 5, 5)).toBe(1);

    store.remove(session('alice', 0, 10));
    store.put(session('carol', 20, 40), null);
    expect(show(store.fetch(undefined, undefined))).toEqual(['[alice@100/150]=3', '[bob@5/5]=1']);
    expect(store.fetchSession('alice', 0, 10)).toBeUndefined();
    expect(store.metricsSnapshot().operations.put.count).toBe(5);
  });

  it('logs session keys and aggregates, and restores identical contents from them', async () => {
    const { context, store } = await open();
    context.timestamp = 42;
    store.put(session('alice', 0, 10), 2);
    store.put(session('bob', 5, 5), 1);
    context.timestamp = 43;
    store.put(session('alice', 0, 10), null);
    store.put(session('alice', 0, 30), 3);

    const records = context.recordCollector.recordsFor('shop-clicks-changelog', 0);
    expect(records).toHaveLength(4);
    expect((records[0].key as Buffer).toString('hex')).toBe(
      Buffer.from('alice').toString('hex') + '000000000000000a' + '0000000000000000',
    );
    expect(SessionKeySchema.fromBinary(records[3].key as Buffer)).toEqual({
      key: Buffer.from('alice'),
      start: 0,
      end: 30,
    });
    expect(
      records.map((r) => (r.value === null ? null : Serdes.Long().deserialize(r.value, ''))),
    ).toEqual([2, 1, null, 3]);
    expect(records.map((r) => r.timestamp)).toEqual([42, 42, 43, 43]);
    expect(context.registrations[0].changelog).toEqual({
      topic: 'shop-clicks-changelog',
      partition: 0,
    });

    const { context: target, store: restored } = await open(join(root(), 'b'), false);
    expect(target.registrations[0].changelog).toBeUndefined();
    expect(target.recordCollector.records).toHaveLength(0);
    target.registrations[0].restoreBatch(
      records.map((r) => ({ key: r.key as Buffer, value: r.value, timestamp: r.timestamp })),
    );
    expect(show(restored.fetch(undefined, undefined))).toEqual(
      show(store.fetch(undefined, undefined)),
    );
    expect(show(restored.fetch(undefined, undefined))).toEqual(['[alice@0/30]=3', '[bob@5/5]=1']);
  });

  it('drops sessions past retention', async () => {
    const { context, store } = await open();
    store.put(session('alice', 0, 10), 1);
    store.put(session('alice', 2 * HOUR, 2 * HOUR), 2);
    store.put(session('bob', 0, 5), 9); // ended before streamTime - retention + 1
    expect(show(store.fetch('alice'))).toEqual([`[alice@${2 * HOUR}/${2 * HOUR}]=2`]);
    expect(store.fetch('bob')).toEqual([]);
    expect(context.recordCollector.records).toHaveLength(2);
  });

  if (persistent) {
    it('keeps its segments on disk across a reopen', async () => {
      const taskDir = join(root(), 'a');
      const first = await open(taskDir);
      first.store.put(session('alice', 0, 10), 7);
      await first.store.flush();
      await first.store.close();
      expect(readdirSync(join(taskDir, 'clicks'))).toEqual(['clicks.0']);
      const { store } = await open(taskDir);
      expect(show(store.fetch('alice'))).toEqual(['[alice@0/10]=7']);
    });
  }
});

const root = useTempDirectory('session-store-');

describe('Stores session suppliers', () => {
  it('describe their engine and the builder its changelog', () => {
    const builder = Stores.sessionStoreBuilder(
      Stores.persistentSessionStore('s', 5_000),
      Serdes.String(),
      Serdes.Long(),
    ).withCachingEnabled();
    expect(builder.supplier.metricsScope).toBe('rocksdb-session');
    expect(builder.changelogKind).toBe('session');
    expect(builder.retentionMs).toBe(5_000);
    expect(builder.cachingEnabled).toBe(true);
    expect(builder.loggingEnabled).toBe(true);
    expect(Stores.inMemorySessionStore('m', 1).persistent).toBe(false);
    expect(() => Stores.inMemorySessionStore('bad name', 1)).toThrow(RangeError);
  });
});
