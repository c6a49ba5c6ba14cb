import type {
  NxtChainedBatch,
  NxtIterator,
  NxtIteratorOptions,
  RocksLevel,
} from '@nxtedition/rocksdb';
import { ProcessorStateError } from '../../../errors/processor-state.error';
import { StoreClosedError } from '../../../errors/store-closed.error';
import type { StreamsError } from '../../../errors/streams.error';
import type { RocksDBOptions } from '../../rocksdb-options';
import {
  assertWrites,
  isEmptyRange,
  levelPrefixBounds,
  levelRangeBounds,
  type LevelScanBounds,
} from '../byte-range';
import type { BytesWrite, KeyValueBytes } from '../../bytes-store';
import {
  NXTEDITION_ENGINE,
  nxteditionDefaultOptions,
  toNxteditionOpenOptions,
} from './nxtedition-rocksdb.options';
import { assertSingleRocksDBBinding } from './rocksdb-binding-guard';
import { RocksDBEngineStore } from './rocksdb-engine-store';

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
export class NxteditionRocksDBStore extends RocksDBEngineStore<RocksLevel> {
  private batch: NxtChainedBatch | undefined;

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

  prefixScan(prefix: Buffer): IterableIterator<KeyValueBytes> {
    const db = this.requireOpen();
    return this.iterate(db, levelPrefixBounds(prefix));
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

  /** Fsyncs the WAL (an empty write batch with `sync: true`): every accepted write is durable. */
  async flush(): Promise<void> {
    const batch = this.requireBatch();
    try {
      batch._writeSync(SYNC);
    } catch (cause) {
      throw this.failure('flush', cause);
    }
  }

  protected defaultOptions(): RocksDBOptions {
    return nxteditionDefaultOptions();
  }

  protected async openDatabaseWith(options: RocksDBOptions): Promise<RocksLevel> {
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
    this.batch = db.batch();
    return db;
  }

  protected async closeDatabase(db: RocksLevel): Promise<void> {
    const batch = this.batch;
    this.batch = undefined;
    await batch?.close();
    // Closing syncs the WAL and closes the store's open iterators.
    await db.close();
  }

  protected property(db: RocksLevel, name: string): string {
    return db.getProperty(name);
  }

  protected scan(
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

  private requireBatch(): NxtChainedBatch {
    if (this.batch === undefined) {
      throw new StoreClosedError(this.name);
    }
    return this.batch;
  }

  /** A closed store explains a failed call better than the binding's message does. */
  private failure(operation: string, cause: unknown): StreamsError {
    return this.db === undefined
      ? new StoreClosedError(this.name)
      : new ProcessorStateError(this.name, operation, cause);
  }
}
