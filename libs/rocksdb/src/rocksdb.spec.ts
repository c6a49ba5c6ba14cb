import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ADDON_PATH } from './internals/native';
import { RocksDB } from './rocksdb';
import { RocksDBClosedError } from './rocksdb-closed-error';
import { RocksDBError } from './rocksdb-error';
import { WriteBatch } from './write-batch';
import { useTempDirectory } from '../test-support/temp-directory';

const s = (text: string): Buffer => Buffer.from(text);

/** The start of a child process's script: the raw addon, and `put(k, v)` encoding a batch. */
const CHILD_PRELUDE = `
  const addon = { exports: {} };
  process.dlopen(addon, ${JSON.stringify(ADDON_PATH)});
  const { Cache, Database } = addon.exports;
  const put = (k, v) => {
    const kb = Buffer.from(k), vb = Buffer.from(v), head = Buffer.alloc(5), len = Buffer.alloc(4);
    head[0] = 1; head.writeUInt32LE(kb.length, 1); len.writeUInt32LE(vb.length);
    return Buffer.concat([head, kb, len, vb]);
  };`;
const str = (value: Buffer | undefined): string | undefined => value?.toString();

const root = useTempDirectory('nest-streams-rocksdb-');

describe('RocksDB', () => {
  let open: RocksDB[];

  const openDb = async (name = 'db', options = {}): Promise<RocksDB> => {
    const db = await RocksDB.open(join(root(), name), options);
    open.push(db);
    return db;
  };

  beforeEach(() => {
    open = [];
  });

  afterEach(async () => {
    for (const db of open) {
      await db.close();
    }
  });

  it('writes batches atomically and reads them back, sync and async', async () => {
    const db = await openDb();
    const batch = new WriteBatch().put(s('a'), s('1')).put(s('b'), s('2')).put(s('c'), s('3'));
    batch.delete(s('b')).put(s('d'), Buffer.alloc(0));
    db.write(batch);
    expect(str(db.get(s('a')))).toBe('1');
    expect(db.get(s('b'))).toBeUndefined();
    expect(db.get(s('d'))?.length).toBe(0);
    expect(db.getMany([s('c'), s('x'), s('a'), s('c')]).map(str)).toEqual([
      '3',
      undefined,
      '1',
      '3',
    ]);
    expect(db.getMany([])).toEqual([]);
    expect(str(await db.getAsync(s('c')))).toBe('3');
    expect(await db.getAsync(s('b'))).toBeUndefined();
    expect((await db.getManyAsync([s('x'), s('a')])).map(str)).toEqual([undefined, '1']);
    await db.writeAsync(new WriteBatch().put(s('e'), s('5')).deleteRange(s('a'), s('c')));
    expect(db.getMany([s('a'), s('c'), s('e')]).map(str)).toEqual([undefined, '3', '5']);
    db.put(s('f'), s('6'));
    db.delete(s('e'));
    expect(db.getMany([s('e'), s('f')]).map(str)).toEqual([undefined, '6']);
  });

  it('applies a batch in key order with the result of batch order: the last write of a key wins', async () => {
    // Keys out of order, written several times, deleted and written again, and the reverse.
    const batch = (): WriteBatch =>
      new WriteBatch()
        .put(s('m'), s('m1'))
        .put(s('c'), s('c1'))
        .put(s('x'), s('x1'))
        .put(s('c'), s('c2'))
        .delete(s('m'))
        .put(s('a'), s('a1'))
        .delete(s('x'))
        .put(s('x'), s('x2'))
        .put(s('c'), s('c3'))
        .put(s('q'), s('q1'))
        .delete(s('q'));
    const keys = ['a', 'c', 'm', 'q', 'x'].map(s);
    const inOrder = await openDb('in-order');
    inOrder.write(batch());
    const sync = await openDb('sorted-sync');
    sync.write(batch(), { orderByKey: true });
    const async = await openDb('sorted-async');
    const reused = batch();
    const written = async.writeAsync(reused, { orderByKey: true });
    reused.clear();
    reused.put(s('a'), s('changed after the call')); // the call copied the batch
    await written;

    const expected = ['a1', 'c3', undefined, undefined, 'x2'];
    expect(inOrder.getMany(keys).map(str)).toEqual(expected);
    expect(sync.getMany(keys).map(str)).toEqual(expected);
    expect(async.getMany(keys).map(str)).toEqual(expected);
    // Only the last write of each key is applied: one entry per key that has a value.
    expect(async.getProperty('rocksdb.num-entries-active-mem-table')).toBe('5');
    expect(inOrder.getProperty('rocksdb.num-entries-active-mem-table')).toBe('11');

    const ranged = new WriteBatch().put(s('b'), s('1')).deleteRange(s('a'), s('z'));
    expect(() => sync.write(ranged, { orderByKey: true })).toThrow(RocksDBError);
    await expect(async.writeAsync(ranged, { orderByKey: true })).rejects.toThrow(
      'a batch with a deleteRange cannot be reordered',
    );
    expect(sync.get(s('b'))).toBeUndefined(); // nothing of a refused batch is written
  });

  it('reports RocksDB properties', async () => {
    const db = await openDb('props', { blockCacheSize: 8 << 20, writeBufferSize: 1 << 20 });
    const batch = new WriteBatch();
    for (let i = 0; i < 1000; i++) {
      batch.put(s(`k${i}`), Buffer.alloc(100, i));
    }
    db.write(batch);
    expect(db.getNumericProperty('rocksdb.estimate-num-keys')).toBe(1000);
    expect(db.getNumericProperty('rocksdb.cur-size-all-mem-tables')).toBeGreaterThan(100_000);
    expect(db.getNumericProperty('rocksdb.block-cache-capacity')).toBe(8 << 20);
    expect(db.getNumericProperty('rocksdb.block-cache-usage')).toBeGreaterThanOrEqual(0);
    expect(db.getProperty('rocksdb.no-such-property')).toBeUndefined();
    await db.flush();
    expect(db.getNumericProperty('rocksdb.cur-size-all-mem-tables')).toBeLessThan(100_000);
    expect(db.getNumericProperty('rocksdb.total-sst-files-size')).toBeGreaterThan(100_000);
    await db.compactRange();
    await db.compactRange(s('k1'), s('k5'));
    expect(str(db.get(s('k999')))).toBe(Buffer.alloc(100, 999).toString());
  });

  it('reports RocksDB statistics when opened with them', async () => {
    const plain = await openDb('no-stats');
    expect(plain.statistics()).toBeUndefined();
    const db = await openDb('stats', { statistics: true, blockCacheSize: 8 << 20 });
    const batch = new WriteBatch();
    for (let i = 0; i < 1000; i++) batch.put(s(`k${i}`), Buffer.alloc(100, i));
    db.write(batch);
    await db.flush();
    expect(str(db.get(s('k1')))).toBe(Buffer.alloc(100, 1).toString()); // a data block missed
    expect(str(db.get(s('k10')))).toBe(Buffer.alloc(100, 10).toString()); // the same block, hit
    const tickers = db.statistics()!;
    expect(tickers['rocksdb.number.keys.written']).toBe(1000);
    expect(tickers['rocksdb.number.keys.read']).toBe(2);
    expect(tickers['rocksdb.bytes.written']).toBeGreaterThan(1000 * 100);
    expect(tickers['rocksdb.flush.write.bytes']).toBeGreaterThan(1000 * 100);
    expect(tickers['rocksdb.block.cache.data.miss']).toBe(1);
    expect(tickers['rocksdb.block.cache.data.hit']).toBe(1);
    expect(tickers['rocksdb.stall.micros']).toBe(0);
    await db.close();
    expect(() => db.statistics()).toThrow(RocksDBClosedError);
  });

  it('applies the options it is given, maxWriteBufferNumber included', async () => {
    const db = await openDb('opts', {
      maxWriteBufferNumber: 5,
      writeBufferSize: 2 << 20,
      compactionStyle: 'level',
      compression: 'lz4',
      blockSize: 16 << 10,
      bloomFilterBitsPerKey: 0,
      maxOpenFiles: 100,
      maxBackgroundJobs: 3,
    });
    await db.close();
    const file = readdirSync(join(root(), 'opts'))
      .filter((name) => name.startsWith('OPTIONS-'))
      .sort()
      .pop();
    const text = readFileSync(join(root(), 'opts', file ?? 'missing'), 'utf8');
    expect(text).toContain('max_write_buffer_number=5');
    expect(text).toContain(`write_buffer_size=${2 << 20}`);
    expect(text).toContain('compaction_style=kCompactionStyleLevel');
    expect(text).toContain('compression=kLZ4Compression');
    expect(text).toContain(`block_size=${16 << 10}`);
    expect(text).toContain('filter_policy=nullptr');
    expect(text).toContain('max_open_files=100');
    expect(text).toContain('max_background_jobs=3');
    expect(text).toContain('max_write_buffer_size_to_maintain=0');
  });

  it('throws RocksDBError with the status when the directory is locked', async () => {
    await openDb('locked');
    const failure = RocksDB.open(join(root(), 'locked'));
    await expect(failure).rejects.toBeInstanceOf(RocksDBError);
    await expect(failure).rejects.toMatchObject({ status: 'IOError', message: /lock/i });
  });

  it('refuses bad arguments with TypeError and RangeError', async () => {
    const db = await openDb();
    // Errors made by the addon come from the main realm, not Jest's: match them by name.
    const typeError = (message: RegExp) =>
      expect.objectContaining({ name: 'TypeError', message: expect.stringMatching(message) });
    expect(() => db.get('a' as unknown as Buffer)).toThrow(typeError(/key must be a Buffer/));
    expect(() => db.getMany([s('a'), 1 as unknown as Buffer])).toThrow(typeError(/key/));
    expect(() => new WriteBatch().put(s('a'), 'b' as unknown as Buffer)).toThrow(TypeError);
    expect(() =>
      db.write(new WriteBatch().put(s('a'), s('b')), { sync: true, disableWAL: true }),
    ).toThrow(typeError(/sync needs the WAL/));
    await expect(
      RocksDB.open(join(root(), 'bad'), { maxWriteBufferNumber: 1 }),
    ).rejects.toMatchObject({
      name: 'RangeError',
      message: expect.stringContaining('maxWriteBufferNumber'),
    });
    await expect(
      RocksDB.open(join(root(), 'bad'), { compression: 'brotli' as 'zstd' }),
    ).rejects.toMatchObject({ name: 'TypeError', message: expect.stringContaining('compression') });
  });

  it('throws RocksDBClosedError after close, and closes idempotently', async () => {
    const db = await openDb();
    db.put(s('a'), s('1'));
    const iterator = db.iterator();
    const closing = db.close();
    expect(db.isOpen).toBe(false);
    const calls: (() => unknown)[] = [
      () => db.get(s('a')),
      () => db.getMany([s('a')]),
      () => db.put(s('a'), s('2')),
      () => db.iterator(),
      () => db.getProperty('rocksdb.estimate-num-keys'),
      () => iterator.nextChunk(10),
    ];
    for (const call of calls) {
      expect(call).toThrow(RocksDBClosedError);
    }
    await expect(db.getAsync(s('a'))).rejects.toBeInstanceOf(RocksDBClosedError);
    await expect(db.flush()).rejects.toBeInstanceOf(RocksDBClosedError);
    await expect(db.checkpoint(join(root(), 'cp'))).rejects.toBeInstanceOf(RocksDBClosedError);
    await closing;
    await db.close();
    iterator.close();
    const reopened = await openDb();
    expect(str(reopened.get(s('a')))).toBe('1');
  });

  it('waits for running asynchronous calls before closing', async () => {
    const db = await openDb();
    const batch = new WriteBatch();
    for (let i = 0; i < 5000; i++) {
      batch.put(s(`k${i}`), Buffer.alloc(50, 1));
    }
    const written = db.writeAsync(batch);
    const read = db.getManyAsync([s('k1'), s('k4999')]);
    await db.close();
    await expect(written).resolves.toBeUndefined();
    expect((await read).length).toBe(2);
  });

  it('makes a checkpoint that holds writes made without the WAL', async () => {
    const db = await openDb('source', { walEnabled: false });
    db.write(new WriteBatch().put(s('a'), s('1')));
    await db.checkpoint(join(root(), 'copy'));
    const copy = await openDb('copy');
    expect(str(copy.get(s('a')))).toBe('1');
    await expect(db.checkpoint(join(root(), 'copy'))).rejects.toBeInstanceOf(RocksDBError);
  });

  it('destroys a closed database', async () => {
    const db = await openDb('gone');
    db.put(s('a'), s('1'));
    await db.close();
    await RocksDB.destroy(join(root(), 'gone'));
    expect(existsSync(join(root(), 'gone', 'CURRENT'))).toBe(false);
    const fresh = await openDb('gone');
    expect(fresh.get(s('a'))).toBeUndefined();
  });

  it('closes a database that is garbage-collected, and exits cleanly with open ones', () => {
    const script = `${CHILD_PRELUDE}
      const dir = ${JSON.stringify(root())};
      (async () => {
        {
          let db = new Database();
          await db.open(dir + '/a', { blockCache: new Cache({ capacity: 1 << 20 }) });
          db.write(put('a', '1'));
          let iterator = db.iterator({});
          iterator.nextChunk(1);
          db = undefined;
          iterator = undefined;
        }
        for (let i = 0; i < 5; i++) {
          global.gc();
          await new Promise((resolve) => setImmediate(resolve));
        }
        const again = new Database();
        await again.open(dir + '/a', {}); // the lock is free: the finalizer closed the first
        console.log('reopened ' + again.get(Buffer.from('a')));
        const left = new Database();
        await left.open(dir + '/b', { walEnabled: false });
        left.write(put('b', '2'));
        left.iterator({}).nextChunk(1);
        left.iterator({ reverse: true }).nextChunkAsync(1);
        process.exit(0); // databases, iterators and a read still open
      })().catch((error) => { console.error(error); process.exit(2); });`;
    const child = spawnSync(process.execPath, ['--expose-gc', '-e', script], { encoding: 'utf8' });
    expect(child.stderr).toBe('');
    expect(child.stdout.trim()).toBe('reopened 1');
    expect(child.status).toBe(0);
  });

  describe('the WAL, across a crash (SIGKILL, no close)', () => {
    /** Runs a child that writes `a` (then flushes), then `b`, per `mode`, and is killed. */
    const crashAfterWrites = (directory: string, mode: 'wal-off' | 'wal-on'): void => {
      const script = `${CHILD_PRELUDE}
        (async () => {
          const db = new Database();
          await db.open(${JSON.stringify(directory)}, { walEnabled: ${mode === 'wal-on'} });
          db.write(put('a', 'flushed'));
          await db.flush({ wait: true });
          db.write(put('b', 'not flushed'));
          process.kill(process.pid, 'SIGKILL');
        })();`;
      const child = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
      expect(child.signal).toBe('SIGKILL');
    };

    it('loses WAL-off writes that were not flushed, keeps flushed ones', async () => {
      crashAfterWrites(join(root(), 'crash'), 'wal-off');
      const db = await openDb('crash');
      expect(str(db.get(s('a')))).toBe('flushed');
      expect(db.get(s('b'))).toBeUndefined();
    });

    it('replays WAL-on writes that were not flushed', async () => {
      crashAfterWrites(join(root(), 'crash'), 'wal-on');
      const db = await openDb('crash');
      expect(str(db.get(s('a')))).toBe('flushed');
      expect(str(db.get(s('b')))).toBe('not flushed');
    });

    it('keeps WAL-off writes over a clean close, unless told to avoid that flush', async () => {
      const kept = await openDb('clean', { walEnabled: false });
      kept.put(s('a'), s('1'));
      await kept.close();
      const reopened = await openDb('clean');
      expect(str(reopened.get(s('a')))).toBe('1');
      const lost = await openDb('avoid', { walEnabled: false, avoidFlushDuringShutdown: true });
      lost.put(s('a'), s('1'));
      lost.put(s('b'), s('2'), { disableWAL: false });
      await lost.close();
      const after = await openDb('avoid');
      expect(after.getMany([s('a'), s('b')]).map(str)).toEqual([undefined, '2']);
    });
  });
});
