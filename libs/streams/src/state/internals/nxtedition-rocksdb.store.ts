import { rm } from 'node:fs/promises';
import type {
  NxtChainedBatch,
  NxtIterator,
  NxtIteratorOptions,
  RocksLevel,
} from '@nxtedition/rocksdb';
import { ProcessorStateError } from '../../errors/processor-state.error';
import { StoreClosedError } from '../../errors/store-closed.error';
import type { StreamsError } from '../../errors/streams.error';
import type { RocksDBOptions, RocksDBOptionValues } from '../rocksdb-options';
import type { RocksDBStoreMetrics } from '../rocksdb-store-metrics';
import {
  assertWrites,
  isEmptyRange,
  levelPrefixBounds,
  levelRangeBounds,
  type LevelScanBounds,
} from './byte-range';
import type { BytesStore, BytesStoreCapabilities, BytesWrite, KeyValueBytes } from '../bytes-store';
import {
  NXTEDITION_ENGINE,
  nxteditionDefaultOptions,
  toNxteditionOpenOptions,
} from './nxtedition-rocksdb.options';
import { assertSingleRocksDBBinding } from './rocksdb-binding-guard';
import { readRocksDBMetrics } from './rocksdb-properties';
import type { RocksDBStoreParams } from './rocksdb-store-params';

const NO_OPTIONS = Object.freeze({});
const SYNC = Object.freeze({ sync: true });
/** Entries a synchronous scan reads first; doubles per batch up to SCAN_MAX_BATCH. */
const SCAN_FIRST_BATCH = 64;
const SCAN_MAX_BATCH = 1024;
/** Entries per thread-pool round trip of an asynchronous scan. */
const ASYNC_SCAN_BATCH = 1000;

/**
 * The RocksDB engine on `@nxtedition/rocksdb` (RocksDB 9.x, maintained, prebuilt for
 * linux-x64): the recommended persistent engine, because it reads synchronously
 * (`getManySync`, synchronous iterator batches) so the processing hot path never awaits.
 *
 * Writes go straight to RocksDB as synchronous write batches (`put` is a batch of one,
 * `putAll` one atomic batch), through the WAL without fsync; `flush()` fsyncs the WAL, so every
 * accepted write survives a crash of the process or the machine. Iterators read a snapshot
 * taken when the scan starts, in batches of up to 1024 entries.
 *
 * Options: Kafka Streams' defaults where the binding can apply them, then the config setter;
 * see `toNxteditionOpenOptions` for what is supported and `NXTEDITION_FIXED_OPTIONS` for what
 * the binding fixes. Every store has its own block cache and memtables: the binding cannot
 * share a cache or a write-buffer manager between databases.
 *
 * Errors: `StoreClosedError` while not open (reopen it or rediscover the store);
 * `RocksDBConfigError` from `open()` for options it cannot apply (fix the config setter);
 * `RocksDBBindingConflictError` from `open()` when `@nest-streams/rocksdb` is loaded in the
 * same process (use one engine per process);
 * `ProcessorStateError` for RocksDB failures such as a directory locked by another store or
 * process (fatal for the task); a `TypeError` for a key or value that is not a Buffer.
 */
export class NxteditionRocksDBStore implements BytesStore {
  readonly capabilities: BytesStoreCapabilities = { syncReads: true, persistent: true };
  readonly name: string;

  private db: RocksLevel | undefined;
  private batch: NxtChainedBatch | undefined;
  private options: RocksDBOptions | undefined;
  private opening: Promise<void> | undefined;
  /** Bumped on every open and close, so that iterators can tell they outlived their period. */
  private generation = 0;

  constructor(private readonly params: RocksDBStoreParams) {
    this.name = params.name;
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
    return this.getMany([key])[0];
  }

  getMany(keys: readonly Buffer[]): (Buffer | undefined)[] {
    const db = this.requireOpen();
    try {
      return db._getManySync(keys, NO_OPTIONS);
    } catch (cause) {
      throw this.failure('read', cause);
    }
  }

  async getAsync(key: Buffer): Promise<Buffer | undefined> {
    return (await this.getManyAsync([key]))[0];
  }

  async getManyAsync(keys: readonly Buffer[]): Promise<(Buffer | undefined)[]> {
    const db = this.requireOpen();
    try {
      return await db._getManyAsync(keys, NO_OPTIONS);
    } catch (cause) {
      throw this.failure('read', cause);
    }
  }

  put(key: Buffer, value: Buffer | null): void {
    this.putAll([{ key, value }]);
  }

  putAll(writes: readonly BytesWrite[]): void {
    assertWrites(writes);
    const batch = this.requireBatch();
    try {
      for (const { key, value } of writes) {
        if (value === null) {
          batch._del(key, NO_OPTIONS);
        } else {
          batch._put(key, value, NO_OPTIONS);
        }
      }
      batch._writeSync(NO_OPTIONS);
    } catch (cause) {
      throw this.failure('write a batch', cause);
    } finally {
      batch._clear();
    }
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
    return this.scan(from, to, false);
  }

  reverseRange(from: Buffer | undefined, to: Buffer | undefined): IterableIterator<KeyValueBytes> {
    return this.scan(from, to, true);
  }

  prefixScan(prefix: Buffer): IterableIterator<KeyValueBytes> {
    const db = this.requireOpen();
    return this.iterate(db, levelPrefixBounds(prefix));
  }

  all(): IterableIterator<KeyValueBytes> {
    return this.scan(undefined, undefined, false);
  }

  reverseAll(): IterableIterator<KeyValueBytes> {
    return this.scan(undefined, undefined, true);
  }

