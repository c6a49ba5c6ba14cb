import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import {
  RocksDB,
  RocksDBClosedError,
  supportedCompressions,
  type IteratorOptions,
  type RocksDBIterator,
} from '@nest-streams/rocksdb';
import { ProcessorStateError } from '../../errors/processor-state.error';
import { StoreClosedError } from '../../errors/store-closed.error';
import type { StreamsError } from '../../errors/streams.error';
import type { RocksDBOptions, RocksDBOptionValues } from '../rocksdb-options';
import type { RocksDBStoreMetrics } from '../rocksdb-store-metrics';
import type { BytesStore, BytesStoreCapabilities, BytesWrite, KeyValueBytes } from '../bytes-store';
import { writeSstFile } from './native-rocksdb.bulk-load';
import { NativeRocksDBWriter } from './native-rocksdb.writer';
import {
  NATIVE_ENGINE,
  nativeDefaultOptions,
  prefixBounds,
  rangeBounds,
  toNativeOpenOptions,
} from './native-rocksdb.options';
import { assertSingleRocksDBBinding } from './rocksdb-binding-guard';
import { readRocksDBMetrics } from './rocksdb-properties';
import type { RocksDBStoreParams } from './rocksdb-store-params';

/** Entries per chunk of an asynchronous scan (one libuv round trip each). */
const ASYNC_SCAN_CHUNK = 1000;

/**
 * The RocksDB engine on `@nest-streams/rocksdb`, the project's own addon over the system
 * RocksDB: synchronous get, multi-get and iterators on the main thread, and everything Kafka
 * Streams' RocksDB store does that the npm bindings cannot (every option applied as given,
 * `maxWriteBufferNumber` and `walEnabled=false` included; memtable flush).
 *
 * Writes are synchronous write batches (`put` is a batch of one, `putAll` one atomic batch),
 * with the WAL on or off as `walEnabled` says (off by default, as in Kafka Streams: the
 * changelog is the durable copy). `flush()` makes every accepted write durable: with the WAL
 * off it flushes the memtables to SST files, with the WAL on it fsyncs the WAL. `close()`
 * flushes the memtables of WAL-off writes too; after a crash, WAL-off writes since the last
 * `flush()` are gone and come back from the changelog. Iterators read a snapshot taken when the
 * scan starts, in chunks of up to 1024 entries.
 *
 * Errors: `StoreClosedError` while not open (reopen it or rediscover the store);
 * `RocksDBConfigError` from `open()` for options it cannot apply (fix the config setter);
 * `RocksDBUnavailableError` (from `@nest-streams/rocksdb`) from `open()` when the addon is not
 * built: install RocksDB and rebuild, or use the `@nxtedition/rocksdb` engine;
 * `RocksDBBindingConflictError` from `open()` when another RocksDB binding is loaded in the
 * process (use one engine per process); `ProcessorStateError` for RocksDB failures such as a
 * directory locked by another store (fatal for the task); a `TypeError` for a key or value that
 * is not a Buffer.
 */
export class NativeRocksDBStore implements BytesStore {
  readonly capabilities: BytesStoreCapabilities = { syncReads: true, persistent: true };
  readonly name: string;

  private db: RocksDB | undefined;
  private options: RocksDBOptions | undefined;
  private opening: Promise<void> | undefined;
  private readonly writer: NativeRocksDBWriter;
  /** Bumped on every open and close, so that iterators can tell they outlived their period. */
  private generation = 0;

  constructor(private readonly params: RocksDBStoreParams) {
    this.name = params.name;
    this.writer = new NativeRocksDBWriter(params.name, (operation, cause) =>
      this.failure(operation, cause),
    );
  }

  /** The options the store runs with (after the config setter); undefined while closed. */
  get appliedOptions(): RocksDBOptionValues | undefined {
    return this.options?.toJSON();
  }

  async open(): Promise<void> {
    if (this.db !== undefined) {
      return;
    }
    this.opening ??= this.openDatabase().finally(() => {
      this.opening = undefined;
    });
    return this.opening;
  }

  isOpen(): boolean {
    return this.db !== undefined;
  }

  get(key: Buffer): Buffer | undefined {
    const db = this.requireOpen();
    try {
      return db.get(key);
    } catch (cause) {
      throw this.failure('read', cause);
    }
  }

