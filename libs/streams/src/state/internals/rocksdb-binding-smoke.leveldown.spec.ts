// The `rocksdb` binding itself, before any engine wraps it (runs under jest.leveldown.config.js).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import rocksdb from 'rocksdb';

type Db = ReturnType<typeof rocksdb>;
const done = (fn: (cb: (err: Error | undefined) => void) => void): Promise<void> =>
  new Promise((resolve, reject) => fn((err) => (err ? reject(err) : resolve())));
const value = <T>(fn: (cb: (err: Error | undefined, value: T) => void) => void): Promise<T> =>
  new Promise((resolve, reject) => fn((err, v) => (err ? reject(err) : resolve(v))));

async function boundedRange(db: Db, from: string, to: string): Promise<string[]> {
  const it = db.iterator({ gte: Buffer.from(from), lte: Buffer.from(to) });
  const entries: string[] = [];
  for (;;) {
    const entry = await new Promise<[Buffer, Buffer] | undefined>((resolve, reject) =>
      it.next((err, k, v) => (err ? reject(err) : resolve(k && v ? [k, v] : undefined))),
    );
    if (!entry) break;
    entries.push(`${entry[0].toString()}=${entry[1].toString()}`);
  }
  await done((cb) => it.end(cb));
  return entries;
}

describe('RocksDB binding smoke test', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rocksdb-smoke-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes a batch, multi-gets, iterates a bounded range, and reads back after reopen', async () => {
    let db = rocksdb(dir);
    await done((cb) => db.open({ createIfMissing: true }, cb));
    const ops = Array.from({ length: 100 }, (_, i) => ({
      type: 'put' as const,
      key: Buffer.from(`key-${String(i).padStart(3, '0')}`),
      value: Buffer.from(`value-${i}`),
    }));
    await done((cb) => db.batch(ops, cb));

    const many = await value<(Buffer | undefined)[]>((cb) =>
      db.getMany([Buffer.from('key-007'), Buffer.from('nope'), Buffer.from('key-099')], cb),
    );
    expect(many.map((v) => v?.toString())).toEqual(['value-7', undefined, 'value-99']);

    const expected = [10, 11, 12, 13, 14].map((i) => `key-0${i}=value-${i}`);
    expect(await boundedRange(db, 'key-010', 'key-014')).toEqual(expected);

    await done((cb) => db.close(cb));
    db = rocksdb(dir);
    await done((cb) => db.open({ createIfMissing: false }, cb));
    expect((await value<Buffer>((cb) => db.get(Buffer.from('key-042'), cb))).toString()).toBe(
      'value-42',
    );
    expect(await boundedRange(db, 'key-010', 'key-014')).toEqual(expected);
    await done((cb) => db.close(cb));
  });
});
