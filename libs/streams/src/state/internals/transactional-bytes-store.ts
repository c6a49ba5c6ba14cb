import { StoreClosedError } from '../../errors/store-closed.error';
import type { ChangelogRecord } from '../../processor/state-store-context';
import type { BytesStore, BytesStoreCapabilities, BytesWrite, KeyValueBytes } from '../bytes-store';
import type { RocksDBStoreMetrics } from '../rocksdb-store-metrics';
import { assertBuffer, isEmptyRange, prefixUpperBound } from './byte-range';
import { mergeDirty, type DirtyEntry, type MergeOrder } from './cache-merge';
import { SortedKeyList } from './sorted-key-list';
import type { TaskEngine, TaskEngines } from './task-engines';
import { deleteThrough, putIfAbsentThrough } from './read-modify-write';
import { restoresWithTimestamps, withTimestamps } from './timestamped-changelog';

/** Merge orders of pending writes over the engine's entries (nothing stored is skipped). */
const FORWARD: MergeOrder = { compare: (a, b) => Buffer.compare(a, b), skip: () => false };
const REVERSE: MergeOrder = { compare: (a, b) => Buffer.compare(b, a), skip: () => false };

/** Bytes a pending entry costs besides its key and value (map entry, list slot, string). */
const ENTRY_OVERHEAD = 64;

/**
 * A task's persistent engine as its {@link TaskEngines} drives it (created by the RocksDB engine
 * factory inside a task; the engine below is the RocksDB store).
 *
 * - `flush()`, which every commit reaches through the layers, does not flush the engine: the
 *   task's state manager flushes every engine before it writes a checkpoint
 *   (`TaskEngines.flush`), as Kafka Streams does.
 * - Under exactly-once, once the task's transactions started, writes are kept in a pending
 *   batch indexed by key that every read sees (gets, multi-gets, ranges and scans merge it over
 *   the engine), and reach the engine as one write batch when the Kafka transaction committed
 *   (`commitPending`), or are dropped (`discardPending`, and on close or destroy). The engine
 *   thus only ever holds committed state (KIP-892's transactional state stores).
 *
 * Errors: those of the engine below.
 */
export class TransactionalBytesStore implements BytesStore, TaskEngine {
  /** Pending writes by key (latin1 strings sort as the bytes do); `null` values delete. */
  private readonly pending = new Map<string, BytesWrite>();
  private readonly order = new SortedKeyList();
  private pendingBytes = 0;
  /** The RocksDB engine's figures, as the engine reports them (read by the metered store). */
  readonly metrics: (() => RocksDBStoreMetrics) | undefined;

  constructor(
    readonly inner: BytesStore,
    private readonly engines: TaskEngines,
  ) {
    const measured = inner as { metrics?: () => RocksDBStoreMetrics };
    this.metrics = measured.metrics?.bind(inner);
  }

  get name(): string {
    return this.inner.name;
  }

  get capabilities(): BytesStoreCapabilities {
    return this.inner.capabilities;
  }

  get uncommittedBytes(): number {
    return this.pendingBytes;
  }

  async open(): Promise<void> {
    await this.inner.open();
    this.engines.enlist(this);
  }

  isOpen(): boolean {
    return this.inner.isOpen();
  }

  approximateNumEntries(): number {
    return this.inner.approximateNumEntries();
  }

  get(key: Buffer): Buffer | undefined {
    if (this.pending.size > 0) {
      const write = this.pending.get(keyOf(key));
      if (write !== undefined) return write.value ?? undefined;
    }
    return this.inner.get(key);
  }

  getMany(keys: readonly Buffer[]): (Buffer | undefined)[] {
    if (this.pending.size === 0) return this.inner.getMany(keys);
    return this.overlay(keys, (missing) => this.inner.getMany(missing));
  }

