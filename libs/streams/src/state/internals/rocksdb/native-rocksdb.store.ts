import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import {
  RocksDB,
  RocksDBClosedError,
  supportedCompressions,
  type IteratorOptions,
  type RocksDBIterator,
} from '@nest-streams/rocksdb';
import { ProcessorStateError } from '../../../errors/processor-state.error';
import { StoreClosedError } from '../../../errors/store-closed.error';
import type { StreamsError } from '../../../errors/streams.error';
import type { RocksDBOptions } from '../../rocksdb-options';
import type { ChangelogRecord } from '../../../processor/state-store-context';
import type { BytesWrite, KeyValueBytes } from '../../bytes-store';
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
import { RocksDBEngineStore } from './rocksdb-engine-store';
import type { RocksDBStoreParams } from './rocksdb-store-params';

/** Entries per chunk of an asynchronous scan (one libuv round trip each). */
const ASYNC_SCAN_CHUNK = 1000;
/** Restore batches are applied in key order (see `putAllAsync`). */
const KEY_ORDER = { orderByKey: true } as const;
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
export class NativeRocksDBStore extends RocksDBEngineStore<RocksDB> {
  private readonly writer: NativeRocksDBWriter;

  constructor(params: RocksDBStoreParams) {
    super(params);
    this.writer = new NativeRocksDBWriter(params.name, (operation, cause) =>
      this.failure(operation, cause),
    );
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

  putAll(writes: readonly BytesWrite[]): void {
    this.writer.write(this.requireOpen(), writes);
  }

  /**
   * {@link putAll} on RocksDB's thread pool (the batch is copied before this returns), applied
   * in key order: the same result (for one key the last write wins), and RocksDB's memtable
   * inserts a changelog batch's keys, which arrive in no order, several times faster sorted.
   * Until it resolves, any other write to the store throws a `ProcessorStateError` instead of
   * landing before it: await it first (the restore path does).
   */
  putAllAsync(writes: readonly BytesWrite[]): Promise<void> {
    return this.writer.writeAsync(this.requireOpen(), writes, KEY_ORDER);
  }

  /** {@link putAllAsync} of a timestamped store's changelog records (`TimestampedRestoreEngine`). */
  putAllWithTimestampsAsync(records: readonly ChangelogRecord[]): Promise<void> {
    return this.writer.writeWithTimestampsAsync(this.requireOpen(), records, KEY_ORDER);
  }

  prefixScan(prefix: Buffer): IterableIterator<KeyValueBytes> {
    return this.scanWithin(prefixBounds(prefix));
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

  protected defaultOptions(): RocksDBOptions {
    return nativeDefaultOptions();
  }

  protected async openDatabaseWith(options: RocksDBOptions): Promise<RocksDB> {
    // Checked before the addon loads, so that a process with another binding is refused.
    assertSingleRocksDBBinding(this.name, NATIVE_ENGINE);
    const openOptions = {
      ...toNativeOpenOptions(this.name, options, supportedCompressions()),
      // Kafka Streams collects RocksDB statistics at its DEBUG metrics level only.
      statistics: (this.params.configs?.metricsRecordingLevel ?? 'INFO') !== 'INFO',
    };
    try {
      await mkdir(this.params.directory, { recursive: true });
      return await RocksDB.open(this.params.directory, openOptions);
    } catch (cause) {
      if (cause instanceof Error && cause.name === 'RocksDBUnavailableError') {
        throw cause;
      }
      throw new ProcessorStateError(this.name, `open ${this.params.directory}`, cause);
    }
  }

  protected async closeDatabase(db: RocksDB): Promise<void> {
    // Closes the store's iterators and flushes the memtables of WAL-off writes.
    await db.close();
  }

  protected property(db: RocksDB, name: string): string {
    return db.getProperty(name) ?? '';
  }

  protected override statistics(db: RocksDB): Readonly<Record<string, number>> | undefined {
    return db.statistics();
  }

  protected scan(
    from: Buffer | undefined,
    to: Buffer | undefined,
    reverse: boolean,
  ): IterableIterator<KeyValueBytes> {
    return this.scanWithin(rangeBounds(from, to, reverse));
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

  private scanWithin(bounds: IteratorOptions | undefined): IterableIterator<KeyValueBytes> {
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
