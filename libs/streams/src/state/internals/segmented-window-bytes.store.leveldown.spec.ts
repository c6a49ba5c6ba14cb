/**
 * The window store over the `rocksdb` binding (asynchronous reads only), in its own file: the
 * two RocksDB bindings each bundle RocksDB, and loading both into one process crashes it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LeveldownRocksDBStore } from './leveldown-rocksdb.store';
import { SegmentedWindowBytesStore, type WindowBytesEntry } from './segmented-window-bytes.store';

const HOUR = 3_600_000;
const b = (text: string): Buffer => Buffer.from(text);
const show = (entries: Iterable<WindowBytesEntry>): string[] =>
  [...entries].map((e) => `${e.key.toString()}@${e.windowStart}=${e.value.toString()}`);

describe('SegmentedWindowBytesStore on RocksDB (rocksdb, asynchronous reads only)', () => {
  let root: string;

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'segmented-window-async-'));
  });

  afterEach(() => {
    rmSync(root, { recursive: true, force: true });
  });

  it('serves fetches asynchronously across segments and restarts', async () => {
    const open = async (): Promise<SegmentedWindowBytesStore> => {
      const store = new SegmentedWindowBytesStore({
        name: 'windowed-count-store',
        retentionPeriodMs: HOUR,
        windowSizeMs: 300_000,
        capabilities: { syncReads: false, persistent: true },
        segmentFactory: (name) => new LeveldownRocksDBStore({ name, directory: join(root, name) }),
        listSegmentNames: () => readdir(root),
      });
      await store.open();
      return store;
    };
    const store = await open();
    store.put(b('alice'), b('1'), 0);
    store.put(b('alice'), b('7'), 1_800_000);
    expect(await store.fetchAsync(b('alice'), 0)).toEqual(b('1'));
    await store.flush();
    await store.close();

    const reopened = await open();
    expect(show(await reopened.rangeAsync({ key: b('alice'), backward: true }))).toEqual([
      'alice@1800000=7',
      'alice@0=1',
    ]);
    await reopened.close();
  });
});