  async getAsync(key: Buffer): Promise<Buffer | undefined> {
    const write = this.pending.size > 0 ? this.pending.get(keyOf(key)) : undefined;
    return write !== undefined ? (write.value ?? undefined) : this.inner.getAsync(key);
  }

  async getManyAsync(keys: readonly Buffer[]): Promise<(Buffer | undefined)[]> {
    if (this.pending.size === 0) return this.inner.getManyAsync(keys);
    const found = new Map<Buffer, Buffer | undefined>();
    const missing = keys.filter((key) => !this.pending.has(keyOf(key)));
    const values = missing.length > 0 ? await this.inner.getManyAsync(missing) : [];
    missing.forEach((key, i) => found.set(key, values[i]));
    return this.overlay(keys, () => missing.map((key) => found.get(key)));
  }

  put(key: Buffer, value: Buffer | null): void {
    this.putAll([{ key, value }]);
  }

  /** {@link putAllAsync} of a timestamped store's changelog records (see `TimestampedRestoreEngine`). */
  async putAllWithTimestampsAsync(records: readonly ChangelogRecord[]): Promise<void> {
    if (!this.engines.transactions && restoresWithTimestamps(this.inner)) {
      await this.inner.putAllWithTimestampsAsync(records);
      return;
    }
    await this.putAllAsync(withTimestamps(records));
  }

  /** Outside transactions (the restore), the engine's own asynchronous batch write. */
  async putAllAsync(writes: readonly BytesWrite[]): Promise<void> {
    if (!this.engines.transactions && this.inner.putAllAsync) {
      await this.inner.putAllAsync(writes);
      return;
    }
    this.putAll(writes);
  }

  putAll(writes: readonly BytesWrite[]): void {
    if (!this.engines.transactions) {
      this.inner.putAll(writes);
      return;
    }
    this.guard();
    for (const write of writes) {
      assertBuffer(write.key, 'key');
      if (write.value !== null) assertBuffer(write.value, 'value');
    }
    for (const write of writes) this.buffer(write);
  }

  putIfAbsent(key: Buffer, value: Buffer): Buffer | undefined {
    return putIfAbsentThrough(this, key, value);
  }

  delete(key: Buffer): Buffer | undefined {
    return deleteThrough(this, key);
  }

  range(from: Buffer | undefined, to: Buffer | undefined): IterableIterator<KeyValueBytes> {
    const stored = this.inner.range(from, to);
    return this.pending.size === 0 ? stored : this.merged(stored, from, to, false);
  }

  reverseRange(from: Buffer | undefined, to: Buffer | undefined): IterableIterator<KeyValueBytes> {
    const stored = this.inner.reverseRange(from, to);
    return this.pending.size === 0 ? stored : this.merged(stored, from, to, true);
  }

  prefixScan(prefix: Buffer): IterableIterator<KeyValueBytes> {
    const stored = this.inner.prefixScan(prefix);
    if (this.pending.size === 0) return stored;
    return mergeDirty(this.dirtyInPrefix(prefix), stored, FORWARD, this.guard);
  }

  all(): IterableIterator<KeyValueBytes> {
    return this.range(undefined, undefined);
  }

  reverseAll(): IterableIterator<KeyValueBytes> {
    return this.reverseRange(undefined, undefined);
  }

  async rangeAsync(
    from: Buffer | undefined,
    to: Buffer | undefined,
    reverse = false,
  ): Promise<KeyValueBytes[]> {
    const dirty = this.dirtyBetween(from, to, reverse);
    const stored = await this.inner.rangeAsync(from, to, reverse);
    return [...mergeDirty(dirty, stored[Symbol.iterator](), reverse ? REVERSE : FORWARD)];
  }

  async prefixScanAsync(prefix: Buffer): Promise<KeyValueBytes[]> {
    const dirty = this.dirtyInPrefix(prefix);
    const stored = await this.inner.prefixScanAsync(prefix);
    return [...mergeDirty(dirty, stored[Symbol.iterator](), FORWARD)];
  }

