import { StoreClosedError } from '../../../errors/store-closed.error';
import { CachingBytesStore } from './caching-bytes-store';
import { ChangeLoggingBytesStore } from './change-logging-bytes-store';
import { InMemoryBytesStore } from '../in-memory-bytes.store';
import { SegmentedBytesStore } from '../segments/segmented-bytes.store';
import { testStoreContext, prng } from '../../../../test-support/store-test-support';
import { windowView } from '../../../../test-support/window-view';
import {
  WindowKeySchema,
  type WindowBytesEntry,
  type WindowRangeQuery,
} from '../segments/window-key-schema';

const HOUR = 3_600_000;
const SIZE = 300_000;
const b = (text: string): Buffer => Buffer.from(text, 'latin1');

/** The window engine: in-memory segments under the window key schema. */
function engine(): SegmentedBytesStore {
  return new SegmentedBytesStore(
    {
      name: 'windowed-count-store',
      retentionPeriodMs: HOUR,
      capabilities: { syncReads: true, persistent: false },
      segmentFactory: (name) => new InMemoryBytesStore(name),
    },
    { segmentTimestamp: (storeKey) => WindowKeySchema.extractStoreTimestamp(storeKey) },
  );
}

async function cachedStack(cacheMaxBytes?: number) {
  const context = testStoreContext({ cacheMaxBytes });
  const store = new CachingBytesStore(new ChangeLoggingBytesStore(engine()));
  const flushed: string[] = [];
  store.setFlushListener((storeKey, value, old, timestamp) => {
    const { key, windowStart } = WindowKeySchema.fromStoreKey(storeKey);
    flushed.push(
      `${key.toString('latin1')}@${windowStart}=${value?.toString() ?? 'null'} (was ${
        old === undefined ? '?' : (old?.toString() ?? 'null')
      }, t${timestamp})`,
    );
  }, true);
  await store.init(context);
  return { store, window: windowView(store), context, flushed };
}

const show = (entries: Iterable<WindowBytesEntry>): string[] =>
  [...entries].map((e) => `${e.key.toString('latin1')}@${e.windowStart}=${e.value.toString()}`);