  async rangeAsync(
    from: Buffer | undefined,
    to: Buffer | undefined,
    reverse = false,
  ): Promise<KeyValueBytes[]> {
    const db = this.requireOpen();
    if (isEmptyRange(from, to)) {
      return [];
    }
    return this.collect(db, levelRangeBounds(from, to, reverse));
  }

  async prefixScanAsync(prefix: Buffer): Promise<KeyValueBytes[]> {
    return this.collect(this.requireOpen(), levelPrefixBounds(prefix));
  }

  approximateNumEntries(): number {
    const value = Number(this.requireOpen().getProperty('rocksdb.estimate-num-keys'));
    return Number.isFinite(value) ? value : 0;
  }

  /** RocksDB's memory and compaction figures for this store. */
  metrics(): RocksDBStoreMetrics {
    const db = this.requireOpen();
    return readRocksDBMetrics((name) => db.getProperty(name));
  }

  /** Fsyncs the WAL (an empty write batch with `sync: true`): every accepted write is durable. */
  async flush(): Promise<void> {
    const batch = this.requireBatch();
    try {
      batch._writeSync(SYNC);
    } catch (cause) {
      throw this.failure('flush', cause);
    }
  }

  async close(): Promise<void> {
    await this.opening?.catch(() => undefined);
    const { db, batch, options } = this;
    if (db === undefined || batch === undefined || options === undefined) {
      return;
    }
    this.db = undefined;
    this.batch = undefined;
    this.options = undefined;
    this.generation++;
    let failure: unknown;
    try {
      await batch.close();
      // Closing syncs the WAL and closes the store's open iterators.
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
    const options = nxteditionDefaultOptions();
    this.params.configSetter?.setConfig(this.name, options, this.params.configs ?? {});
    const openOptions = toNxteditionOpenOptions(this.name, options);
    // Loaded on first open (a process without persistent stores never loads the binding), after
    // checking the other RocksDB binding is not in the process.
    assertSingleRocksDBBinding(this.name, NXTEDITION_ENGINE);
    const { RocksLevel } = await import('@nxtedition/rocksdb');
    // Open in the same tick as the constructor: abstract-level otherwise opens the database
    // itself on the next tick, with default options. The binding creates the directory.
    const db = new RocksLevel(this.params.directory);
    try {
      await db.open(openOptions);
    } catch (cause) {
      throw new ProcessorStateError(this.name, `open ${this.params.directory}`, cause);
    }
    this.db = db;
    this.batch = db.batch();
    this.options = options;
    this.generation++;
  }

  private scan(
    from: Buffer | undefined,
    to: Buffer | undefined,
    reverse: boolean,
  ): IterableIterator<KeyValueBytes> {
    const db = this.requireOpen();
    if (isEmptyRange(from, to)) {
      return [][Symbol.iterator]();
    }
    return this.iterate(db, levelRangeBounds(from, to, reverse));
  }

  /** A synchronous scan; the native iterator is closed when the generator finishes or returns. */
  private *iterate(db: RocksLevel, bounds: LevelScanBounds): Generator<KeyValueBytes> {
    const generation = this.generation;
    const iterator = this.openIterator(db, bounds);
    try {
      let size = SCAN_FIRST_BATCH;
      for (let finished = false; !finished; size = Math.min(size * 2, SCAN_MAX_BATCH)) {
        this.assertGeneration(generation);
        let rows: Buffer[];
        try {
          ({ rows, finished } = iterator._nextvSync(size));
        } catch (cause) {
          throw this.failure('scan', cause);
        }
        for (let i = 0; i < rows.length; i += 2) {
          yield { key: rows[i], value: rows[i + 1] };
          this.assertGeneration(generation);
        }
      }
    } finally {
      // After a close the database has closed the iterator already.
      if (this.generation === generation) {
        void iterator.close().catch(() => undefined);
      }
    }
  }

  private async collect(db: RocksLevel, bounds: LevelScanBounds): Promise<KeyValueBytes[]> {
    const iterator = this.openIterator(db, bounds);
    const entries: KeyValueBytes[] = [];
    try {
      for (;;) {
        const batch = await iterator.nextv(ASYNC_SCAN_BATCH);
        if (batch.length === 0) {
          return entries;
        }
        for (const [key, value] of batch) {
          entries.push({ key, value });
        }
      }
    } catch (cause) {
      throw this.failure('scan', cause);
    } finally {
      await iterator.close().catch(() => undefined);
    }
  }

  private openIterator(db: RocksLevel, bounds: LevelScanBounds): NxtIterator {
    const options: NxtIteratorOptions = {
      keyEncoding: 'buffer',
      valueEncoding: 'buffer',
      reverse: bounds.reverse,
      ...(bounds.gte !== undefined && { gte: bounds.gte }),
      ...(bounds.lte !== undefined && { lte: bounds.lte }),
      ...(bounds.lt !== undefined && { lt: bounds.lt }),
    };
    try {
      return db.iterator(options);
    } catch (cause) {
      throw this.failure('scan', cause);
    }
  }

  private requireOpen(): RocksLevel {
    if (this.db === undefined) {
      throw new StoreClosedError(this.name);
    }
    return this.db;
  }

  private requireBatch(): NxtChainedBatch {
    if (this.batch === undefined) {
      throw new StoreClosedError(this.name);
    }
    return this.batch;
  }

  private assertGeneration(generation: number): void {
    if (this.generation !== generation) {
      throw new StoreClosedError(this.name, 'was closed while an iterator was open');
    }
  }

  /** A closed store explains a failed call better than the binding's message does. */
  private failure(operation: string, cause: unknown): StreamsError {
    return this.db === undefined
      ? new StoreClosedError(this.name)
      : new ProcessorStateError(this.name, operation, cause);
  }
}
