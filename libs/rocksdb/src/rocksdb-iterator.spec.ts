import { join } from 'node:path';
import type { IteratorOptions } from './options';
import { RocksDB } from './rocksdb';
import { RocksDBClosedError } from './rocksdb-closed-error';
import { WriteBatch } from './write-batch';
import { useTempDirectory } from '../test-support/temp-directory';

const s = (text: string): Buffer => Buffer.from(text);

const root = useTempDirectory('nest-streams-rocksdb-iterator-');

describe('RocksDBIterator', () => {
  let db: RocksDB;

  const keys = (options: IteratorOptions): string[] =>
    [...db.iterator(options)].map((entry) => entry.key.toString());

  beforeEach(async () => {
    db = await RocksDB.open(join(root(), 'db'));
    const batch = new WriteBatch();
    for (const key of ['a', 'b', 'bb', 'c', 'd', 'e']) {
      batch.put(s(key), s(key.toUpperCase()));
    }
    db.write(batch);
  });

  afterEach(async () => {
    await db.close();
  });

  it('iterates forward and reverse within inclusive and exclusive bounds', () => {
    expect(keys({})).toEqual(['a', 'b', 'bb', 'c', 'd', 'e']);
    expect(keys({ reverse: true })).toEqual(['e', 'd', 'c', 'bb', 'b', 'a']);
    expect(keys({ gte: s('b'), lte: s('c') })).toEqual(['b', 'bb', 'c']);
    expect(keys({ gt: s('b'), lt: s('c') })).toEqual(['bb']);
    expect(keys({ gte: s('b'), lte: s('c'), reverse: true })).toEqual(['c', 'bb', 'b']);
    expect(keys({ gt: s('b'), lt: s('d'), reverse: true })).toEqual(['c', 'bb']);
    expect(keys({ lte: s('b') })).toEqual(['a', 'b']);
    expect(keys({ gt: s('d') })).toEqual(['e']);
    expect(keys({ gte: s('x') })).toEqual([]);
    expect(keys({ gte: s('d'), lte: s('b') })).toEqual([]);
    expect(() => db.iterator({ gte: s('a'), gt: s('a') })).toThrow(/not both/);
    expect(() => db.iterator({ lte: s('a'), lt: s('a') })).toThrow(/not both/);
  });

  it('reads chunks, sync and async, and says when it is done', async () => {
    const iterator = db.iterator({ gte: s('b') });
    const first = iterator.nextChunk(2);
    expect(first.entries.map((e) => `${e.key}=${e.value}`)).toEqual(['b=B', 'bb=BB']);
    expect(first.done).toBe(false);
    const second = await iterator.nextChunkAsync(2);
    expect(second.entries.map((e) => e.key.toString())).toEqual(['c', 'd']);
    const last = iterator.nextChunk(10);
    expect(last.entries.map((e) => e.key.toString())).toEqual(['e']);
    expect(last.done).toBe(true);
    expect(iterator.nextChunk(10)).toEqual({ entries: [], done: true });
    iterator.close();
    iterator.close();
    expect(() => iterator.nextChunk(1)).toThrow(RocksDBClosedError);
    // maxBytes stops a chunk early (but always returns at least one entry).
    expect(db.iterator({}).nextChunk(100, 1).entries).toHaveLength(1);
    expect(() => db.iterator({}).nextChunk(0)).toThrow(
      expect.objectContaining({ name: 'RangeError' }),
    );
  });

  it('reads the snapshot taken when it was created', () => {
    const iterator = db.iterator({});
    expect(iterator.nextChunk(1).entries[0].key.toString()).toBe('a');
    db.write(new WriteBatch().delete(s('b')).put(s('ba'), s('new')));
    expect(iterator.nextChunk(10).entries.map((e) => e.key.toString())).toEqual([
      'b',
      'bb',
      'c',
      'd',
      'e',
    ]);
    expect(keys({})).toEqual(['a', 'ba', 'bb', 'c', 'd', 'e']);
  });

  it('refuses a call while an asynchronous chunk is read', async () => {
    const iterator = db.iterator({});
    const pending = iterator.nextChunkAsync(2);
    expect(() => iterator.nextChunk(1)).toThrow(/busy/);
    expect((await pending).entries).toHaveLength(2);
    iterator.close();
  });

  it('closes with its database, even while an asynchronous read runs', async () => {
    const idle = db.iterator({});
    const busy = db.iterator({});
    const reading = busy.nextChunkAsync(3);
    await db.close();
    expect((await reading).entries).toHaveLength(3);
    expect(() => idle.nextChunk(1)).toThrow(RocksDBClosedError);
    expect(() => busy.nextChunk(1)).toThrow(RocksDBClosedError);
    idle.close();
    db = await RocksDB.open(join(root(), 'db'));
  });

  it('stops early in a for-of loop and reads large ranges across chunks', () => {
    const batch = new WriteBatch();
    for (let i = 0; i < 5000; i++) {
      batch.put(s(`k${String(i).padStart(5, '0')}`), s(String(i)));
    }
    db.write(batch);
    for (const entry of db.iterator({ gte: s('k') })) {
      expect(entry.key.toString()).toBe('k00000');
      break;
    }
    const all = [...db.iterator({ gte: s('k'), lt: s('l') })];
    expect(all).toHaveLength(5000);
    expect(all[4999].value.toString()).toBe('4999');
    const reverse = [...db.iterator({ gte: s('k'), lt: s('l'), reverse: true })];
    expect(reverse[0].key.toString()).toBe('k04999');
  });
});
