import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Cache } from './cache';
import { RocksDB } from './rocksdb';
import { WriteBatch } from './write-batch';
import { useTempDirectory } from '../test-support/temp-directory';

const KiB = 1024;
const MiB = 1024 * KiB;

const root = useTempDirectory('nest-streams-rocksdb-options-');

/** One small write: 100 keys of 16-byte values, far less than one arena block. */
function writeSmall(db: RocksDB): void {
  const batch = new WriteBatch();
  for (let i = 0; i < 100; i++) {
    batch.put(Buffer.from(`user-${String(i).padStart(6, '0')}`), Buffer.alloc(16, i));
  }
  db.write(batch);
}

/** A value of the OPTIONS file RocksDB wrote in `directory`. */
function writtenOption(directory: string, name: string): string | undefined {
  const file = readdirSync(directory)
    .filter((f) => f.startsWith('OPTIONS-'))
    .sort()
    .pop();
  if (file === undefined) return undefined;
  const match = new RegExp(`^\\s*${name}=(.*)$`, 'm').exec(
    readFileSync(join(directory, file), 'utf8'),
  );
  return match?.[1];
}

describe('RocksDB.open memory options', () => {
  const open: RocksDB[] = [];

  afterEach(async () => {
    for (const db of open.splice(0)) if (db.isOpen) await db.close();
  });

  async function openDb(name: string, options = {}): Promise<RocksDB> {
    const db = await RocksDB.open(join(root(), name), { walEnabled: false, ...options });
    open.push(db);
    return db;
  }

  it('grows an active memtable by arenaBlockSize, RocksDB defaulting to an eighth of the write buffer (at most 1 MiB)', async () => {
    const small = await openDb('small', { arenaBlockSize: 64 * KiB });
    const byDefault = await openDb('default');
    const quarter = await openDb('quarter', { writeBufferSize: 4 * MiB });
    for (const db of [small, byDefault, quarter]) writeSmall(db);
    const active = (db: RocksDB): number =>
      db.getNumericProperty('rocksdb.cur-size-active-mem-table') ?? -1;
    // What one small write costs is one block (plus the memtable's 2 KiB inline block).
    expect(active(small)).toBeGreaterThan(64 * KiB);
    expect(active(small)).toBeLessThan(80 * KiB);
    expect(active(byDefault)).toBeGreaterThan(1 * MiB);
    expect(active(byDefault)).toBeLessThan(1 * MiB + 16 * KiB);
    expect(active(quarter)).toBeGreaterThan(512 * KiB);
    expect(active(quarter)).toBeLessThan(512 * KiB + 16 * KiB);
    expect(writtenOption(join(root(), 'small'), 'arena_block_size')).toBe(String(64 * KiB));
  });

  it('refuses an arena block size under 4 KiB', async () => {
    await expect(openDb('tiny', { arenaBlockSize: 1000 })).rejects.toThrow(
      'arenaBlockSize must be 0 or at least 4096',
    );
  });

  it('charges table readers and file metadata to the block cache when asked', async () => {
    // One table file, then a reopen: opening its table reader is all the cache sees (index and
    // filters stay in the table reader: cacheIndexAndFilterBlocks is off).
    const seed = await openDb('charged');
    writeSmall(seed);
    await seed.flush();
    await seed.close();
    const usageAfterOpen = async (charge: boolean): Promise<number> => {
      const cache = new Cache(16 * MiB);
      const db = await openDb('charged', {
        blockCache: cache,
        chargeTableReadersToCache: charge,
        chargeFileMetadataToCache: charge,
      });
      expect(db.getNumericProperty('rocksdb.num-files-at-level0')).toBe(1);
      const usage = cache.usage();
      await db.close();
      cache.close();
      return usage;
    };
    // Uncharged: only RocksDB's own bookkeeping entry (under 100 bytes).
    expect(await usageAfterOpen(false)).toBeLessThan(4 * KiB);
    // Charges are reserved in dummy entries of 256 KiB each: one for the table reader, one for
    // the file's metadata.
    expect(await usageAfterOpen(true)).toBeGreaterThanOrEqual(2 * 256 * KiB);
  });

  it('refuses charges without a block cache', async () => {
    await expect(
      openDb('uncached', { blockCacheSize: 0, chargeTableReadersToCache: true }),
    ).rejects.toThrow('charging memory to the cache needs a block cache');
  });
});
