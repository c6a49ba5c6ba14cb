// Type declarations for the `rocksdb` npm binding (5.2.1, abstract-leveldown 7 style API),
// which ships none. Only what this project uses.
declare module 'rocksdb' {
  type Callback<T = void> = (err: Error | undefined, value: T) => void;
  type ErrorCallback = (err: Error | undefined) => void;

  interface RocksDBOpenOptions {
    createIfMissing?: boolean;
    errorIfExists?: boolean;
    compression?: boolean;
    cacheSize?: number;
    writeBufferSize?: number;
    blockSize?: number;
    maxOpenFiles?: number;
    blockRestartInterval?: number;
    maxFileSize?: number;
    infoLogLevel?: string;
  }

  interface RocksDBIteratorOptions {
    gt?: Buffer;
    gte?: Buffer;
    lt?: Buffer;
    lte?: Buffer;
    reverse?: boolean;
    limit?: number;
    keys?: boolean;
    values?: boolean;
    keyAsBuffer?: boolean;
    valueAsBuffer?: boolean;
    fillCache?: boolean;
    highWaterMark?: number;
  }

  interface RocksDBIterator {
    next(callback: (err: Error | undefined, key?: Buffer, value?: Buffer) => void): void;
    seek(target: Buffer): void;
    end(callback: ErrorCallback): void;
  }

  type RocksDBBatchOperation =
    { type: 'put'; key: Buffer; value: Buffer } | { type: 'del'; key: Buffer };

  interface RocksDB {
    readonly location: string;
    readonly status: string;
    open(callback: ErrorCallback): void;
    open(options: RocksDBOpenOptions, callback: ErrorCallback): void;
    close(callback: ErrorCallback): void;
    get(key: Buffer, callback: Callback<Buffer>): void;
    get(
      key: Buffer,
      options: { asBuffer?: boolean; fillCache?: boolean },
      callback: Callback<Buffer>,
    ): void;
    getMany(keys: Buffer[], callback: Callback<(Buffer | undefined)[]>): void;
    getMany(
      keys: Buffer[],
      options: { asBuffer?: boolean; fillCache?: boolean },
      callback: Callback<(Buffer | undefined)[]>,
    ): void;
    put(key: Buffer, value: Buffer, callback: ErrorCallback): void;
    del(key: Buffer, callback: ErrorCallback): void;
    batch(operations: RocksDBBatchOperation[], callback: ErrorCallback): void;
    batch(
      operations: RocksDBBatchOperation[],
      options: { sync?: boolean },
      callback: ErrorCallback,
    ): void;
    iterator(options?: RocksDBIteratorOptions): RocksDBIterator;
    getProperty(property: string): string;
    approximateSize(start: Buffer, end: Buffer, callback: Callback<number>): void;
    compactRange(start: Buffer, end: Buffer, callback: ErrorCallback): void;
  }

  interface RocksDBConstructor {
    (location: string): RocksDB;
    destroy(location: string, callback: ErrorCallback): void;
    repair(location: string, callback: ErrorCallback): void;
  }

  const rocksdb: RocksDBConstructor;
  export = rocksdb;
}
