import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { RocksDB } from './rocksdb';
import { RocksDBClosedError } from './rocksdb-closed-error';
import { RocksDBError } from './rocksdb-error';
import { SstFileWriter } from './sst-file-writer';
import { WriteBatch } from './write-batch';
import { useTempDirectory } from '../test-support/temp-directory';

const s = (text: string): Buffer => Buffer.from(text);

const root = useTempDirectory('nest-streams-rocksdb-sst-');

describe('SstFileWriter and ingestExternalFiles', () => {
  it('writes a sorted file and ingests it over existing data', async () => {
    const db = await RocksDB.open(join(root(), 'db'));
    db.write(new WriteBatch().put(s('a'), s('old')).put(s('c'), s('old')).put(s('z'), s('old')));
    const file = join(root(), 'load.sst');
    const writer = new SstFileWriter(file, { compression: 'none', blockSize: 8192 });
    writer.put(s('a'), s('new'));
    writer.add(new WriteBatch().put(s('b'), s('B')).delete(s('c')).put(s('d'), s('D')));
    expect(writer.fileSize()).toBeGreaterThanOrEqual(0);
    const info = writer.finish();
    expect(info).toMatchObject({ path: file, entries: 4 });
    expect(info.fileSize).toBeGreaterThan(0);
    expect(info.smallestKey?.toString()).toBe('a');
    expect(info.largestKey?.toString()).toBe('d');
    expect(() => writer.put(s('e'), s('E'))).toThrow(RocksDBClosedError);

    await db.ingestExternalFiles([file]);
    expect(existsSync(file)).toBe(true);
    expect(db.getMany([s('a'), s('b'), s('c'), s('d'), s('z')]).map((v) => v?.toString())).toEqual([
      'new',
      'B',
      undefined,
      'D',
      'old',
    ]);
    await db.close();
    const reopened = await RocksDB.open(join(root(), 'db'));
    expect(reopened.get(s('b'))?.toString()).toBe('B');
    await reopened.close();
  });

  it('moves the file when asked, and applies range deletions', async () => {
    const db = await RocksDB.open(join(root(), 'db'));
    db.write(new WriteBatch().put(s('k1'), s('1')).put(s('k2'), s('2')).put(s('m'), s('M')));
    const file = join(root(), 'move.sst');
    const writer = new SstFileWriter(file);
    writer.deleteRange(s('k'), s('l'));
    writer.put(s('x'), s('X'));
    writer.finish();
    await db.ingestExternalFiles([file], { moveFiles: true });
    expect(existsSync(file)).toBe(false);
    expect([...db.iterator()].map((e) => e.key.toString())).toEqual(['m', 'x']);
    await db.close();
  });

  it('refuses keys out of order and empty files with RocksDBError', () => {
    const writer = new SstFileWriter(join(root(), 'bad.sst'));
    writer.put(s('b'), s('1'));
    expect(() => writer.put(s('a'), s('2'))).toThrow(RocksDBError);
    expect(() => writer.put(s('b'), s('2'))).toThrow(
      expect.objectContaining({ status: 'InvalidArgument' }),
    );
    writer.abandon();
    expect(existsSync(join(root(), 'bad.sst'))).toBe(false);
    writer.abandon();
    const empty = new SstFileWriter(join(root(), 'empty.sst'));
    expect(() => empty.finish()).toThrow(expect.objectContaining({ status: 'InvalidArgument' }));
  });

  it('fails ingestion of a missing file with the status', async () => {
    const db = await RocksDB.open(join(root(), 'db'));
    await expect(db.ingestExternalFiles([join(root(), 'missing.sst')])).rejects.toMatchObject({
      name: 'RocksDBError',
      status: 'IOError',
    });
    await db.close();
  });
});
