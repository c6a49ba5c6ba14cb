import { nativeAddon, type NativeDatabase } from './internals/native';
import { unpackValues } from './internals/packed';
import type { IteratorOptions, OpenOptions, WriteOptions } from './options';
import { RocksDBIterator } from './rocksdb-iterator';
import { WriteBatch } from './write-batch';

/**
 * One RocksDB database (the default column family), on the system RocksDB through this
 * package's addon.
 *
 * - Reads: `get`/`getMany` run synchronously on the main thread (microseconds: a state store's
 *   hot path never awaits); `getAsync`/`getManyAsync` on the libuv pool.
 * - Writes: `write(batch)` applies a {@link WriteBatch} atomically, synchronously;
 *   `writeAsync` on the pool. Each can skip the WAL (`disableWAL`), the database's default
 *   coming from `walEnabled`.
 * - Iterators: forward or reverse, bounded, over a snapshot, in chunks.
 * - Maintenance: `flush` (memtables to SST files), `compactRange`, `getProperty`, `statistics`,
 *   `checkpoint`, `ingestExternalFiles` (bulk load from {@link SstFileWriter} files).
 *
 * Keys and values are Buffers, ordered bytewise. Values returned by `getMany` and iterators are
 * views into one Buffer per call: do not mutate them.
 *
 * Errors: `RocksDBUnavailableError` from `open` when the addon is not built (install RocksDB and
 * rebuild the package, or use another engine); `RocksDBError` with RocksDB's status when RocksDB
 * fails (see its documentation for what to do per status); `RocksDBClosedError` from every call
 * once `close()` was called (open a new one); `TypeError`/`RangeError` for bad arguments.
 */
export class RocksDB {
  // Promise-returning calls are `async`: a synchronous throw of the addon (closed, bad
  // argument) becomes a rejection.
  private readonly batch = new WriteBatch();

  private constructor(
    /** The database directory. */
    readonly path: string,
    private readonly native: NativeDatabase,
  ) {}

  /**
   * Opens (by default creates) the database in `path`. RocksDB replays the WAL of writes not
   * yet flushed, on the libuv pool.
   *
   * Throws `RocksDBError` (`IOError` when another open database holds the directory's lock,
   * `InvalidArgument` for a compression RocksDB was built without, `Corruption`), and
   * `RocksDBUnavailableError` when the addon is not built.
   */
  static async open(path: string, options: OpenOptions = {}): Promise<RocksDB> {
    const native = new (nativeAddon().Database)();
    const { blockCache, writeBufferManager, ...plain } = options;
    await native.open(path, {
      ...plain,
      ...(blockCache !== undefined && { blockCache: blockCache.native }),
      ...(writeBufferManager !== undefined && { writeBufferManager: writeBufferManager.native }),
    });
    return new RocksDB(path, native);
  }

  /** Deletes a closed database's files (RocksDB's `DestroyDB`). Throws `RocksDBError`. */
  static async destroy(path: string): Promise<void> {
    await nativeAddon().Database.destroy(path);
  }

  /** False once `close()` was called. */
  get isOpen(): boolean {
    return this.native.isOpen();
  }

  /** The value of `key`, or undefined. */
  get(key: Buffer): Buffer | undefined {
    return this.native.get(key);
  }

  /** The values of `keys` (RocksDB's batched MultiGet), in their order; undefined when absent. */
  getMany(keys: readonly Buffer[]): (Buffer | undefined)[] {
    return unpackValues(this.native.getMany(keys));
  }

  /** {@link get} on the libuv pool. */
  async getAsync(key: Buffer): Promise<Buffer | undefined> {
    return this.native.getAsync(key);
  }

  /** {@link getMany} on the libuv pool. */
  async getManyAsync(keys: readonly Buffer[]): Promise<(Buffer | undefined)[]> {
    return unpackValues(await this.native.getManyAsync(keys));
  }

  /** Applies `batch` atomically. The batch is left as it is (clear it to reuse it). */
  write(batch: WriteBatch, options?: WriteOptions): void {
    this.native.write(batch.encoded(), options);
  }

  /** {@link write} on the libuv pool; the batch may be changed as soon as this returns. */
  async writeAsync(batch: WriteBatch, options?: WriteOptions): Promise<void> {
    return this.native.writeAsync(batch.encoded(), options);
  }

  /** Sets `key` to `value` (a batch of one). */
  put(key: Buffer, value: Buffer, options?: WriteOptions): void {
    this.writeOne(this.batch.put(key, value), options);
  }

  /** Deletes `key` (a batch of one). */
  delete(key: Buffer, options?: WriteOptions): void {
    this.writeOne(this.batch.delete(key), options);
  }

  /** An iterator over a snapshot taken now; close it when done. */
  iterator(options: IteratorOptions = {}): RocksDBIterator {
    return new RocksDBIterator(this.native.iterator(options));
  }

  /**
   * Writes the memtables to SST files: what was written without the WAL is then durable.
   * `wait: false` only schedules it.
   */
  async flush(options: { wait?: boolean } = {}): Promise<void> {
    return this.native.flush({ wait: options.wait ?? true });
  }

  /** Compacts `[from, to]` (undefined = open), on the libuv pool. */
  async compactRange(from?: Buffer, to?: Buffer): Promise<void> {
    return this.native.compactRange(from, to);
  }

  /**
   * A RocksDB property, e.g. `rocksdb.estimate-num-keys`, `rocksdb.block-cache-usage`,
   * `rocksdb.block-cache-capacity`, `rocksdb.cur-size-all-mem-tables`; undefined when unknown.
   */
  getProperty(name: string): string | undefined {
    return this.native.getProperty(name);
  }

  /** A numeric property as a number; undefined when unknown or not a number. */
  getNumericProperty(name: string): number | undefined {
    const text = this.native.getProperty(name);
    const value = text === undefined || text === '' ? NaN : Number(text);
    return Number.isFinite(value) ? value : undefined;
  }

  /**
   * Every RocksDB ticker by its RocksDB name (`rocksdb.block.cache.data.hit`,
   * `rocksdb.bytes.written`, `rocksdb.stall.micros`...): counts since the database opened, or
   * undefined when it was opened without `statistics: true`.
   *
   * @throws RocksDBClosedError when the database is not open (open it again first).
   */
  statistics(): Readonly<Record<string, number>> | undefined {
    return this.native.statistics();
  }

  /**
   * A consistent copy in `directory` (which must not exist), hard-linked where possible. The
   * memtables are flushed first, so writes made without the WAL are in it.
   */
  async checkpoint(directory: string): Promise<void> {
    return this.native.checkpoint(directory);
  }

  /**
   * Adds SST files (from {@link SstFileWriter}) to the database, newer than its data. With
   * `moveFiles` they are hard-linked instead of copied (and must not be used again).
   */
  async ingestExternalFiles(
    files: readonly string[],
    options: { moveFiles?: boolean } = {},
  ): Promise<void> {
    return this.native.ingestExternalFiles(files, { moveFiles: options.moveFiles ?? false });
  }

  /**
   * Closes iterators, waits for running asynchronous calls, then closes RocksDB (which flushes
   * memtables holding writes made without the WAL, unless `avoidFlushDuringShutdown`).
   * Idempotent.
   */
  async close(): Promise<void> {
    return this.native.close();
  }

  private writeOne(batch: WriteBatch, options: WriteOptions | undefined): void {
    try {
      this.native.write(batch.encoded(), options);
    } finally {
      batch.clear();
    }
  }
}
