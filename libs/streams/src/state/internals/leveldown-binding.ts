import type { KeyValueBytes } from './bytes-store';
import type { LevelScanBounds } from './byte-range';
import { LEVELDOWN_ENGINE } from './leveldown-rocksdb.options';
import { assertSingleRocksDBBinding } from './rocksdb-binding-guard';
import type { WriteBatchMap } from './write-behind-buffer';

const READ_OPTIONS: LeveldownReadOptions = Object.freeze({
  asBuffer: true,
  fillCache: true,
});
const WRITE_OPTIONS = Object.freeze({ sync: true });

/**
 * The part of the `rocksdb` 5.2.1 binding (abstract-leveldown 7) that the leveldown engine
 * uses, written from the package's `leveldown.js`, `iterator.js` and `binding.cc`.
 *
 * The project's declaration (`types/rocksdb.d.ts`) covers the public API only; the engine also
 * calls the underscore methods, which skip abstract-leveldown's argument checks (they reject
 * empty keys, which RocksDB and Kafka Streams accept). They do not check that the database is
 * open either, so the engine checks that before each call.
 */
export interface LeveldownDatabase {
  open(options: LeveldownOpenOptions, callback: LeveldownCallback): void;
  close(callback: LeveldownCallback): void;
  /** Fails with a message starting with `NotFound` for a missing key. */
  _get(
    key: Buffer,
    options: LeveldownReadOptions,
    callback: (error: Error | null | undefined, value?: Buffer) => void,
  ): void;
  /** Drops empty keys from `keys` (and so from the result): never pass one. */
  _getMany(
    keys: readonly Buffer[],
    options: LeveldownReadOptions,
    callback: (error: Error | null | undefined, values?: (Buffer | undefined)[]) => void,
  ): void;
  _batch(
    operations: readonly LeveldownBatchOperation[],
    options: { sync: boolean },
    callback: LeveldownCallback,
  ): void;
  iterator(options: LeveldownIteratorOptions): LeveldownIterator;
  /** An empty string for a property RocksDB does not know. */
  getProperty(name: string): string;
}

/** A binding callback: an error, or nothing on success. */
export type LeveldownCallback = (error?: Error | null) => void;

/** Options read by the binding's `db_open`. */
export interface LeveldownOpenOptions {
  createIfMissing?: boolean;
  errorIfExists?: boolean;
  /** true: Snappy; false: none. */
  compression?: boolean;
  /** LRU block cache capacity in bytes (uint32); 0: no block cache. */
  cacheSize?: number;
  writeBufferSize?: number;
  blockSize?: number;
  maxOpenFiles?: number;
}

/** Read options of `_get`/`_getMany`. */
export interface LeveldownReadOptions {
  asBuffer: boolean;
  fillCache: boolean;
}

/** Iterator bounds and decoding; an empty bound is ignored by the binding (open). */
export interface LeveldownIteratorOptions {
  gte?: Buffer;
  lt?: Buffer;
  lte?: Buffer;
  reverse?: boolean;
  keyAsBuffer: true;
  valueAsBuffer: true;
  fillCache?: boolean;
}

/** The binding's callback iterator; `end` releases it (and its snapshot). */
export interface LeveldownIterator {
  /** Calls back with no key and value once the iterator is exhausted. */
  next(callback: (error: Error | null | undefined, key?: Buffer, value?: Buffer) => void): void;
  end(callback: LeveldownCallback): void;
}

/** One operation of an atomic write batch. */
export type LeveldownBatchOperation =
  { type: 'put'; key: Buffer; value: Buffer } | { type: 'del'; key: Buffer };

/** Creates closed database handles, typed with the methods the engine uses. */
export type LeveldownFactory = (location: string) => LeveldownDatabase;

/**
 * Loads the binding (on first use, after checking that the other RocksDB binding is not in
 * the process: see `assertSingleRocksDBBinding`, which throws `RocksDBBindingConflictError`).
 */
export async function loadLeveldown(storeName: string): Promise<LeveldownFactory> {
  assertSingleRocksDBBinding(storeName, LEVELDOWN_ENGINE);
  const { default: rocksdb } = await import('rocksdb');
  // The handle has these methods at runtime; the project's declaration omits the underscore ones.
  return (location) => rocksdb(location) as unknown as LeveldownDatabase;
}

/** The batch as binding operations (a `null` value is a delete). */
export function toOperations(batch: WriteBatchMap): LeveldownBatchOperation[] {
  const operations: LeveldownBatchOperation[] = [];
  for (const { key, value } of batch.values()) {
    operations.push(value === null ? { type: 'del', key } : { type: 'put', key, value });
  }
  return operations;
}

/** Writes `operations` as one atomic batch, fsynced (`sync: true`). */
export function writeBatch(
  db: LeveldownDatabase,
  operations: readonly LeveldownBatchOperation[],
): Promise<void> {
  return new Promise((resolve, reject) =>
    db._batch(operations, WRITE_OPTIONS, (error) => (error ? reject(error) : resolve())),
  );
}

/** Multi-get of non-empty keys only (the binding drops empty ones), in the order of `keys`. */
export function readMany(
  db: LeveldownDatabase,
  keys: readonly Buffer[],
): Promise<(Buffer | undefined)[]> {
  return new Promise((resolve, reject) =>
    db._getMany(keys, READ_OPTIONS, (error, values) => {
      if (error) {
        reject(error);
      } else if (values === undefined || values.length !== keys.length) {
        reject(new Error(`getMany returned ${values?.length} values for ${keys.length} keys`));
      } else {
        resolve(values);
      }
    }),
  );
}

/** Reads the empty key, which the binding's getMany cannot. */
export function readEmptyKey(db: LeveldownDatabase): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) =>
    db._get(Buffer.alloc(0), READ_OPTIONS, (error, value) => {
      if (error && !error.message.startsWith('NotFound')) {
        reject(error);
      } else {
        resolve(error ? undefined : value);
      }
    }),
  );
}

/** Reads `[gte, lte]` / `[gte, lt)` ascending through the binding's callback iterator. */
export async function readRange(
  db: LeveldownDatabase,
  bounds: LevelScanBounds,
): Promise<KeyValueBytes[]> {
  const iterator = db.iterator({
    ...bounds,
    keyAsBuffer: true,
    valueAsBuffer: true,
    fillCache: false,
  });
  const entries: KeyValueBytes[] = [];
  try {
    await new Promise<void>((resolve, reject) => {
      const step = (): void =>
        iterator.next((error, key, value) => {
          if (error) {
            reject(error);
          } else if (key === undefined || value === undefined) {
            resolve();
          } else {
            entries.push({ key, value });
            step();
          }
        });
      step();
    });
  } finally {
    await new Promise<void>((resolve) => iterator.end(() => resolve()));
  }
  return entries;
}
