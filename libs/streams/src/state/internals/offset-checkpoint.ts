import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { CorruptCheckpointError } from '../../errors/internals/corrupt-checkpoint.error';
import { topicPartitionKey, type TopicPartitionOffset } from '../../processor/topic-partition';

/** The only format version Kafka Streams writes (and reads) in `.checkpoint` files. */
export const CHECKPOINT_VERSION = 0;
/** The file name of a task's checkpoint, in its task directory. */
export const CHECKPOINT_FILE_NAME = '.checkpoint';
/**
 * Kafka Streams' sentinel for "offset unknown" in a checkpoint; such entries are read as
 * absent (the store restores from the beginning).
 */
export const OFFSET_UNKNOWN = -4;

/**
 * A task's changelog offsets on disk, in Kafka Streams' `.checkpoint` text format:
 *
 * ```
 * 0                    <- version
 * 2                    <- number of entries
 * app-store-changelog 3 1042
 * app-other-changelog 3 77
 * ```
 *
 * Each offset is the offset of the last changelog record the store holds; restore resumes at
 * `offset + 1`. Writes are atomic: a temporary file is written and fsynced, then renamed over
 * the old one, so a crash leaves either the old or the new checkpoint, never half of one.
 */
export class OffsetCheckpoint {
  constructor(readonly file: string) {}

  /**
   * Atomically replaces the checkpoint with `offsets`. Entries with a negative offset are
   * written as they are (Kafka's sentinels) only when they equal {@link OFFSET_UNKNOWN};
   * other negative offsets are skipped.
   *
   * @throws the file system's error (ENOSPC, EACCES...): the checkpoint is then unchanged;
   *   log it and carry on, the next commit or a clean close writes it again.
   */
  async write(offsets: Iterable<TopicPartitionOffset>): Promise<void> {
    const lines: string[] = [];
    for (const { topic, partition, offset } of offsets) {
      if (offset < 0 && offset !== OFFSET_UNKNOWN) continue;
      if (/\s/.test(topic) || topic.length === 0) {
        throw new RangeError(`invalid topic name for a checkpoint: '${topic}'`);
      }
      lines.push(`${topic} ${partition} ${offset}`);
    }
    const text = `${CHECKPOINT_VERSION}\n${lines.length}\n${lines.map((l) => `${l}\n`).join('')}`;
    const tmp = `${this.file}.tmp`;
    const handle = await fs.open(tmp, 'w');
    try {
      await handle.writeFile(text, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.rename(tmp, this.file);
    await syncDirectory(path.dirname(this.file));
  }

  /**
   * Reads the checkpoint: offsets keyed by `topicPartitionKey(topic, partition)`. A missing
   * file reads as an empty map (nothing checkpointed: restore from the beginning).
   *
   * @throws CorruptCheckpointError when the file exists but does not parse: delete it and
   *   restore from the beginning, with a warning.
   * @throws the file system's error for anything but a missing file (EACCES...): a
   *   configuration problem; fix the state directory's permissions.
   */
  async read(): Promise<Map<string, TopicPartitionOffset>> {
    let text: string;
    try {
      text = await fs.readFile(this.file, 'utf8');
    } catch (error) {
      if (isNotFound(error)) return new Map();
      throw error;
    }
    return this.parse(text);
  }

  /** Whether the checkpoint file exists. */
  async exists(): Promise<boolean> {
    try {
      await fs.access(this.file);
      return true;
    } catch {
      return false;
    }
  }

  /** Deletes the checkpoint (and a leftover temporary file); no error when absent. */
  async delete(): Promise<void> {
    await fs.rm(this.file, { force: true });
    await fs.rm(`${this.file}.tmp`, { force: true });
  }

  private parse(text: string): Map<string, TopicPartitionOffset> {
    const lines = text.split(/\r?\n/);
    while (lines.length > 0 && lines[lines.length - 1].trim() === '') lines.pop();
    if (lines.length < 2) throw this.corrupt('missing version or entry count');
    const version = lines[0].trim();
    if (version !== String(CHECKPOINT_VERSION)) {
      throw this.corrupt(`unknown version '${version}' (expected ${CHECKPOINT_VERSION})`);
    }
    const countText = lines[1].trim();
    if (!/^\d+$/.test(countText)) throw this.corrupt(`bad entry count '${countText}'`);
    const expected = Number(countText);
    const entries = lines.slice(2);
    if (entries.length !== expected) {
      throw this.corrupt(`expected ${expected} entries but found ${entries.length}`);
    }
    const offsets = new Map<string, TopicPartitionOffset>();
    for (const line of entries) {
      const parts = line.trim().split(/\s+/);
      if (
        parts.length !== 3 ||
        !/^\d+$/.test(parts[1]) ||
        !/^-?\d+$/.test(parts[2]) ||
        !Number.isSafeInteger(Number(parts[2]))
      ) {
        throw this.corrupt(`malformed entry '${line}'`);
      }
      const [topic, partitionText, offsetText] = parts;
      const partition = Number(partitionText);
      const offset = Number(offsetText);
      if (offset < 0) {
        if (offset === OFFSET_UNKNOWN) continue;
        throw this.corrupt(`negative offset in entry '${line}'`);
      }
      offsets.set(topicPartitionKey(topic, partition), { topic, partition, offset });
    }
    return offsets;
  }

  private corrupt(reason: string): CorruptCheckpointError {
    return new CorruptCheckpointError(this.file, reason);
  }
}

function isNotFound(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';
}

async function syncDirectory(dir: string): Promise<void> {
  let handle: fs.FileHandle | undefined;
  try {
    handle = await fs.open(dir, 'r');
    await handle.sync();
  } catch {
    // Some file systems refuse to fsync a directory; the rename itself is still atomic.
  } finally {
    await handle?.close();
  }
}
