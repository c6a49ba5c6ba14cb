import { StoreClosedError } from '../../errors/store-closed.error';
import { assertWrites, hasPrefix, isEmptyRange } from './byte-range';
import type { BytesStoreCapabilities, BytesWrite, KeyValueBytes } from '../bytes-store';
import { EngineBytesStore } from './engine-bytes-store';
import { SortedKeyList } from './sorted-key-list';

/**
 * The in-memory engine: a hash map for point reads and writes plus a chunked sorted key list
 * ({@link SortedKeyList}) for ordered scans, so a put of a new key costs O(log n + 512) and a
 * range scan starts with a binary search. Keys are held as latin1 strings, whose code-unit
 * order is unsigned byte order.
 *
 * Like Kafka Streams' in-memory store, it keeps the buffers it is given and hands them back
 * (no copies): do not mutate them. `close()` drops the data (the store is not persistent and
 * is rebuilt from its changelog when reopened, as in Kafka Streams); so does `destroy()`.
 *
 * Errors: `StoreClosedError` from every read and write while closed (reopen it); a `TypeError`
 * for a key or value that is not a Buffer (fix the caller).
 */
export class InMemoryBytesStore extends EngineBytesStore {
  readonly capabilities: BytesStoreCapabilities = { syncReads: true, persistent: false };

  private readonly entries = new Map<string, KeyValueBytes>();
  private readonly keys = new SortedKeyList();
  private opened = false;
  /** Bumped on every close, so that iterators can tell they outlived their open period. */
  private generation = 0;

  constructor(readonly name: string) {
    super();
  }

  async open(): Promise<void> {
    this.opened = true;
  }

  isOpen(): boolean {
    return this.opened;
  }

  get(key: Buffer): Buffer | undefined {
    this.assertOpen();
    return this.entries.get(key.toString('latin1'))?.value;
  }

  getMany(keys: readonly Buffer[]): (Buffer | undefined)[] {
    this.assertOpen();
    return keys.map((key) => this.entries.get(key.toString('latin1'))?.value);
  }

  async getAsync(key: Buffer): Promise<Buffer | undefined> {
    return this.get(key);
  }

  async getManyAsync(keys: readonly Buffer[]): Promise<(Buffer | undefined)[]> {
    return this.getMany(keys);
  }

  putAll(writes: readonly BytesWrite[]): void {
    this.assertOpen();
    // Validate everything first: the batch applies entirely or not at all.
    assertWrites(writes);
    for (const write of writes) {
      this.apply(write.key, write.value);
    }
  }

  prefixScan(prefix: Buffer): IterableIterator<KeyValueBytes> {
    this.assertOpen();
    return this.entriesOf(this.keys.ascending(prefix.toString('latin1')), prefix);
  }

  async rangeAsync(
    from: Buffer | undefined,
    to: Buffer | undefined,
    reverse = false,
  ): Promise<KeyValueBytes[]> {
    return [...this.scan(from, to, reverse)];
  }

  async prefixScanAsync(prefix: Buffer): Promise<KeyValueBytes[]> {
    return [...this.prefixScan(prefix)];
  }

  approximateNumEntries(): number {
    this.assertOpen();
    return this.entries.size;
  }

  async flush(): Promise<void> {
    this.assertOpen();
  }

  async close(): Promise<void> {
    if (!this.opened) {
      return;
    }
    this.opened = false;
    this.generation++;
    this.entries.clear();
    this.keys.clear();
  }

  async destroy(): Promise<void> {
    await this.close();
  }

  protected scan(
    from: Buffer | undefined,
    to: Buffer | undefined,
    reverse: boolean,
  ): IterableIterator<KeyValueBytes> {
    this.assertOpen();
    if (isEmptyRange(from, to)) {
      return [][Symbol.iterator]();
    }
    const lower = from?.toString('latin1');
    const upper = to?.toString('latin1');
    return this.entriesOf(
      reverse ? this.keys.descending(lower, upper) : this.keys.ascending(lower, upper),
    );
  }

  private apply(key: Buffer, value: Buffer | null): void {
    const id = key.toString('latin1');
    const existing = this.entries.get(id);
    if (value === null) {
      if (existing !== undefined) {
        this.entries.delete(id);
        this.keys.remove(id);
      }
    } else if (existing !== undefined) {
      this.entries.set(id, { key: existing.key, value });
    } else {
      this.entries.set(id, { key: Buffer.from(key), value });
      this.keys.insert(id);
    }
  }

  /** Maps keys to entries; stops at the first key without `prefix` when one is given. */
  private *entriesOf(keys: Iterable<string>, prefix?: Buffer): Generator<KeyValueBytes> {
    const generation = this.generation;
    for (const id of keys) {
      if (this.generation !== generation) {
        throw new StoreClosedError(this.name, 'was closed while an iterator was open');
      }
      const entry = this.entries.get(id);
      if (entry === undefined) {
        continue;
      }
      if (prefix !== undefined && !hasPrefix(entry.key, prefix)) {
        return;
      }
      yield entry;
    }
    if (this.generation !== generation) {
      throw new StoreClosedError(this.name, 'was closed while an iterator was open');
    }
  }

  private assertOpen(): void {
    if (!this.opened) {
      throw new StoreClosedError(this.name);
    }
  }
}
