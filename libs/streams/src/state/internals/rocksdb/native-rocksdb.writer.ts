import { ProcessorStateError } from '../../../errors/processor-state.error';
import { WriteBatch, type RocksDB, type WriteOptions } from '@nest-streams/rocksdb';
import type { ChangelogRecord } from '../../../processor/state-store-context';
import type { BytesWrite } from '../../bytes-store';
import { writeTimestamp } from '../ordered-bytes';
import { TIMESTAMP_BYTES } from '../timestamped-changelog';

/**
 * The write batches of one {@link NativeRocksDBStore}: one reused batch, written synchronously
 * or on RocksDB's thread pool. While an asynchronous batch is being written, any other write
 * throws a `ProcessorStateError` instead of landing before it. Each call throws (or rejects
 * with) what `failure` makes of the addon's error; a key or value that is not a Buffer throws a
 * `TypeError` before anything is written.
 */
export class NativeRocksDBWriter {
  private readonly batch = new WriteBatch();
  private readonly stamp = Buffer.alloc(TIMESTAMP_BYTES);
  private writingAsync = false;

  constructor(
    private readonly storeName: string,
    private readonly failure: (operation: string, cause: unknown) => Error,
  ) {}

  /** Applies `writes` as one atomic batch, now. */
  write(db: RocksDB, writes: readonly BytesWrite[]): void {
    this.refuseWhileWritingAsync();
    try {
      db.write(this.encode(writes));
    } catch (cause) {
      throw this.failure('write a batch', cause);
    } finally {
      this.batch.clear();
    }
  }

  /** Applies `writes` as one atomic batch on the pool (the batch is copied before it returns). */
  writeAsync(db: RocksDB, writes: readonly BytesWrite[], options?: WriteOptions): Promise<void> {
    this.refuseWhileWritingAsync();
    return this.written(db, () => this.encode(writes), options);
  }

  /**
   * {@link writeAsync} of a timestamped store's changelog records: each value is written with
   * the record's timestamp in front of it (as `withTimestamps` builds it), straight into the
   * batch.
   */
  writeWithTimestampsAsync(
    db: RocksDB,
    records: readonly ChangelogRecord[],
    options?: WriteOptions,
  ): Promise<void> {
    this.refuseWhileWritingAsync();
    return this.written(db, () => this.encodeWithTimestamps(records), options);
  }

  private async written(
    db: RocksDB,
    encode: () => WriteBatch,
    options: WriteOptions | undefined,
  ): Promise<void> {
    let written: Promise<void>;
    try {
      written = db.writeAsync(encode(), options);
    } catch (cause) {
      throw this.failure('write a batch', cause);
    } finally {
      this.batch.clear();
    }
    this.writingAsync = true;
    try {
      await written;
    } catch (cause) {
      throw this.failure('write a batch', cause);
    } finally {
      this.writingAsync = false;
    }
  }

  /** Writes an empty batch with `sync`: fsyncs the WAL. */
  syncWal(db: RocksDB): void {
    db.write(this.batch, { sync: true });
  }

  private refuseWhileWritingAsync(): void {
    if (this.writingAsync) {
      throw new ProcessorStateError(
        this.storeName,
        'write a batch',
        new Error('a putAllAsync batch is still being written: await it before writing again'),
      );
    }
  }

  /** The reused batch with `records`, each value after its record's timestamp. */
  private encodeWithTimestamps(records: readonly ChangelogRecord[]): WriteBatch {
    const batch = this.batch;
    const stamp = this.stamp;
    for (const { key, value, timestamp } of records) {
      if (value === null) {
        batch.delete(key);
      } else {
        writeTimestamp(stamp, Number(timestamp), 0);
        batch.put(key, value, stamp);
      }
    }
    return batch;
  }

  /** The reused batch with `writes` (each key and value checked as it is added). */
  private encode(writes: readonly BytesWrite[]): WriteBatch {
    const batch = this.batch;
    for (const { key, value } of writes) {
      if (value === null) {
        batch.delete(key);
      } else {
        batch.put(key, value);
      }
    }
    return batch;
  }
}
