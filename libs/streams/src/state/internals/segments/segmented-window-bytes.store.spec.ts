import { InvalidWindowError } from '../../../errors/invalid-window.error';
import { StoreClosedError } from '../../../errors/store-closed.error';
import { UnsupportedStoreOperationError } from '../../../errors/unsupported-store-operation.error';
import { Serdes } from '../../../serde/serdes';
import { testStoreContext } from '../../../../test-support/store-test-support';
import type { BytesStoreCapabilities } from '../../bytes-store';
import { Stores } from '../../stores';
import { InMemoryBytesStore } from '../in-memory-bytes.store';
import { SegmentedBytesStore, type SegmentedBytesStoreOptions } from './segmented-bytes.store';
import { windowView, type WindowView } from '../../../../test-support/window-view';
import { WindowKeySchema, type WindowBytesEntry } from './window-key-schema';

const HOUR = 3_600_000;
const SIZE = 300_000;
const b = (text: string): Buffer => Buffer.from(text, 'latin1');

/** An in-memory engine that declares no synchronous reads. */
class AsyncOnlyStore extends InMemoryBytesStore {
  override readonly capabilities: BytesStoreCapabilities = { syncReads: false, persistent: false };
}

async function openStore(overrides: Partial<SegmentedBytesStoreOptions> = {}): Promise<{
  store: SegmentedBytesStore;
  window: WindowView;
  created: Map<string, InMemoryBytesStore>;
}> {
  const created = new Map<string, InMemoryBytesStore>();
  const store = new SegmentedBytesStore(
    {
      name: 'windowed-count-store',
      retentionPeriodMs: HOUR,
      capabilities: { syncReads: true, persistent: false },
      segmentFactory: (name) => {
        const engine = new InMemoryBytesStore(name);
        created.set(name, engine);
        return engine;
      },
      ...overrides,
    },
    { segmentTimestamp: (storeKey) => WindowKeySchema.extractStoreTimestamp(storeKey) },
  );
  await store.open();
  return { store, window: windowView(store), created };
}

/** `key@start=value` per entry, for compact exact assertions. */
const show = (entries: Iterable<WindowBytesEntry>): string[] =>
  [...entries].map((e) => `${e.key.toString('latin1')}@${e.windowStart}=${e.value.toString()}`);

