import { nativeAddon, type NativeSstFileWriter } from './internals/native';
import type { SstFileInfo, SstFileWriterOptions } from './options';
import type { WriteBatch } from './write-batch';

/**
 * Writes an SST file for `RocksDB.ingestExternalFiles`: the fastest bulk load (no WAL, no
 * memtable, no flush). Keys must come in strictly ascending bytewise order, each at most once
 * (puts, deletes and range deletes alike).
 *
 * Errors: `RocksDBError` with status `InvalidArgument` for a key out of order or an empty file
 * at `finish()` (fix the input: sort and deduplicate it), `IOError` for the disk;
 * `RocksDBClosedError` after `finish()`/`abandon()`; `RocksDBUnavailableError` from the
 * constructor when the addon is not built.
 */
export class SstFileWriter {
  private readonly native: NativeSstFileWriter;

  /** Creates (or truncates) the file at `path`. */
  constructor(
    readonly path: string,
    options: SstFileWriterOptions = {},
  ) {
    this.native = new (nativeAddon().SstFileWriter)(path, options);
  }

  put(key: Buffer, value: Buffer): void {
    this.native.put(key, value);
  }

  delete(key: Buffer): void {
    this.native.delete(key);
  }

  /** A range tombstone for `[from, to)`. */
  deleteRange(from: Buffer, to: Buffer): void {
    this.native.deleteRange(from, to);
  }

  /** Adds every write of `batch`, in its order (one addon call). */
  add(batch: WriteBatch): void {
    this.native.add(batch.encoded());
  }

  /** Bytes written so far. */
  fileSize(): number {
    return this.native.fileSize();
  }

  /** Completes the file; the writer is then done. */
  finish(): SstFileInfo {
    return this.native.finish();
  }

  /** Stops and deletes the unfinished file. Idempotent. */
  abandon(): void {
    this.native.abandon();
  }
}
