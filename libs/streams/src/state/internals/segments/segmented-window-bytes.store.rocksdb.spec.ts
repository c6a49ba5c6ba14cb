import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BytesStore, BytesStoreCapabilities } from '../../bytes-store';
import { NativeRocksDBStore } from '../rocksdb/native-rocksdb.store';
import { windowView } from '../../../../test-support/window-view';
import { SegmentedBytesStore } from './segmented-bytes.store';
import { WindowKeySchema, type WindowBytesEntry } from './window-key-schema';

const HOUR = 3_600_000;
const b = (text: string): Buffer => Buffer.from(text);
const show = (entries: Iterable<WindowBytesEntry>): string[] =>
  [...entries].map((e) => `${e.key.toString()}@${e.windowStart}=${e.value.toString()}`);

/** A window store whose segments are RocksDB databases in `<root>/<segment name>`. */
function windowStore(
  root: string,
  engine: (name: string, directory: string) => BytesStore,
  capabilities: BytesStoreCapabilities,
): SegmentedBytesStore {
  return new SegmentedBytesStore(
    {
      name: 'windowed-count-store',
      retentionPeriodMs: HOUR,
      capabilities,
      segmentFactory: (name) => engine(name, join(root, name)),
      listSegmentNames: () => readdir(root),
    },
    { segmentTimestamp: (storeKey) => WindowKeySchema.extractStoreTimestamp(storeKey) },
  );
}

describe('SegmentedWindowBytesStore on RocksDB (@nest-streams/rocksdb)', () => {
  let root: string;
  const rocksdb = (root: string): SegmentedBytesStore =>
    windowStore(root, (name, directory) => new NativeRocksDBStore({ name, directory }), {
      syncReads: true,
      persistent: true,
    });

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'segmented-window-'));
  });

  afterEach(() => {
    rmSync(root, { recursive: true, force: true });
  });

  it('keeps one database per segment and reopens them after a restart', async () => {
    const store = rocksdb(root);
    await store.open();
    windowView(store).put(b('alice'), b('1'), 0);
    windowView(store).put(b('alice'), b('2'), 300_000);
    windowView(store).put(b('alice'), b('7'), 1_800_000);
    windowView(store).put(b('bob'), b('1'), 300_000);
    // Readable at once, even while the new segments' databases are still opening.
    expect(show(windowView(store).range({ key: b('alice') }))).toEqual([
      'alice@0=1',
      'alice@300000=2',
      'alice@1800000=7',
    ]);
    await store.flush();
    await store.close();
    expect(readdirSync(root).sort()).toEqual([
      'windowed-count-store.0',
      'windowed-count-store.1800000',
    ]);

    const reopened = rocksdb(root);
    await reopened.open();
    expect(reopened.segmentCount()).toBe(2);
    expect(reopened.observedStreamTime()).toBe(-1);
    expect(windowView(reopened).fetch(b('bob'), 300_000)?.toString()).toBe('1');
    expect(
      show(windowView(reopened).range({ keyFrom: b('a'), keyTo: b('bob'), backward: true })),
    ).toEqual(['alice@1800000=7', 'bob@300000=1', 'alice@300000=2', 'alice@0=1']);
    await reopened.close();
  });

  it('deletes the directories of dropped segments', async () => {
    const store = rocksdb(root);
    await store.open();
    windowView(store).put(b('alice'), b('old'), 0);
    await store.flush();
    windowView(store).put(b('alice'), b('new'), 5_400_000);
    await store.flush();
    expect(existsSync(join(root, 'windowed-count-store.0'))).toBe(false);
    expect(readdirSync(root)).toEqual(['windowed-count-store.5400000']);
    expect(show(windowView(store).range({}))).toEqual(['alice@5400000=new']);
    await store.close();
  });

  it('restores a changelog batch, skipping expired records', async () => {
    const store = rocksdb(root);
    await store.open();
    const key = (start: number): Buffer => WindowKeySchema.toStoreKeyBinary(b('alice'), start, 0);
    expect(
      store.restoreAll([
        { key: key(0), value: b('0') },
        { key: key(3_900_000), value: b('13') },
        { key: key(5_400_000), value: b('18') },
      ]),
    ).toEqual({ applied: 2, skippedExpired: 1 });
    await store.flush();
    expect(show(windowView(store).range({ key: b('alice') }))).toEqual([
      'alice@3900000=13',
      'alice@5400000=18',
    ]);
    expect(readdirSync(root).sort()).toEqual([
      'windowed-count-store.3600000',
      'windowed-count-store.5400000',
    ]);
    await store.close();
  });
});