describe('CachingBytesStore over a window store', () => {
  it('collapses repeated writes of a window into one changelog record and one flushed update', async () => {
    const { store, window, context, flushed } = await cachedStack();
    context.timestamp = 1_000;
    window.put(b('alice'), b('1'), 300_000);
    context.timestamp = 2_000;
    window.put(b('alice'), b('2'), 300_000);
    context.timestamp = 3_000;
    window.put(b('alice'), b('3'), 300_000);
    window.put(b('bob'), b('1'), 600_000);
    // Served from the cache before anything reached the store below or the changelog.
    expect(window.fetch(b('alice'), 300_000)?.toString()).toBe('3');
    expect(await window.fetchAsync(b('alice'), 300_000)).toEqual(b('3'));
    expect(context.recordCollector.records).toHaveLength(0);
    expect(flushed).toEqual([]);

    await store.flush();
    const logged = context.recordCollector.records.map(
      (r) =>
        `${WindowKeySchema.fromStoreKey(r.key as Buffer).key.toString()}=${String(r.value)}@t${r.timestamp}`,
    );
    expect(logged).toEqual(['alice=3@t3000', 'bob=1@t3000']);
    expect(flushed).toEqual(['alice@300000=3 (was null, t3000)', 'bob@600000=1 (was null, t3000)']);
    // A second round reports the value the store held as the old value.
    context.timestamp = 4_000;
    window.put(b('alice'), b('4'), 300_000);
    await store.flush();
    expect(flushed.at(-1)).toBe('alice@300000=4 (was 3, t4000)');
    expect(windowView(store.inner).fetch(b('alice'), 300_000)?.toString()).toBe('4');
  });

  it('writes a flush through as one batch, logging each window with its own timestamp', async () => {
    const context = testStoreContext();
    const logging = new ChangeLoggingBytesStore(engine());
    const store = new CachingBytesStore(logging);
    const window = windowView(store);
    await store.init(context);
    const below: string[] = [];
    logging.put = () => {
      below.push('put');
    };
    const write = logging.write.bind(logging);
    logging.write = (writes) => {
      below.push(`write ${writes.length}`);
      return write(writes);
    };
    context.timestamp = 1_000;
    window.put(b('alice'), b('1'), 300_000);
    context.timestamp = 2_000;
    window.put(b('bob'), b('1'), 2_100_000);
    window.put(b('carol'), b('1'), 0);
    await store.flush();
    expect(below).toEqual(['write 3']);
    expect(
      context.recordCollector.records.map(
        (r) => `${WindowKeySchema.fromStoreKey(r.key as Buffer).key.toString()}@t${r.timestamp}`,
      ),
    ).toEqual(['alice@t1000', 'bob@t2000', 'carol@t2000']);
    expect(show(window.range({}))).toEqual(['alice@300000=1', 'carol@0=1', 'bob@2100000=1']);
  });

  it('hides stored windows behind cached deletes and merges cached windows into ranges in store order', async () => {
    const { store, window } = await cachedStack();
    for (const start of [0, 300_000, 1_800_000, 2_100_000])
      window.put(b('a'), b(`a${start}`), start);
    window.put(b('ab'), b('ab0'), 0);
    await store.flush();
    window.put(b('a'), null, 300_000);
    window.put(b('a'), b('new'), 600_000);
    window.put(b('b'), b('b1'), 1_800_000);
    expect(show(window.range({ key: b('a') }))).toEqual([
      'a@0=a0',
      'a@600000=new',
      'a@1800000=a1800000',
      'a@2100000=a2100000',
    ]);
    expect(show(window.range({ key: b('a'), backward: true }))).toEqual([
      'a@2100000=a2100000',
      'a@1800000=a1800000',
      'a@600000=new',
      'a@0=a0',
    ]);
    // Segment by segment (30-minute segments), then by store key inside each.
    expect(show(window.range({}))).toEqual([
      'a@0=a0',
      'a@600000=new',
      'ab@0=ab0',
      'a@1800000=a1800000',
      'a@2100000=a2100000',
      'b@1800000=b1',
    ]);
    expect(show(await window.rangeAsync({ keyFrom: b('ab'), keyTo: b('b') }))).toEqual([
      'ab@0=ab0',
      'b@1800000=b1',
    ]);
    expect(window.fetch(b('a'), 300_000)).toBeUndefined();
  });

  it('drops writes of windows past retention, counting cached writes in stream time', async () => {
    const { store, window, context } = await cachedStack();
    window.put(b('a'), b('late-enough'), 0);
    expect(window.put(b('a'), b('now'), 2 * HOUR)).toBeDefined();
    expect(store.segments?.observedStreamTime()).toBe(2 * HOUR);
    expect(window.put(b('a'), b('too late'), HOUR - SIZE)).toBeUndefined();
    expect(window.fetch(b('a'), 0)).toBeUndefined();
    expect(show(window.range({ key: b('a') }))).toEqual([`a@${2 * HOUR}=now`]);
    await store.flush();
    // Written while live, the window at 0 is logged in write order, as without a cache, and
    // expires at once in the store below; the write that came too late is not logged.
    expect(context.recordCollector.records.map((r) => String(r.value))).toEqual([
      'late-enough',
      'now',
    ]);
    expect(windowView(store.inner).fetch(b('a'), 0)).toBeUndefined();
  });

  it('writes dirty windows through when the cache evicts, in write order', async () => {
    // A budget of a few entries: every further write evicts (and so flushes) the namespace.
    const { store, window, context } = await cachedStack(400);
    for (let i = 0; i < 10; i++) window.put(b(`k${i}`), b(String(i)), 300_000);
    expect(context.recordCollector.records.length).toBeGreaterThan(0);
    await store.flush();
    const logged = context.recordCollector.records.map((r) =>
      WindowKeySchema.fromStoreKey(r.key as Buffer).key.toString(),
    );
    expect(logged).toEqual(Array.from({ length: 10 }, (_, i) => `k${i}`));
    expect(show(window.range({}))).toHaveLength(10);
  });

  it('reads exactly like the uncached engine through random writes, deletes and flushes', async () => {
    const keys = ['a', 'ab', 'abc', 'b', 'ba', 'c'].map(b);
    const starts = Array.from({ length: 16 }, (_, i) => i * SIZE);
    for (const seed of [1, 2]) {
      const random = prng(seed);
      const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
      const { store, window } = await cachedStack();
      const plain = engine();
      await plain.open();
      const plainView = windowView(plain);
      const queries = (): WindowRangeQuery[] => [
        { key: pick(keys) },
        { key: pick(keys), timeFrom: pick(starts), timeTo: pick(starts), backward: true },
        {},
        { backward: true },
        { keyFrom: pick(keys), keyTo: pick(keys) },
        { keyFrom: pick(keys), timeFrom: pick(starts) },
        { keyTo: pick(keys), timeTo: pick(starts), backward: true },
      ];
      for (let step = 0; step < 250; step++) {
        const key = pick(keys);
        // Stream time creeps forward, so windows expire as the sequence goes on.
        const start = pick(starts) + Math.floor(step / 60) * HOUR;
        const value = random() < 0.2 ? null : b(`v${step}`);
        expect(window.put(key, value, start) !== undefined).toBe(
          plainView.put(key, value, start) !== undefined,
        );
        if (random() < 0.1) await store.flush();
        const fetchKey = pick(keys);
        const fetchStart = pick(starts) + Math.floor(step / 60) * HOUR;
        expect(window.fetch(fetchKey, fetchStart)).toEqual(plainView.fetch(fetchKey, fetchStart));
        for (const query of queries()) {
          const context = `seed ${seed} step ${step} ${JSON.stringify(query)}`;
          expect([context, ...show(window.range(query))]).toEqual([
            context,
            ...show(plainView.range(query)),
          ]);
        }
      }
      await store.flush();
      expect(show(windowView(store.inner).range({}))).toEqual(show(plainView.range({})));
    }
  });

  it('refuses reads and writes before init and after close', async () => {
    const unopened = windowView(new CachingBytesStore(engine()));
    expect(() => unopened.put(b('a'), b('1'), 0)).toThrow(StoreClosedError);
    const { store, window, context } = await cachedStack();
    window.put(b('a'), b('1'), 0);
    await store.close();
    // Closing wrote the dirty window through first.
    expect(context.recordCollector.records).toHaveLength(1);
    expect(() => window.fetch(b('a'), 0)).toThrow(StoreClosedError);
  });
});
