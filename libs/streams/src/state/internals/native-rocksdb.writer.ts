import { ProcessorStateError } from '../../errors/processor-state.error';
import { WriteBatch, type RocksDB } from '@nest-streams/rocksdb';
import type { BytesWrite } from '../bytes-store';

/**
 * The write batches of one {@link NativeRocksDBStore}: one reused batch, written synchronously
 * or on RocksDB's thread pool. While an asynchronous batch is being written, any other write
 * throws a `ProcessorStateError` instead of landing before it. Each call throws (or rejects
 * with) what `failure` makes of the addon's error; a key or value that is not a Buffer throws a
 * `TypeError` before anything is written.
 */
export class NativeRocksDBWriter {
  private readonly batch = new WriteBatch();
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
  async writeAsync(db: RocksDB, writes: readonly BytesWrite[]): Promise<void> {
    this.refuseWhileWritingAsync();
    let written: Promise<void>;
    try {
      written = db.writeAsync(this.encode(writes));
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
