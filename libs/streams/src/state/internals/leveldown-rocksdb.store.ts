import { mkdir, rm } from 'node:fs/promises';
import { ProcessorStateError } from '../../errors/processor-state.error';
import { StoreClosedError } from '../../errors/store-closed.error';
import type { StreamsError } from '../../errors/streams.error';
import { UnsupportedStoreOperationError } from '../../errors/unsupported-store-operation.error';
import type { RocksDBOptions, RocksDBOptionValues } from '../rocksdb-options';
import type { RocksDBStoreMetrics } from '../rocksdb-store-metrics';
import {
  assertBuffer,
  hasPrefix,
  inRange,
  isEmptyRange,
  levelPrefixBounds,
  levelRangeBounds,
} from './byte-range';
import type { BytesStore, BytesStoreCapabilities, BytesWrite, KeyValueBytes } from './bytes-store';
import {
  loadLeveldown,
  readEmptyKey,
  readMany,
  readRange,
  toOperations,
  writeBatch,
  type LeveldownDatabase,
} from './leveldown-binding';
import { leveldownDefaultOptions, toLeveldownOpenOptions } from './leveldown-rocksdb.options';
import { mergeOverlay, WriteBehindBuffer } from './write-behind-buffer';
import { readRocksDBMetrics } from './rocksdb-properties';
import type { RocksDBStoreParams } from './rocksdb-store-params';

const NO_SYNC_READS =
  'the rocksdb binding only reads asynchronously (capabilities.syncReads=false)';

/** Parameters of {@link LeveldownRocksDBStore}. */
export interface LeveldownRocksDBStoreParams extends RocksDBStoreParams {
  /**
   * Pending writes (distinct keys) that start a background write batch before `flush()`, so a
   * long commit interval does not hold every write in memory. Default 10,000.
   */
  readonly maxPendingWrites?: number;
}

/**
 * The RocksDB engine on the `rocksdb` npm binding (5.2.1, RocksDB 6.17), the binding the
 * design names. It has no synchronous reads (`capabilities.syncReads` is false): the
 * synchronous `get`, `getMany`, iterators, `delete` and `putIfAbsent` throw
 * `UnsupportedStoreOperationError`, and the caching layer serves the hot path from entries
 * prefetched with `getManyAsync`.
 *
 * Writes are buffered in a pending write batch: `flush()` writes it as one atomic batch
 * (`sync: true`, so it is durable), and a batch also starts in the background once
 * `maxPendingWrites` keys are pending. Batches are written one at a time, in order. The
 * asynchronous reads see pending and in-flight writes.
 *
 * Options: see `toLeveldownOpenOptions` (block cache, block size, write buffer size,
 * compression none/snappy, max open files) and `LEVELDOWN_FIXED_OPTIONS` for what the binding
 * fixes. No cache or memtable sharing between stores.
 *
 * Errors: `StoreClosedError` while not open; `RocksDBConfigError` from `open()` for options it
 * cannot apply (fix the config setter); `RocksDBBindingConflictError` from `open()` when
 * `@nxtedition/rocksdb` is loaded in the same process (use one binding per process);
 * `ProcessorStateError` for RocksDB failures, including a failed background
 * write, which every later call reports (fatal for the task); `TypeError` for a key or value
 * that is not a Buffer.
 */
export class LeveldownRocksDBStore implements BytesStore {
  readonly capabilities: BytesStoreCapabilities = { syncReads: false, persistent: true };
  readonly name: string;

  private db: LeveldownDatabase | undefined;
  private options: RocksDBOptions | undefined;
  private opening: Promise<void> | undefined;
  private readonly pending = new WriteBehindBuffer();
  private readonly maxPendingWrites: number;
  /** The chain of background writes; each write starts when the previous one is done. */
  private writes: Promise<void> = Promise.resolve();
  private writeFailure: { readonly cause: unknown } | undefined;
  private generation = 0;