describe('SegmentedWindowBytesStore (in-memory engine)', () => {
  it('writes [key][start][seqnum 0] keys into the segment of the window start', async () => {
    const { store, window, created } = await openStore();
    expect(store.segmentIntervalMs).toBe(1_800_000);
    const written = window.put(b('alice'), b('1'), 300_000);
    expect(written?.toString('hex')).toBe('616c696365' + '00000000000493e0' + '00000000');
    window.put(b('alice'), b('2'), 1_800_000);
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
    expect(window.fetch(b('alice'), 300_000)?.toString()).toBe('1');
    expect(window.fetch(b('alice'), 600_000)).toBeUndefined();
    expect(store.observedStreamTime()).toBe(1_800_000);
  });

  it('fetches one key by window start, ascending and backward, across segments', async () => {
    const { window } = await openStore();
    for (const start of [1_800_000, 0, 300_000, 2_100_000, 600_000]) {
      window.put(b('alice'), b(String(start / SIZE)), start);
    }
    window.put(b('bob'), b('x'), 300_000);
    expect(show(window.range({ key: b('alice'), timeFrom: 300_000, timeTo: 1_800_000 }))).toEqual([
      'alice@300000=1',
      'alice@600000=2',
      'alice@1800000=6',
    ]);
    expect(
      show(window.range({ key: b('alice'), timeFrom: 0, timeTo: 2_100_000, backward: true })),
    ).toEqual([
      'alice@2100000=7',
      'alice@1800000=6',
      'alice@600000=2',
      'alice@300000=1',
      'alice@0=0',
    ]);
    expect(show(window.range({ key: b('alice'), timeFrom: 600_001, timeTo: 1_799_999 }))).toEqual(
      [],
    );
    expect(show(window.range({ key: b('alice'), timeFrom: 10, timeTo: 5 }))).toEqual([]);
  });

  it('keeps keys that extend another key out of that key’s fetch', async () => {
    const { window } = await openStore();
    window.put(b('a'), b('short'), 0);
    window.put(b('a\x00'), b('longer'), 0);
    window.put(b('a\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00'), b('tricky'), 0);
    expect(show(window.range({ key: b('a') }))).toEqual(['a@0=short']);
    expect(window.fetch(b('a'), 0)?.toString()).toBe('short');
  });

  it('fetches key ranges segment by segment, then by key and start, and all windows', async () => {
    const { window } = await openStore();
    window.put(b('c'), b('c0'), 0);
    window.put(b('a'), b('a1'), 1_800_000);
    window.put(b('b'), b('b0'), 0);
    window.put(b('a'), b('a0'), 300_000);
    window.put(b('b'), b('b1'), 1_800_000);
    expect(
      show(window.range({ keyFrom: b('a'), keyTo: b('b'), timeFrom: 0, timeTo: HOUR })),
    ).toEqual(['a@300000=a0', 'b@0=b0', 'a@1800000=a1', 'b@1800000=b1']);
    expect(show(window.range({ keyFrom: b('b'), timeFrom: 0, timeTo: 299_999 }))).toEqual([
      'b@0=b0',
      'c@0=c0',
    ]);
    expect(show(window.range({ keyTo: b('a'), backward: true }))).toEqual([
      'a@1800000=a1',
      'a@300000=a0',
    ]);
    expect(show(window.range({ timeFrom: 300_000, timeTo: 1_800_000 }))).toEqual([
      'a@300000=a0',
      'a@1800000=a1',
      'b@1800000=b1',
    ]);
    expect(show(window.range({}))).toHaveLength(5);
    expect(show(window.range({ keyFrom: b('b'), keyTo: b('a') }))).toEqual([]);
  });

  it('finds a short key at a large start when keyTo extends it (variable-length keys)', async () => {
    const { window } = await openStore({ retentionPeriodMs: Number.MAX_SAFE_INTEGER });
    const start = 2 ** 48; // first timestamp bytes 00 01: above keyTo's next byte 00 00
    window.put(b('a'), b('far'), start);
    expect(show(window.range({ keyFrom: b('a'), keyTo: b('a\x00\x00') }))).toEqual([
      `a@${start}=far`,
    ]);
  });

  it('deletes with null and reports the store key, which is also the changelog key', async () => {
    const { window } = await openStore();
    window.put(b('alice'), b('1'), 0);
    expect(window.put(b('alice'), null, 0)).toEqual(
      WindowKeySchema.toStoreKeyBinary(b('alice'), 0, 0),
    );
    expect(window.fetch(b('alice'), 0)).toBeUndefined();
  });

  it('drops segments past retention and stops returning expired windows', async () => {
    const { store, window, created } = await openStore();
    window.put(b('alice'), b('old'), 0);
    window.put(b('alice'), b('mid'), 1_800_000);
    expect(store.segmentCount()).toBe(2);

    // Stream time 5.4 M: live windows start at >= 5.4 M - 3.6 M + 1 = 1 800 001;
    // segment 0 ([0, 1.8 M)) is dropped, segment 1 stays but its window at 1.8 M has expired.
    window.put(b('alice'), b('new'), 5_400_000);
    expect(store.segmentNames()).toEqual([
      'windowed-count-store.1800000',
      'windowed-count-store.5400000',
    ]);
    expect(show(window.range({ key: b('alice') }))).toEqual(['alice@5400000=new']);
    expect(window.fetch(b('alice'), 0)).toBeUndefined();
    expect(window.fetch(b('alice'), 1_800_000)).toBeUndefined();
    await store.flush();
    expect(created.get('windowed-count-store.0')?.isOpen()).toBe(false);

    // A late write for an expired window is dropped, not written.
    expect(window.put(b('alice'), b('late'), 1_800_000)).toBeUndefined();
    expect(window.put(b('bob'), b('live'), 1_800_001)).toBeDefined();
    expect(store.expiredRecordDrops()).toBe(1);

    // Stream time 7.2 M drops segment 1 as well.
    window.put(b('alice'), b('newer'), 7_200_000);
    expect(store.segmentCount()).toBe(2);
    expect(store.segmentNames()[0]).toBe('windowed-count-store.5400000');
  });

  it('restores a batch, skipping records already past retention', async () => {
    const { store, window } = await openStore();
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
    expect(show(window.range({ key: b('alice') }))).toEqual([
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
    const { store, window, created } = await openStore();
    const key = (name: string, start: number): Buffer =>
      WindowKeySchema.toStoreKeyBinary(b(name), start, 0);
    window.put(b('alice'), b('a0'), 0);
    window.put(b('alice'), b('a1'), 1_800_000);
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
    const written = store.write([
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
    expect(show(window.range({}))).toEqual(['carol@2100000=c1', 'dave@5400000=d3']);
  });

  it('retains duplicates with increasing seqnums when asked (join stores)', async () => {
    const builder = Stores.windowStoreBuilder(
      Stores.inMemoryWindowStore('joins', HOUR, SIZE, true),
      Serdes.Bytes(),
      Serdes.Bytes(),
    );
    const typed = builder.build();
    const context = testStoreContext();
    await typed.init(context);
    for (const v of ['a', 'b', 'c']) typed.put(b('k'), b(v), 0);
    expect([...typed.fetch(b('k'), 0, 0)].map((e) => e.value.toString())).toEqual(['a', 'b', 'c']);
    expect(typed.fetch(b('k'), 0)?.toString()).toBe('c');
    expect(await typed.fetchAsync(b('k'), 0)).toEqual(b('c'));
    typed.put(b('k'), null, 0); // ignored: duplicates are never deleted
    expect([...typed.fetch(b('k'), 0, 0)]).toHaveLength(3);
    // Seqnums 1, 2, 3 in the store keys, which are the changelog keys.
    expect(context.recordCollector.records.map((r) => r.key?.toString('hex'))).toEqual([
      '6b' + '0000000000000000' + '00000001',
      '6b' + '0000000000000000' + '00000002',
      '6b' + '0000000000000000' + '00000003',
    ]);
    await typed.close();
  });

  it('serves the asynchronous reads, and refuses synchronous ones on an async-only engine', async () => {
    const { window } = await openStore({
      capabilities: { syncReads: false, persistent: false },
      segmentFactory: (name) => new AsyncOnlyStore(name),
    });
    window.put(b('alice'), b('1'), 0);
    window.put(b('alice'), b('2'), 1_800_000);
    expect(await window.fetchAsync(b('alice'), 0)).toEqual(b('1'));
    expect(show(await window.rangeAsync({ key: b('alice'), backward: true }))).toEqual([
      'alice@1800000=2',
      'alice@0=1',
    ]);
    expect(() => window.fetch(b('alice'), 0)).toThrow(UnsupportedStoreOperationError);
    expect(() => window.range({})).toThrow(UnsupportedStoreOperationError);
  });

  it('rejects a sync-declared store over an engine without sync reads', async () => {
    const { window } = await openStore({
      segmentFactory: (name) => new AsyncOnlyStore(name),
    });
    expect(() => window.put(b('alice'), b('1'), 0)).toThrow(UnsupportedStoreOperationError);
  });

  it('validates its definition and its inputs, and refuses use while closed', async () => {
    expect(() =>
      Stores.inMemoryWindowStore('s', 1_000, 2_000).get({ directory: '', configs: {} }),
    ).toThrow(InvalidWindowError);
    const { store, window } = await openStore();
    expect(() => window.put(b('alice'), b('1'), -1)).toThrow(InvalidWindowError);
    await store.close();
    expect(store.isOpen()).toBe(false);
    expect(() => window.put(b('alice'), b('1'), 0)).toThrow(StoreClosedError);
    await expect(window.rangeAsync({})).rejects.toThrow(StoreClosedError);
  });
});
