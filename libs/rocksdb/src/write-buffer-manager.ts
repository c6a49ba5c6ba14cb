import type { Cache } from './cache';
import { nativeAddon, type NativeWriteBufferManager } from './internals/native';

/**
 * One memtable budget shared by many databases (pass it as `writeBufferManager` to
 * `RocksDB.open`): when all their memtables together pass `bufferSize`, RocksDB flushes the
 * largest. Charged to `cache` when given, so block cache and memtables share one budget
 * (Kafka Streams' `BoundedMemoryRocksDBConfig`).
 *
 * It never stalls writes (`allow_stall=false`, as in Kafka Streams): the limit is soft, and a
 * burst can pass it briefly while flushes catch up; a stalling manager can wedge every writer
 * (facebook/rocksdb#11780).
 *
 * Freed when the last user lets go: `close()` drops this handle, each database keeps its own
 * reference until it closes.
 *
 * Errors: `RocksDBUnavailableError` from the constructor when the addon is not built;
 * `TypeError`/`RangeError` for a bad size or a closed or foreign `cache` (fix the call);
 * `RocksDBClosedError` from every call after `close()`.
 */
export class WriteBufferManager {
  /** @internal The addon's object. */
  readonly native: NativeWriteBufferManager;

  constructor(
    /** The memtable budget in bytes (0: no limit, only accounting). */
    bufferSize: number,
    cache?: Cache,
  ) {
    this.native = new (nativeAddon().WriteBufferManager)({
      bufferSize,
      ...(cache !== undefined && { cache: cache.native }),
    });
  }

  /** Bytes of all memtables of the databases using it. */
  memoryUsage(): number {
    return this.native.memoryUsage();
  }

  /** Bytes of the active (mutable) memtables. */
  mutableMemoryUsage(): number {
    return this.native.mutableMemoryUsage();
  }

  bufferSize(): number {
    return this.native.bufferSize();
  }

  /** Whether memtable memory is charged to a block cache. */
  costToCache(): boolean {
    return this.native.costToCache();
  }

  /** Drops this handle's reference; databases that use it keep theirs. Idempotent. */
  close(): void {
    this.native.close();
  }
}