  getMany(keys: readonly Buffer[]): (Buffer | undefined)[] {
    const db = this.requireOpen();
    try {
      return db.getMany(keys);
    } catch (cause) {
      throw this.failure('read', cause);
    }
  }

  async getAsync(key: Buffer): Promise<Buffer | undefined> {
    const db = this.requireOpen();
    try {
      return await db.getAsync(key);
    } catch (cause) {
      throw this.failure('read', cause);
    }
  }

  async getManyAsync(keys: readonly Buffer[]): Promise<(Buffer | undefined)[]> {
    const db = this.requireOpen();
    try {
      return await db.getManyAsync(keys);
    } catch (cause) {
      throw this.failure('read', cause);
    }
  }

  put(key: Buffer, value: Buffer | null): void {
    this.putAll([{ key, value }]);
  }

  putAll(writes: readonly BytesWrite[]): void {
    this.writer.write(this.requireOpen(), writes);
  }

  /**
   * {@link putAll} on RocksDB's thread pool (the batch is copied before this returns). Until it
   * resolves, any other write to the store throws a `ProcessorStateError` instead of landing
   * before it: await it first (the restore path does).
   */
  putAllAsync(writes: readonly BytesWrite[]): Promise<void> {
    return this.writer.writeAsync(this.requireOpen(), writes);
  }

  putIfAbsent(key: Buffer, value: Buffer): Buffer | undefined {
    const existing = this.get(key);
    if (existing === undefined) {
      this.put(key, value);
    }
    return existing;
  }

  delete(key: Buffer): Buffer | undefined {
    const existing = this.get(key);
    if (existing !== undefined) {
      this.put(key, null);
    }
    return existing;
  }

  range(from: Buffer | undefined, to: Buffer | undefined): IterableIterator<KeyValueBytes> {
    return this.scan(rangeBounds(from, to, false));
  }

  reverseRange(from: Buffer | undefined, to: Buffer | undefined): IterableIterator<KeyValueBytes> {
    return this.scan(rangeBounds(from, to, true));
  }

  prefixScan(prefix: Buffer): IterableIterator<KeyValueBytes> {
    return this.scan(prefixBounds(prefix));
  }

  all(): IterableIterator<KeyValueBytes> {
    return this.scan({});
  }

  reverseAll(): IterableIterator<KeyValueBytes> {
    return this.scan({ reverse: true });
  }

  async rangeAsync(
    from: Buffer | undefined,
    to: Buffer | undefined,
    reverse = false,
  ): Promise<KeyValueBytes[]> {
    return this.collect(rangeBounds(from, to, reverse));
  }

  async prefixScanAsync(prefix: Buffer): Promise<KeyValueBytes[]> {
    return this.collect(prefixBounds(prefix));
  }

  approximateNumEntries(): number {
    return this.requireOpen().getNumericProperty('rocksdb.estimate-num-keys') ?? 0;
  }

  /**
   * Loads `writes` through an SST file ingested into the store (no WAL, no memtable): the
   * restore path for large batches. The writes are sorted by key, the last write of a key wins
   * (a `null` value writes a tombstone), and they land after every earlier write, as if
   * `putAll(writes)` ran. Returns when the data is durable in the store.
   *
   * Errors: `StoreClosedError` when not open; `TypeError` for a key or value that is not a
   * Buffer (nothing is loaded); `ProcessorStateError` when writing or ingesting the file fails.
   */
  async bulkLoad(writes: readonly BytesWrite[]): Promise<void> {
    const db = this.requireOpen();
    const file = join(this.params.directory, `bulk-load-${this.generation}-${Date.now()}.sst`);
    try {
      if (!writeSstFile(file, writes, this.options ?? nativeDefaultOptions())) {
        return;
      }
      await db.ingestExternalFiles([file], { moveFiles: true });
    } catch (cause) {
      await rm(file, { force: true });
      throw this.failure('bulk-load an SST file', cause);
    }
  }

  /** RocksDB's memory and compaction figures for this store. */
  metrics(): RocksDBStoreMetrics {
    const db = this.requireOpen();
    return readRocksDBMetrics((name) => db.getProperty(name) ?? '');
  }

  /** WAL off: flushes the memtables to SST files. WAL on: fsyncs the WAL. */
  async flush(): Promise<void> {
    const db = this.requireOpen();
    try {
      if (this.options?.walEnabled === true) {
        this.writer.syncWal(db);
      } else {
        await db.flush({ wait: true });
      }
    } catch (cause) {
      throw this.failure('flush', cause);
    }
  }

