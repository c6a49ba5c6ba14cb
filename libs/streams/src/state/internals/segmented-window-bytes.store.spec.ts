import { InvalidWindowError } from '../../errors/invalid-window.error';
import { StoreClosedError } from '../../errors/store-closed.error';
import { UnsupportedStoreOperationError } from '../../errors/unsupported-store-operation.error';
import type { BytesStoreCapabilities } from '../bytes-store';
import { InMemoryBytesStore } from './in-memory-bytes.store';
import {
  SegmentedWindowBytesStore,
  type SegmentedWindowBytesStoreOptions,
  type WindowBytesEntry,
} from './segmented-window-bytes.store';
import { WindowKeySchema } from './window-key-schema';

const HOUR = 3_600_000;
const SIZE = 300_000;
const b = (text: string): Buffer => Buffer.from(text, 'latin1');

/** An in-memory engine that declares no synchronous reads. */
class AsyncOnlyStore extends InMemoryBytesStore {
  override readonly capabilities: BytesStoreCapabilities = { syncReads: false, persistent: false };
}

async function openStore(
  overrides: Partial<SegmentedWindowBytesStoreOptions> = {},
): Promise<{ store: SegmentedWindowBytesStore; created: Map<string, InMemoryBytesStore> }> {
  const created = new Map<string, InMemoryBytesStore>();
  const store = new SegmentedWindowBytesStore({
    name: 'windowed-count-store',
    retentionPeriodMs: HOUR,
    windowSizeMs: SIZE,
    capabilities: { syncReads: true, persistent: false },
    segmentFactory: (name) => {
      const engine = new InMemoryBytesStore(name);
      created.set(name, engine);
      return engine;
    },
    ...overrides,
  });
  await store.open();
  return { store, created };
}

/** `key@start=value` per entry, for compact exact assertions. */
const show = (entries: Iterable<WindowBytesEntry>): string[] =>
  [...entries].map((e) => `${e.key.toString('latin1')}@${e.windowStart}=${e.value.toString()}`);

