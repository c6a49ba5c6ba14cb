import type { BytesStore, BytesStoreCapabilities, BytesWrite, KeyValueBytes } from '../bytes-store';
import { deleteThrough, putIfAbsentThrough } from './read-modify-write';

/**
 * What the storage engines (in-memory and RocksDB) share: single writes as batches of one, the
 * read-modify-write calls through the engine's own reads and writes, and every range through
 * the engine's `scan`. Errors are those of `putAll`, `get` and `scan`.
 */
export abstract class EngineBytesStore implements BytesStore {
  abstract readonly name: string;
  abstract readonly capabilities: BytesStoreCapabilities;

  abstract open(): Promise<void>;
  abstract isOpen(): boolean;
  abstract get(key: Buffer): Buffer | undefined;
  abstract getMany(keys: readonly Buffer[]): (Buffer | undefined)[];
  abstract getAsync(key: Buffer): Promise<Buffer | undefined>;
  abstract getManyAsync(keys: readonly Buffer[]): Promise<(Buffer | undefined)[]>;
  abstract putAll(writes: readonly BytesWrite[]): void;
  abstract prefixScan(prefix: Buffer): IterableIterator<KeyValueBytes>;
  abstract rangeAsync(
    from: Buffer | undefined,
    to: Buffer | undefined,
    reverse?: boolean,
  ): Promise<KeyValueBytes[]>;
  abstract prefixScanAsync(prefix: Buffer): Promise<KeyValueBytes[]>;
  abstract approximateNumEntries(): number;
  abstract flush(): Promise<void>;
  abstract close(): Promise<void>;
  abstract destroy(): Promise<void>;

  put(key: Buffer, value: Buffer | null): void {
    this.putAll([{ key, value }]);
  }

  putIfAbsent(key: Buffer, value: Buffer): Buffer | undefined {
    return putIfAbsentThrough(this, key, value);
  }

  delete(key: Buffer): Buffer | undefined {
    return deleteThrough(this, key);
  }

  range(from: Buffer | undefined, to: Buffer | undefined): IterableIterator<KeyValueBytes> {
    return this.scan(from, to, false);
  }

  reverseRange(from: Buffer | undefined, to: Buffer | undefined): IterableIterator<KeyValueBytes> {
    return this.scan(from, to, true);
  }

  all(): IterableIterator<KeyValueBytes> {
    return this.scan(undefined, undefined, false);
  }

  reverseAll(): IterableIterator<KeyValueBytes> {
    return this.scan(undefined, undefined, true);
  }

  /** An ascending or descending scan of `[from, to]`, both bounds inclusive or open. */
  protected abstract scan(
    from: Buffer | undefined,
    to: Buffer | undefined,
    reverse: boolean,
  ): IterableIterator<KeyValueBytes>;
}
