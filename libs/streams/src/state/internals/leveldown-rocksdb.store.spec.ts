import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RocksDBConfigError } from '../../errors/rocksdb-config.error';
import { describeBytesStoreContract } from './bytes-store.contract';
import { loadedRocksDBBindings } from './rocksdb-binding-guard';
import { LeveldownRocksDBStore } from './leveldown-rocksdb.store';

/**
 * The two RocksDB bindings corrupt each other when loaded in one process (see
 * `assertSingleRocksDBBinding`); when an earlier spec in this Jest process loaded the other
 * one, these tests are skipped rather than refused. Run this file alone to cover it.
 */
const skipReason = loadedRocksDBBindings().includes('@nxtedition/rocksdb')
  ? 'the @nxtedition/rocksdb binding is already loaded in this Jest process; run this spec file on its own'
  : undefined;
const describeAlone = skipReason === undefined ? describe : describe.skip;

describeBytesStoreContract(
  'LeveldownRocksDBStore',
  (name, directory) => new LeveldownRocksDBStore({ name, directory, maxPendingWrites: 700 }),
  { skipReason },
);

const key = (i: number): Buffer => Buffer.from(`k${String(i).padStart(5, '0')}`);

describeAlone('LeveldownRocksDBStore', () => {
  let root: string;

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'leveldown-rocksdb-'));
  });

  afterEach(() => {
    rmSync(root, { recursive: true, force: true });
  });

  it('buffers writes until flush, and its reads see them before and after', async () => {
    const directory = join(root, 'buffered');
    const store = new LeveldownRocksDBStore({ name: 'buffered', directory });
    await store.open();
    store.put(key(1), Buffer.from('a'));
    store.put(key(2), Buffer.from('b'));
    await store.flush();
    store.put(key(1), null); // a pending delete of a flushed key
    store.put(key(3), Buffer.from('c'));
    expect(store.metrics().estimatedNumKeys).toBe(2);
    expect(await store.getAsync(key(1))).toBeUndefined();
    expect((await store.getManyAsync([key(3), key(2)])).map(String)).toEqual(['c', 'b']);
    expect(
      (await store.rangeAsync(undefined, undefined, true)).map((e) => e.key.toString()),
    ).toEqual(['k00003', 'k00002']);
    await store.flush();
    await store.close();
    await store.open();
    expect((await store.rangeAsync(undefined, undefined)).map((e) => e.key.toString())).toEqual([
      'k00002',
      'k00003',
    ]);
    await store.close();
  });

  it('writes in the background past maxPendingWrites, in order', async () => {
    const store = new LeveldownRocksDBStore({
      name: 'behind',
      directory: join(root, 'behind'),
      maxPendingWrites: 100,
    });
    await store.open();
    for (let round = 0; round < 5; round++) {
      store.putAll(
        Array.from({ length: 250 }, (_, i) => ({ key: key(i), value: Buffer.from(`${round}`) })),
      );
      // Reads issued while batches are in flight still see the newest value.
      expect((await store.getAsync(key(7)))?.toString()).toBe(`${round}`);
    }
    await store.flush();
    const entries = await store.rangeAsync(undefined, undefined);
    expect(entries).toHaveLength(250);
    expect(entries.every((entry) => entry.value.toString() === '4')).toBe(true);
    await store.close();
  });

  it("opens with Kafka Streams' defaults where the binding can apply them", async () => {
    const directory = join(root, 'defaults');
    const store = new LeveldownRocksDBStore({ name: 'defaults', directory });
    await store.open();
    expect(store.metrics().blockCacheCapacityBytes).toBe(50 * 1024 * 1024);
    expect(store.appliedOptions).toMatchObject({ compactionStyle: 'level', walEnabled: true });
    await store.close();
    const file = readdirSync(directory)
      .filter((name) => name.startsWith('OPTIONS-'))
      .sort()
      .pop();
    const written = readFileSync(join(directory, file ?? 'missing'), 'utf8');
    expect(written).toMatch(/\bwrite_buffer_size=16777216\b/);
    expect(written).toMatch(/\bcompression=kNoCompression\b/);
    expect(written).toMatch(/\bmax_open_files=-1\b/);
    expect(written).toMatch(/\bblock_size=4096\b/);
  });

  it('rejects options the binding cannot apply', async () => {
    const store = new LeveldownRocksDBStore({
      name: 'impossible',
      directory: join(root, 'impossible'),
      configSetter: {
        setConfig(_name, options) {
          options.compactionStyle = 'universal';
          options.compression = 'zstd';
          options.bloomFilterBitsPerKey = 16;
          options.blockCacheSize = 5 * 1024 ** 3;
        },
      },
    });
    const failure = store.open();
    await expect(failure).rejects.toBeInstanceOf(RocksDBConfigError);
    await expect(failure).rejects.toMatchObject({
      problems: [
        expect.stringContaining('blockCacheSize'),
        expect.stringContaining('compression=zstd'),
        expect.stringContaining('bloomFilterBitsPerKey=16'),
        expect.stringContaining('compactionStyle=universal'),
      ],
    });
  });
});