  constructor(private readonly params: LeveldownRocksDBStoreParams) {
    this.name = params.name;
    this.maxPendingWrites = params.maxPendingWrites ?? 10_000;
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

  get(_key: Buffer): Buffer | undefined {
    throw this.unsupported('get');
  }

  getMany(_keys: readonly Buffer[]): (Buffer | undefined)[] {
    throw this.unsupported('getMany');
  }

  async getAsync(key: Buffer): Promise<Buffer | undefined> {
    return (await this.getManyAsync([key]))[0];
  }

  async getManyAsync(keys: readonly Buffer[]): Promise<(Buffer | undefined)[]> {
    const db = this.requireOpen();
    const results: (Buffer | undefined)[] = new Array<Buffer | undefined>(keys.length);
    const misses: number[] = [];
    let emptyKeyMisses = false;
    keys.forEach((key, index) => {
      const write = this.pending.lookup(key);
      if (write !== undefined) {
        results[index] = write.value ?? undefined;
      } else if (key.length === 0) {
        emptyKeyMisses = true; // the binding's getMany drops empty keys: read them alone
      } else {
        misses.push(index);
      }
    });
    try {
      if (misses.length > 0) {
        const values = await readMany(
          db,
          misses.map((index) => keys[index]),
        );
        misses.forEach((index, i) => (results[index] = values[i]));
      }
      if (emptyKeyMisses) {
        const value = await readEmptyKey(db);
        keys.forEach((key, index) => {
          if (key.length === 0 && this.pending.lookup(key) === undefined) {
            results[index] = value;
          }
        });
      }
    } catch (cause) {
      throw this.failure('read', cause);
    }
    return results;
  }

  put(key: Buffer, value: Buffer | null): void {
    this.putAll([{ key, value }]);
  }

  putAll(writes: readonly BytesWrite[]): void {
    for (const write of writes) {
      assertBuffer(write.key, 'key');
      if (write.value !== null) {
        assertBuffer(write.value, 'value');
      }
    }
    const db = this.requireWritable();
    for (const { key, value } of writes) {
      this.pending.set(key, value);
    }
    if (this.pending.size >= this.maxPendingWrites) {
      this.startWrite(db);
    }
  }

  putIfAbsent(_key: Buffer, _value: Buffer): Buffer | undefined {
    throw this.unsupported('putIfAbsent');
  }

  delete(_key: Buffer): Buffer | undefined {
    throw this.unsupported('delete');
  }

  range(_from: Buffer | undefined, _to: Buffer | undefined): IterableIterator<KeyValueBytes> {
    throw this.unsupported('range');
  }

  reverseRange(
    _from: Buffer | undefined,
    _to: Buffer | undefined,
  ): IterableIterator<KeyValueBytes> {
    throw this.unsupported('reverseRange');
  }

  prefixScan(_prefix: Buffer): IterableIterator<KeyValueBytes> {
    throw this.unsupported('prefixScan');
  }

  all(): IterableIterator<KeyValueBytes> {
    throw this.unsupported('all');
  }

  reverseAll(): IterableIterator<KeyValueBytes> {
    throw this.unsupported('reverseAll');
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
    // Taken before reading, so writes landing during the scan are still overlaid.
    const overlay = this.pending.overlay((key) => inRange(key, from, to));
    let entries: KeyValueBytes[];
    try {
      if (to !== undefined && to.length === 0) {
        // The binding ignores empty bounds: only the empty key is <= an empty `to`.
        const value = await readEmptyKey(db);
        entries = value === undefined ? [] : [{ key: Buffer.alloc(0), value }];
      } else {
        entries = await readRange(db, levelRangeBounds(from, to, false));
      }
    } catch (cause) {
      throw this.failure('scan', cause);
    }
    const merged = mergeOverlay(entries, overlay);
    return reverse ? merged.reverse() : merged;
  }

  async prefixScanAsync(prefix: Buffer): Promise<KeyValueBytes[]> {
    const db = this.requireOpen();
    const overlay = this.pending.overlay((key) => hasPrefix(key, prefix));
    try {
      return mergeOverlay(await readRange(db, levelPrefixBounds(prefix)), overlay);
    } catch (cause) {
      throw this.failure('scan', cause);
    }
  }

  /** RocksDB's estimate plus the writes still pending (deletes not subtracted). */
  approximateNumEntries(): number {
    const estimate = Number(this.requireOpen().getProperty('rocksdb.estimate-num-keys'));
    return (Number.isFinite(estimate) ? estimate : 0) + this.pending.size;
  }

  /** RocksDB's memory and compaction figures for this store. */
  metrics(): RocksDBStoreMetrics {
    const db = this.requireOpen();
    return readRocksDBMetrics((name) => db.getProperty(name));
  }

  /** Writes the pending batch (and waits for background batches); durable when it resolves. */
  async flush(): Promise<void> {
    await this.drain(this.requireWritable());
    this.throwIfWriteFailed();
  }

  async close(): Promise<void> {
    await this.opening?.catch(() => undefined);
    const { db, options } = this;
    if (db === undefined || options === undefined) {
      return;
    }
    let failure: unknown;
    try {
      await this.drain(db);
      this.throwIfWriteFailed();
    } catch (cause) {
      failure = cause;
    }
    this.db = undefined;
    this.options = undefined;
    this.generation++;
    this.pending.clear();
    this.writeFailure = undefined;
    try {
      await new Promise<void>((resolve, reject) =>
        db.close((error) => (error ? reject(error) : resolve())),
      );
    } catch (cause) {
      failure ??= cause;
    }
    try {
      this.params.configSetter?.close?.(this.name, options);
    } catch (cause) {
      failure ??= cause;
    }
    if (failure !== undefined) {
      throw failure instanceof ProcessorStateError
        ? failure
        : new ProcessorStateError(this.name, 'close', failure);
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
    const options = leveldownDefaultOptions();
    this.params.configSetter?.setConfig(this.name, options, this.params.configs ?? {});
    const openOptions = toLeveldownOpenOptions(this.name, options);
    const db = (await loadLeveldown(this.name))(this.params.directory);
    try {
      await mkdir(this.params.directory, { recursive: true });
      await new Promise<void>((resolve, reject) =>
        db.open(openOptions, (error) => (error ? reject(error) : resolve())),
      );
    } catch (cause) {
      throw new ProcessorStateError(this.name, `open ${this.params.directory}`, cause);
    }
    this.db = db;
    this.options = options;
    this.generation++;
  }

  /** Hands the pending batch to the write chain (no-op when nothing is pending). */
  private startWrite(db: LeveldownDatabase): void {
    const batch = this.pending.take();
    if (batch === undefined) {
      return;
    }
    const operations = toOperations(batch);
    this.writes = this.writes.then(async () => {
      try {
        if (this.writeFailure === undefined) {
          await writeBatch(db, operations);
        }
      } catch (cause) {
        this.writeFailure = { cause };
      } finally {
        this.pending.settle(batch);
      }
    });
  }

  private async drain(db: LeveldownDatabase): Promise<void> {
    this.startWrite(db);
    await this.writes;
  }

  private requireOpen(): LeveldownDatabase {
    if (this.db === undefined) {
      throw new StoreClosedError(this.name);
    }
    return this.db;
  }

  private requireWritable(): LeveldownDatabase {
    const db = this.requireOpen();
    this.throwIfWriteFailed();
    return db;
  }

  private throwIfWriteFailed(): void {
    if (this.writeFailure !== undefined) {
      throw new ProcessorStateError(this.name, 'write a batch', this.writeFailure.cause);
    }
  }

  private unsupported(operation: string): UnsupportedStoreOperationError {
    return new UnsupportedStoreOperationError(this.name, operation, NO_SYNC_READS);
  }

  /** A store closed during the call explains the failure better than the binding does. */
  private failure(operation: string, cause: unknown): StreamsError {
    return this.db === undefined
      ? new StoreClosedError(this.name)
      : new ProcessorStateError(this.name, operation, cause);
  }
}
