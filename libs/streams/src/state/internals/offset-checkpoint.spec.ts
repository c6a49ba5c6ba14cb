import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CorruptCheckpointError } from '../../errors/internals/corrupt-checkpoint.error';
import { OFFSET_UNKNOWN, OffsetCheckpoint } from './offset-checkpoint';

describe('OffsetCheckpoint', () => {
  let dir: string;
  let checkpoint: OffsetCheckpoint;

  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'checkpoint-'));
    checkpoint = new OffsetCheckpoint(path.join(dir, '.checkpoint'));
  });
  afterEach(() => fs.rm(dir, { recursive: true, force: true }));

  it('writes Kafka Streams text format: version, count, one entry per line', async () => {
    await checkpoint.write([
      { topic: 'app-store-changelog', partition: 3, offset: 1042 },
      { topic: 'app-other-changelog', partition: 0, offset: 0 },
    ]);
    expect(await fs.readFile(checkpoint.file, 'utf8')).toBe(
      '0\n2\napp-store-changelog 3 1042\napp-other-changelog 0 0\n',
    );
  });

  it('reads back what it wrote, keyed by topic-partition', async () => {
    await checkpoint.write([{ topic: 't', partition: 1, offset: 7 }]);
    const read = await checkpoint.read();
    expect([...read.entries()]).toEqual([['t-1', { topic: 't', partition: 1, offset: 7 }]]);
  });

  it('reads a missing file as no offsets', async () => {
    expect((await checkpoint.read()).size).toBe(0);
    expect(await checkpoint.exists()).toBe(false);
  });

  it('replaces atomically and leaves no temporary file', async () => {
    await checkpoint.write([{ topic: 't', partition: 0, offset: 1 }]);
    await checkpoint.write([{ topic: 't', partition: 0, offset: 2 }]);
    expect(await fs.readdir(dir)).toEqual(['.checkpoint']);
    expect((await checkpoint.read()).get('t-0')?.offset).toBe(2);
  });

  it('keeps the unknown-offset sentinel on write and omits it on read', async () => {
    await checkpoint.write([
      { topic: 't', partition: 0, offset: OFFSET_UNKNOWN },
      { topic: 't', partition: 1, offset: -1 },
    ]);
    expect(await fs.readFile(checkpoint.file, 'utf8')).toBe('0\n1\nt 0 -4\n');
    expect((await checkpoint.read()).size).toBe(0);
  });

  it('accepts CRLF line endings and a missing final newline', async () => {
    await fs.writeFile(checkpoint.file, '0\r\n1\r\nt 2 9');
    expect((await checkpoint.read()).get('t-2')?.offset).toBe(9);
  });

  it.each([
    ['empty file', ''],
    ['unknown version', '1\n0\n'],
    ['bad count', '0\nx\n'],
    ['fewer entries than the count', '0\n2\nt 0 1\n'],
    ['more entries than the count', '0\n1\nt 0 1\nt 1 1\n'],
    ['malformed entry', '0\n1\nt zero 1\n'],
    ['missing offset', '0\n1\nt 0\n'],
    ['negative offset', '0\n1\nt 0 -7\n'],
  ])('throws CorruptCheckpointError for %s', async (_label, text) => {
    await fs.writeFile(checkpoint.file, text);
    const error = await checkpoint.read().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CorruptCheckpointError);
    expect((error as CorruptCheckpointError).code).toBe('CHECKPOINT_CORRUPT');
    expect((error as CorruptCheckpointError).message).toContain(checkpoint.file);
  });

  it('deletes the file; deleting twice is fine', async () => {
    await checkpoint.write([{ topic: 't', partition: 0, offset: 1 }]);
    await checkpoint.delete();
    await checkpoint.delete();
    expect(await checkpoint.exists()).toBe(false);
  });

  it('refuses topic names with whitespace', async () => {
    await expect(checkpoint.write([{ topic: 'a b', partition: 0, offset: 1 }])).rejects.toThrow(
      RangeError,
    );
  });
});
