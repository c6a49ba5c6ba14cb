import { StoreClosedError } from '../../errors/store-closed.error';
import type { BytesStore, BytesWrite, KeyValueBytes } from '../bytes-store';
import type { StateStoreContext } from '../state-store-context';
import { assertBuffer, isEmptyRange, prefixUpperBound } from './byte-range';
import { mergeDirtyEntries, mergeDirtyEntriesIntoArray } from './merged-cache-iterator';
import { SortedKeyList } from './sorted-key-list';
import type { TaskEngine, TaskEngines } from './task-engines';
import { WrappedBytesStore } from './wrapped-bytes-store';

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
export class TransactionalBytesStore extends WrappedBytesStore implements TaskEngine {
  /** Pending writes by key (latin1 strings sort as the bytes do); `null` values delete. */
  private readonly pending = new Map<string, BytesWrite>();
  private readonly order = new SortedKeyList();
  private pendingBytes = 0;

  constructor(
    inner: BytesStore,
    private readonly engines: TaskEngines,
  ) {
    super(inner);
  }

  get uncommittedBytes(): number {
    return this.pendingBytes;
  }

  override async init(context: StateStoreContext): Promise<void> {
    await super.init(context);
    this.engines.enlist(this);
  }

  override async open(): Promise<void> {
    await this.inner.open();
    this.engines.enlist(this);
  }

  override get(key: Buffer): Buffer | undefined {
    if (this.pending.size > 0) {
      const write = this.pending.get(keyOf(key));
      if (write !== undefined) return write.value ?? undefined;
    }
    return this.inner.get(key);
  }

  override getMany(keys: readonly Buffer[]): (Buffer | undefined)[] {
    if (this.pending.size === 0) return this.inner.getMany(keys);
    return this.overlay(keys, (missing) => this.inner.getMany(missing));
  }

  override async getAsync(key: Buffer): Promise<Buffer | undefined> {
    const write = this.pending.size > 0 ? this.pending.get(keyOf(key)) : undefined;
    return write !== undefined ? (write.value ?? undefined) : this.inner.getAsync(key);
  }

  override async getManyAsync(keys: readonly Buffer[]): Promise<(Buffer | undefined)[]> {
    if (this.pending.size === 0) return this.inner.getManyAsync(keys);
    const found = new Map<Buffer, Buffer | undefined>();
    const missing = keys.filter((key) => !this.pending.has(keyOf(key)));
    const values = missing.length > 0 ? await this.inner.getManyAsync(missing) : [];
    missing.forEach((key, i) => found.set(key, values[i]));
    return this.overlay(keys, () => missing.map((key) => found.get(key)));
  }

  override put(key: Buffer, value: Buffer | null): void {
    this.putAll([{ key, value }]);
  }

  override putAll(writes: readonly BytesWrite[]): void {
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

  override putIfAbsent(key: Buffer, value: Buffer): Buffer | undefined {
    const existing = this.get(key);
    if (existing === undefined) this.put(key, value);
    return existing;
  }

  override delete(key: Buffer): Buffer | undefined {
    const existing = this.get(key);
    if (existing !== undefined) this.put(key, null);
    return existing;
  }

  override range(
    from: Buffer | undefined,
    to: Buffer | undefined,
  ): IterableIterator<KeyValueBytes> {
    const stored = this.inner.range(from, to);
    return this.pending.size === 0 ? stored : this.merged(stored, from, to, false);
  }

  override reverseRange(
    from: Buffer | undefined,
    to: Buffer | undefined,
  ): IterableIterator<KeyValueBytes> {
    const stored = this.inner.reverseRange(from, to);
    return this.pending.size === 0 ? stored : this.merged(stored, from, to, true);
  }

  override prefixScan(prefix: Buffer): IterableIterator<KeyValueBytes> {
    const stored = this.inner.prefixScan(prefix);
    if (this.pending.size === 0) return stored;
    return mergeDirtyEntries(this.dirtyInPrefix(prefix), stored, false, this.guard);
  }

  override all(): IterableIterator<KeyValueBytes> {
    return this.range(undefined, undefined);
  }

  override reverseAll(): IterableIterator<KeyValueBytes> {
    return this.reverseRange(undefined, undefined);
  }

  override async rangeAsync(
    from: Buffer | undefined,
    to: Buffer | undefined,
    reverse = false,
  ): Promise<KeyValueBytes[]> {
    const dirty = this.dirtyBetween(from, to, reverse);
    return mergeDirtyEntriesIntoArray(
      dirty,
      await this.inner.rangeAsync(from, to, reverse),
      reverse,
    );
  }

  override async prefixScanAsync(prefix: Buffer): Promise<KeyValueBytes[]> {
    const dirty = this.dirtyInPrefix(prefix);
    return mergeDirtyEntriesIntoArray(dirty, await this.inner.prefixScanAsync(prefix), false);
  }

  /** Durability is the checkpoint's business (see the class): nothing to do on commit. */
  override async flush(): Promise<void> {
    this.guard();
  }

  override async close(): Promise<void> {
    this.discardPending();
    this.engines.leave(this);
    await this.inner.close();
  }

  override async destroy(): Promise<void> {
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
    return mergeDirtyEntries(this.dirtyBetween(from, to, reverse), stored, reverse, this.guard);
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
  ): BytesWrite[] {
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
