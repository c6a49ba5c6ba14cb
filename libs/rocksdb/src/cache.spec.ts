import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Cache } from './cache';
import { RocksDB } from './rocksdb';
import { RocksDBClosedError } from './rocksdb-closed-error';
import { WriteBatch } from './write-batch';
import { WriteBufferManager } from './write-buffer-manager';
import { useTempDirectory } from '../test-support/temp-directory';

const MiB = 1024 * 1024;

function fill(db: RocksDB, prefix: string, count: number, size: number): void {
  const batch = new WriteBatch();
  for (let i = 0; i < count; i++) {
    batch.put(Buffer.from(`${prefix}${String(i).padStart(8, '0')}`), Buffer.alloc(size, i));
  }
  db.write(batch);
}

const root = useTempDirectory('nest-streams-rocksdb-cache-');

describe('Cache and WriteBufferManager shared by databases', () => {
  let dbs: RocksDB[];

  beforeEach(() => {
    dbs = [];
  });

  afterEach(async () => {
    for (const db of dbs) {
      await db.close();
    }
  });

  const open = async (name: string, options = {}): Promise<RocksDB> => {
    const db = await RocksDB.open(join(root(), name), options);
    dbs.push(db);
    return db;
  };

  it('shares one block cache and one memtable budget between two databases', async () => {
    const cache = new Cache(16 * MiB);
    const manager = new WriteBufferManager(8 * MiB, cache);
    expect(manager.costToCache()).toBe(true);
    expect(manager.bufferSize()).toBe(8 * MiB);
    const options = {
      blockCache: cache,
      writeBufferManager: manager,
      cacheIndexAndFilterBlocks: true,
    };
    const first = await open('first', options);
    const second = await open('second', options);
    expect(first.getNumericProperty('rocksdb.block-cache-capacity')).toBe(16 * MiB);
    expect(second.getNumericProperty('rocksdb.block-cache-capacity')).toBe(16 * MiB);

    fill(first, 'a', 2000, 100);
    fill(second, 'b', 2000, 100);
    const memtables =
      (first.getNumericProperty('rocksdb.cur-size-all-mem-tables') ?? 0) +
      (second.getNumericProperty('rocksdb.cur-size-all-mem-tables') ?? 0);
    expect(manager.memoryUsage()).toBeGreaterThan(400_000);
    expect(manager.memoryUsage()).toBe(memtables);
    // The manager charges its memtables to the cache (in dummy entries of 256 KiB).
    expect(cache.usage()).toBeGreaterThanOrEqual(manager.memoryUsage());
  });

  it('puts the blocks any database reads into the one shared cache', async () => {
    const cache = new Cache(16 * MiB);
    const first = await open('first', { blockCache: cache });
    const second = await open('second', { blockCache: cache });
    fill(first, 'a', 2000, 100);
    await first.flush();
    const before = cache.usage();
    for (let i = 0; i < 2000; i += 50) {
      first.get(Buffer.from(`a${String(i).padStart(8, '0')}`));
    }
    // 40 reads of distinct 4 KiB blocks, reported by the second database as well.
    expect(cache.usage()).toBeGreaterThan(before + 40 * 4096);
    expect(second.getNumericProperty('rocksdb.block-cache-usage')).toBe(cache.usage());
  });

  it('flushes memtables when the shared budget is exceeded, without stalling writes', async () => {
    const manager = new WriteBufferManager(1 * MiB);
    const options = { writeBufferManager: manager, writeBufferSize: 64 * MiB };
    const first = await open('first', options);
    const second = await open('second', options);
    for (let round = 0; round < 8; round++) {
      fill(first, `r${round}-`, 1000, 500);
      fill(second, `r${round}-`, 1000, 500);
    }
    const sst = async (): Promise<number> => {
      for (let i = 0; i < 100; i++) {
        const total =
          (first.getNumericProperty('rocksdb.total-sst-files-size') ?? 0) +
          (second.getNumericProperty('rocksdb.total-sst-files-size') ?? 0);
        if (total > 0) {
          return total;
        }
        await sleep(20);
      }
      return 0;
    };
    // 8 MB written against 64 MB memtables: only the 1 MB budget can have flushed them.
    expect(await sst()).toBeGreaterThan(0);
  });

  it('keeps a closed handle’s memory for the databases still using it', async () => {
    const cache = new Cache(8 * MiB, { type: 'hyperClock', estimatedEntryCharge: 4096 });
    const manager = new WriteBufferManager(4 * MiB, cache);
    const db = await open('db', { blockCache: cache, writeBufferManager: manager });
    cache.close();
    manager.close();
    cache.close();
    expect(() => cache.usage()).toThrow(RocksDBClosedError);
    expect(() => manager.memoryUsage()).toThrow(RocksDBClosedError);
    fill(db, 'k', 100, 10);
    await db.flush();
    expect(db.get(Buffer.from('k00000001'))?.length).toBe(10);
    expect(db.getNumericProperty('rocksdb.block-cache-capacity')).toBe(8 * MiB);
    await expect(RocksDB.open(join(root(), 'other'), { blockCache: cache })).rejects.toBeInstanceOf(
      RocksDBClosedError,
    );
  });

  it('reports and changes the capacity; refuses bad options', () => {
    const cache = new Cache(1 * MiB, { highPriPoolRatio: 0.2, strictCapacityLimit: false });
    expect(cache.capacity()).toBe(1 * MiB);
    cache.setCapacity(2 * MiB);
    expect(cache.capacity()).toBe(2 * MiB);
    expect(cache.pinnedUsage()).toBe(0);
    expect(() => new Cache(-1)).toThrow(expect.objectContaining({ name: 'RangeError' }));
    expect(() => new Cache(1, { type: 'fifo' as 'lru' })).toThrow(
      expect.objectContaining({ name: 'TypeError' }),
    );
    expect(() => new Cache(1, { highPriPoolRatio: 2 })).toThrow(
      expect.objectContaining({ name: 'RangeError' }),
    );
  });
});
