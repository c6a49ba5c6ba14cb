/**
 * The part of `@nxtedition/rocksdb` 12.2.12 (which ships no types) that the engine uses,
 * written from the package's `index.js`, `iterator.js`, `chained-batch.js` and `binding.cc`.
 * The underscore methods are the binding's synchronous entry points; they skip the
 * abstract-level state checks, so the engine checks that the store is open before each call.
 */
declare module '@nxtedition/rocksdb' {
  /** Options read by `db_open` / `InitOptions` in `binding.cc`. */
  export interface NxtOpenOptions {
    createIfMissing?: boolean;
    errorIfExists?: boolean;
    /** true: ZSTD; false: none (the prebuilt binary has no Snappy). */
    compression?: boolean;
    /** HyperClockCache capacity in bytes (uint32); 0: no block cache. */
    cacheSize?: number;
    blockSize?: number;
    /** With `compaction` set: write_buffer_size = budget / 4, max_write_buffer_number = 6. */
    memtableMemoryBudget?: number;
    compaction?: 'universal' | 'level';
    /** A RocksDB filter-policy string, e.g. `bloomfilter:10:false`; '' for none. */
    filterPolicy?: string;
    cacheIndexAndFilterBlocks?: boolean;
    parallelism?: number;
    walCompression?: boolean;
    infoLogLevel?: 'debug' | 'info' | 'warn' | 'error' | 'fatal' | 'header';
  }

  /** Iterator bounds (`lte` becomes an exclusive `lte + 0x00` bound) and decoding. */
  export interface NxtIteratorOptions {
    gt?: Buffer;
    gte?: Buffer;
    lt?: Buffer;
    lte?: Buffer;
    reverse?: boolean;
    limit?: number;
    fillCache?: boolean;
    keyEncoding: 'buffer';
    valueEncoding: 'buffer';
  }

  /** An iterator over a snapshot taken at creation; `close` releases it. */
  export interface NxtIterator {
    /** Up to `size` entries as a flat `[key, value, key, value, ...]` array. */
    _nextvSync(size: number, options?: object): { rows: Buffer[]; finished: boolean };
    /** Up to `size` entries, read on the thread pool; empty when the iterator is exhausted. */
    nextv(size: number): Promise<[Buffer, Buffer][]>;
    close(): Promise<void>;
  }

  /** A reusable native WriteBatch; `_writeSync` applies it atomically, `_clear` empties it. */
  export interface NxtChainedBatch {
    _put(key: Buffer, value: Buffer, options: object): void;
    _del(key: Buffer, options: object): void;
    _clear(): void;
    _writeSync(options: { sync?: boolean }): void;
    close(): Promise<void>;
  }

  /** One RocksDB database (abstract-level 1). Opens itself on the next tick unless `open` is called. */
  export class RocksLevel {
    constructor(location: string);
    readonly status: 'opening' | 'open' | 'closing' | 'closed';
    open(options?: NxtOpenOptions): Promise<void>;
    close(): Promise<void>;
    batch(): NxtChainedBatch;
    iterator(options: NxtIteratorOptions): NxtIterator;
    /** `undefined` for a missing key. */
    _getManySync(keys: readonly Buffer[], options: object): (Buffer | undefined)[];
    _getManyAsync(keys: readonly Buffer[], options: object): Promise<(Buffer | undefined)[]>;
    getProperty(name: string): string;
  }
}