describe('SegmentedWindowBytesStore (in-memory engine)', () => {
  it('writes [key][start][seqnum 0] keys into the segment of the window start', async () => {
    const { store, created } = await openStore();
    expect(store.segmentIntervalMs).toBe(1_800_000);
    const written = store.put(b('alice'), b('1'), 300_000);
    expect(written?.toString('hex')).toBe('616c696365' + '00000000000493e0' + '00000000');
    store.put(b('alice'), b('2'), 1_800_000);
    expect(store.segmentNames()).toEqual([
      'windowed-count-store.0',
      'windowed-count-store.1800000',
    ]);
    // New segments open in the background; flush waits for them.
    await store.flush();
    expect(
      created
        .get('windowed-count-store.0')
        ?.get(written ?? b(''))
        ?.toString(),
    ).toBe('1');
    expect(store.fetch(b('alice'), 300_000)?.toString()).toBe('1');
    expect(store.fetch(b('alice'), 600_000)).toBeUndefined();
    expect(store.observedStreamTime()).toBe(1_800_000);
  });

  it('fetches one key by window start, ascending and backward, across segments', async () => {
    const { store } = await openStore();
    for (const start of [1_800_000, 0, 300_000, 2_100_000, 600_000]) {
      store.put(b('alice'), b(String(start / SIZE)), start);
    }
    store.put(b('bob'), b('x'), 300_000);
    expect(show(store.range({ key: b('alice'), timeFrom: 300_000, timeTo: 1_800_000 }))).toEqual([
      'alice@300000=1',
      'alice@600000=2',
      'alice@1800000=6',
    ]);
    expect(
      show(store.range({ key: b('alice'), timeFrom: 0, timeTo: 2_100_000, backward: true })),
    ).toEqual([
      'alice@2100000=7',
      'alice@1800000=6',
      'alice@600000=2',
      'alice@300000=1',
      'alice@0=0',
    ]);
    expect(show(store.range({ key: b('alice'), timeFrom: 600_001, timeTo: 1_799_999 }))).toEqual(
      [],
    );
    expect(show(store.range({ key: b('alice'), timeFrom: 10, timeTo: 5 }))).toEqual([]);
  });

  it('keeps keys that extend another key out of that key’s fetch', async () => {
    const { store } = await openStore();
    store.put(b('a'), b('short'), 0);
    store.put(b('a\x00'), b('longer'), 0);
    store.put(b('a\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00'), b('tricky'), 0);
    expect(show(store.range({ key: b('a') }))).toEqual(['a@0=short']);
    expect(store.fetch(b('a'), 0)?.toString()).toBe('short');
  });

  it('fetches key ranges segment by segment, then by key and start, and all windows', async () => {
    const { store } = await openStore();
    store.put(b('c'), b('c0'), 0);
    store.put(b('a'), b('a1'), 1_800_000);
    store.put(b('b'), b('b0'), 0);
    store.put(b('a'), b('a0'), 300_000);
    store.put(b('b'), b('b1'), 1_800_000);
    expect(
      show(store.range({ keyFrom: b('a'), keyTo: b('b'), timeFrom: 0, timeTo: HOUR })),
    ).toEqual(['a@300000=a0', 'b@0=b0', 'a@1800000=a1', 'b@1800000=b1']);
    expect(show(store.range({ keyFrom: b('b'), timeFrom: 0, timeTo: 299_999 }))).toEqual([
      'b@0=b0',
      'c@0=c0',
    ]);
    expect(show(store.range({ keyTo: b('a'), backward: true }))).toEqual([
      'a@1800000=a1',
      'a@300000=a0',
    ]);
    expect(show(store.range({ timeFrom: 300_000, timeTo: 1_800_000 }))).toEqual([
      'a@300000=a0',
      'a@1800000=a1',
      'b@1800000=b1',
    ]);
    expect(show(store.range({}))).toHaveLength(5);
    expect(show(store.range({ keyFrom: b('b'), keyTo: b('a') }))).toEqual([]);
  });

  it('finds a short key at a large start when keyTo extends it (variable-length keys)', async () => {
    const { store } = await openStore({ retentionPeriodMs: Number.MAX_SAFE_INTEGER });
    const start = 2 ** 48; // first timestamp bytes 00 01: above keyTo's next byte 00 00
    store.put(b('a'), b('far'), start);
    expect(show(store.range({ keyFrom: b('a'), keyTo: b('a\x00\x00') }))).toEqual([
      `a@${start}=far`,
    ]);
  });

  it('deletes with null and reports the store key, which is also the changelog key', async () => {
    const { store } = await openStore();
    store.put(b('alice'), b('1'), 0);
    expect(store.put(b('alice'), null, 0)).toEqual(
      WindowKeySchema.toStoreKeyBinary(b('alice'), 0, 0),
    );
    expect(store.fetch(b('alice'), 0)).toBeUndefined();
  });

  it('drops segments past retention and stops returning expired windows', async () => {
    const { store, created } = await openStore();
    store.put(b('alice'), b('old'), 0);
    store.put(b('alice'), b('mid'), 1_800_000);
    expect(store.segmentCount()).toBe(2);

    // Stream time 5.4 M: live windows start at >= 5.4 M - 3.6 M + 1 = 1 800 001;
    // segment 0 ([0, 1.8 M)) is dropped, segment 1 stays but its window at 1.8 M has expired.
    store.put(b('alice'), b('new'), 5_400_000);
    expect(store.segmentNames()).toEqual([
      'windowed-count-store.1800000',
      'windowed-count-store.5400000',
    ]);
    expect(show(store.range({ key: b('alice') }))).toEqual(['alice@5400000=new']);
    expect(store.fetch(b('alice'), 0)).toBeUndefined();
    expect(store.fetch(b('alice'), 1_800_000)).toBeUndefined();
    await store.flush();
    expect(created.get('windowed-count-store.0')?.isOpen()).toBe(false);

    // A late write for an expired window is dropped, not written.
    expect(store.put(b('alice'), b('late'), 1_800_000)).toBeUndefined();
    expect(store.put(b('bob'), b('live'), 1_800_001)).toBeDefined();
    expect(store.expiredRecordDrops()).toBe(1);

    // Stream time 7.2 M drops segment 1 as well.
    store.put(b('alice'), b('newer'), 7_200_000);
    expect(store.segmentCount()).toBe(2);
    expect(store.segmentNames()[0]).toBe('windowed-count-store.5400000');
  });

  it('restores a batch, skipping records already past retention', async () => {
    const { store } = await openStore();
    const key = (start: number): Buffer => WindowKeySchema.toStoreKeyBinary(b('alice'), start, 0);
    const result = store.restoreAll([
      { key: key(0), value: b('0') },
      { key: key(300_000), value: b('1') },
      { key: key(3_600_000), value: b('12') },
      { key: key(5_400_000), value: b('18') },
      { key: key(3_600_000), value: null },
      { key: key(3_900_000), value: b('13') },
    ]);
    expect(result).toEqual({ applied: 4, skippedExpired: 2 });
    expect(store.observedStreamTime()).toBe(5_400_000);
    expect(store.segmentNames()).toEqual([
      'windowed-count-store.3600000',
      'windowed-count-store.5400000',
    ]);
    expect(show(store.range({ key: b('alice') }))).toEqual([
      'alice@3900000=13',
      'alice@5400000=18',
    ]);

    // A later batch moves stream time on: earlier segments go, as in Kafka Streams.
    expect(store.restoreAll([{ key: key(9_000_000), value: b('30') }])).toEqual({
      applied: 1,
      skippedExpired: 0,
    });
    expect(store.segmentNames()).toEqual([
      'windowed-count-store.5400000',
      'windowed-count-store.9000000',
    ]);
  });

  it('writes a batch by store key as one put each would, in one engine batch per segment', async () => {
    const { store, created } = await openStore();
    const key = (name: string, start: number): Buffer =>
      WindowKeySchema.toStoreKeyBinary(b(name), start, 0);
    store.put(b('alice'), b('a0'), 0);
    store.put(b('alice'), b('a1'), 1_800_000);
    await store.flush(); // both segments open: writes now reach the engines
    const calls: string[] = [];
    for (const [name, engine] of created) {
      engine.put = () => void calls.push(`${name} put`);
      const putAll = engine.putAll.bind(engine);
      engine.putAll = (writes) => {
        calls.push(`${name} putAll ${writes.length}`);
        putAll(writes);
      };
    }
    const written = store.putAll([
      { key: key('bob', 300_000), value: b('b0') },
      { key: key('carol', 2_100_000), value: b('c1') },
      { key: key('bob', 300_000), value: b('b0-again') },
      { key: key('alice', 0), value: null },
      { key: key('dave', 5_400_000), value: b('d3') }, // stream time 5.4 M: segment 0 expires
      { key: key('erin', 0), value: b('late') },
    ]);
    expect(written).toEqual([true, true, true, true, true, false]);
    expect(store.expiredRecordDrops()).toBe(1);
    // One engine batch per existing segment, none per write. Segment 0, expired by a later
    // write's stream time, gets its batch and is then destroyed, as after one put each.
    expect(store.segmentNames()).toEqual([
      'windowed-count-store.1800000',
      'windowed-count-store.5400000',
    ]);
    expect(calls).toEqual([
      'windowed-count-store.0 putAll 3',
      'windowed-count-store.1800000 putAll 1',
    ]);
    await store.flush();
    // alice@1.8 M is past retention now (live from 1 800 001), as with one put each.
    expect(show(store.range({}))).toEqual(['carol@2100000=c1', 'dave@5400000=d3']);
  });

  it('retains duplicates with increasing seqnums when asked (join stores)', async () => {
    const { store } = await openStore({ retainDuplicates: true });
    const keys = ['a', 'b', 'c'].map((v) => store.put(b('k'), b(v), 0)?.toString('hex'));
    expect(keys).toEqual([
      '6b' + '0000000000000000' + '00000001',
      '6b' + '0000000000000000' + '00000002',
      '6b' + '0000000000000000' + '00000003',
    ]);
    expect([...store.range({ key: b('k') })].map((e) => [e.seqnum, e.value.toString()])).toEqual([
      [1, 'a'],
      [2, 'b'],
      [3, 'c'],
    ]);
    expect(store.fetch(b('k'), 0)?.toString()).toBe('c');
    expect(await store.fetchAsync(b('k'), 0)).toEqual(b('c'));
    expect(store.put(b('k'), null, 0)).toBeUndefined();
    expect([...store.range({ key: b('k') })]).toHaveLength(3);
  });

  it('serves the asynchronous reads, and refuses synchronous ones on an async-only engine', async () => {
    const { store } = await openStore({
      capabilities: { syncReads: false, persistent: false },
      segmentFactory: (name) => new AsyncOnlyStore(name),
    });
    store.put(b('alice'), b('1'), 0);
    store.put(b('alice'), b('2'), 1_800_000);
    expect(await store.fetchAsync(b('alice'), 0)).toEqual(b('1'));
    expect(show(await store.rangeAsync({ key: b('alice'), backward: true }))).toEqual([
      'alice@1800000=2',
      'alice@0=1',
    ]);
    expect(() => store.fetch(b('alice'), 0)).toThrow(UnsupportedStoreOperationError);
    expect(() => store.range({})).toThrow(UnsupportedStoreOperationError);
  });

  it('rejects a sync-declared store over an engine without sync reads', async () => {
    const { store } = await openStore({ segmentFactory: (name) => new AsyncOnlyStore(name) });
    expect(() => store.put(b('alice'), b('1'), 0)).toThrow(UnsupportedStoreOperationError);
  });

  it('validates its definition and its inputs, and refuses use while closed', async () => {
    expect(
      () =>
        new SegmentedWindowBytesStore({
          name: 's',
          retentionPeriodMs: 1_000,
          windowSizeMs: 2_000,
          capabilities: { syncReads: true, persistent: false },
          segmentFactory: (name) => new InMemoryBytesStore(name),
        }),
    ).toThrow(InvalidWindowError);
    const { store } = await openStore();
    expect(() => store.put(b('alice'), b('1'), -1)).toThrow(InvalidWindowError);
    await store.close();
    expect(store.isOpen()).toBe(false);
    expect(() => store.put(b('alice'), b('1'), 0)).toThrow(StoreClosedError);
    await expect(store.rangeAsync({})).rejects.toThrow(StoreClosedError);
  });
});