  async close(): Promise<void> {
    await this.opening?.catch(() => undefined);
    const { db, options } = this;
    if (db === undefined || options === undefined) {
      return;
    }
    this.db = undefined;
    this.options = undefined;
    this.generation++;
    let failure: unknown;
    try {
      // Closes the store's iterators and flushes the memtables of WAL-off writes.
      await db.close();
    } catch (cause) {
      failure = cause;
    }
    try {
      this.params.configSetter?.close?.(this.name, options);
    } catch (cause) {
      failure ??= cause;
    }
    if (failure !== undefined) {
      throw new ProcessorStateError(this.name, 'close', failure);
    }
  }

  async destroy(): Promise<void> {
    await this.close();
    try {
      await rm(this.params.directory, { recursive: true, force: true });
    } catch (cause) {
      throw new ProcessorStateError(this.name, 'delete its directory', cause);
    }
  }

  private async openDatabase(): Promise<void> {
    const options = nativeDefaultOptions();
    this.params.configSetter?.setConfig(this.name, options, this.params.configs ?? {});
    // Checked before the addon loads, so that a process with another binding is refused.
    assertSingleRocksDBBinding(this.name, NATIVE_ENGINE);
    const openOptions = toNativeOpenOptions(this.name, options, supportedCompressions());
    let db: RocksDB;
    try {
      await mkdir(this.params.directory, { recursive: true });
      db = await RocksDB.open(this.params.directory, openOptions);
    } catch (cause) {
      if (cause instanceof Error && cause.name === 'RocksDBUnavailableError') {
        throw cause;
      }
      throw new ProcessorStateError(this.name, `open ${this.params.directory}`, cause);
    }
    this.db = db;
    this.options = options;
    this.generation++;
  }

  /** A synchronous scan; the native iterator is closed when the generator finishes or returns. */
  private *iterate(iterator: RocksDBIterator): Generator<KeyValueBytes> {
    const generation = this.generation;
    try {
      for (;;) {
        this.assertGeneration(generation);
        let entry: IteratorResult<KeyValueBytes>;
        try {
          entry = iterator.next();
        } catch (cause) {
          throw this.failure('scan', cause);
        }
        if (entry.done === true) {
          return;
        }
        yield entry.value;
      }
    } finally {
      iterator.close();
    }
  }

  private scan(bounds: IteratorOptions | undefined): IterableIterator<KeyValueBytes> {
    const db = this.requireOpen();
    if (bounds === undefined) {
      return [][Symbol.iterator]();
    }
    return this.iterate(this.openIterator(db, bounds));
  }

  private async collect(bounds: IteratorOptions | undefined): Promise<KeyValueBytes[]> {
    const db = this.requireOpen();
    if (bounds === undefined) {
      return [];
    }
    const iterator = this.openIterator(db, bounds);
    const entries: KeyValueBytes[] = [];
    try {
      for (let done = false; !done;) {
        const chunk = await iterator.nextChunkAsync(ASYNC_SCAN_CHUNK);
        entries.push(...chunk.entries);
        done = chunk.done;
      }
      return entries;
    } catch (cause) {
      throw this.failure('scan', cause);
    } finally {
      iterator.close();
    }
  }

  private openIterator(db: RocksDB, bounds: IteratorOptions): RocksDBIterator {
    try {
      return db.iterator(bounds);
    } catch (cause) {
      throw this.failure('scan', cause);
    }
  }

  private requireOpen(): RocksDB {
    if (this.db === undefined) {
      throw new StoreClosedError(this.name);
    }
    return this.db;
  }

  private assertGeneration(generation: number): void {
    if (this.generation !== generation) {
      throw new StoreClosedError(this.name, 'was closed while an iterator was open');
    }
  }

  /** A closed store explains a failed call better than the addon does; TypeErrors stay. */
  private failure(operation: string, cause: unknown): StreamsError | TypeError {
    // Duck-typed: the addon's errors may come from another realm (Jest, workers).
    if (typeof cause === 'object' && cause !== null && (cause as Error).name === 'TypeError') {
      return cause as TypeError;
    }
    return this.db === undefined || cause instanceof RocksDBClosedError
      ? new StoreClosedError(this.name)
      : new ProcessorStateError(this.name, operation, cause);
  }
}