  /** Durability is the checkpoint's business (see the class): nothing to do on commit. */
  async flush(): Promise<void> {
    this.guard();
  }

  async close(): Promise<void> {
    this.discardPending();
    this.engines.leave(this);
    await this.inner.close();
  }

  async destroy(): Promise<void> {
    this.discardPending();
    this.engines.leave(this);
    await this.inner.destroy();
  }

  commitPending(): void {
    if (this.pending.size === 0) return;
    const writes: BytesWrite[] = [];
    for (const key of this.order.ascending()) writes.push(this.pending.get(key)!);
    this.inner.putAll(writes);
    this.discardPending();
  }

  discardPending(): void {
    if (this.pending.size === 0) return;
    this.pending.clear();
    this.order.clear();
    this.pendingBytes = 0;
  }

  flushEngine(): Promise<void> {
    return this.inner.isOpen() ? this.inner.flush() : Promise.resolve();
  }

  private buffer(write: BytesWrite): void {
    const key = keyOf(write.key);
    const previous = this.pending.get(key);
    if (previous === undefined) {
      this.order.insert(key);
      this.pendingBytes += write.key.length + ENTRY_OVERHEAD;
    } else {
      this.pendingBytes -= previous.value?.length ?? 0;
    }
    this.pending.set(key, write);
    this.pendingBytes += write.value?.length ?? 0;
  }

  /** `keys`' values: pending writes first, the rest from `read` (in the order of `missing`). */
  private overlay(
    keys: readonly Buffer[],
    read: (missing: Buffer[]) => (Buffer | undefined)[],
  ): (Buffer | undefined)[] {
    const result = new Array<Buffer | undefined>(keys.length);
    const missing: Buffer[] = [];
    const at: number[] = [];
    keys.forEach((key, i) => {
      const write = this.pending.get(keyOf(key));
      if (write === undefined) {
        missing.push(key);
        at.push(i);
      } else {
        result[i] = write.value ?? undefined;
      }
    });
    if (missing.length > 0) {
      const values = read(missing);
      at.forEach((index, j) => (result[index] = values[j]));
    }
    return result;
  }

  private merged(
    stored: IterableIterator<KeyValueBytes>,
    from: Buffer | undefined,
    to: Buffer | undefined,
    reverse: boolean,
  ): IterableIterator<KeyValueBytes> {
    const order = reverse ? REVERSE : FORWARD;
    return mergeDirty(this.dirtyBetween(from, to, reverse), stored, order, this.guard);
  }

  /** Fails a merged iterator (or a flush) once the engine is closed, as the engine does. */
  private readonly guard = (): void => {
    if (!this.inner.isOpen()) throw new StoreClosedError(this.name);
  };

  /** Pending writes with `from <= key <= to`, in the merge's direction (a snapshot). */
  private dirtyBetween(
    from: Buffer | undefined,
    to: Buffer | undefined,
    reverse: boolean,
  ): DirtyEntry[] {
    if (this.pending.size === 0 || isEmptyRange(from, to)) return [];
    const low = from === undefined ? undefined : keyOf(from);
    const high = to === undefined ? undefined : keyOf(to);
    const keys = reverse ? this.order.descending(low, high) : this.order.ascending(low, high);
    return [...keys].map((key) => this.pending.get(key)!);
  }

  private dirtyInPrefix(prefix: Buffer): BytesWrite[] {
    if (this.pending.size === 0) return [];
    const upper = prefixUpperBound(prefix);
    const low = keyOf(prefix);
    const high = upper === undefined ? undefined : keyOf(upper);
    const dirty: BytesWrite[] = [];
    for (const key of this.order.ascending(low)) {
      if (high !== undefined && key >= high) break;
      dirty.push(this.pending.get(key)!);
    }
    return dirty;
  }
}

function keyOf(key: Buffer): string {
  return key.toString('latin1');
}
