import { StoreClosedError } from '../../errors/store-closed.error';
import type { ChangelogRecord } from '../../processor/state-store-context';
import type { BytesStore, BytesStoreCapabilities, BytesWrite, KeyValueBytes } from '../bytes-store';
import type { RocksDBStoreMetrics } from '../rocksdb-store-metrics';
import { assertBuffer } from './byte-range';
import { mergeDirty, type DirtyEntry, type MergeOrder } from './cache-merge';
import { pendingKey, PendingWrites } from './pending-writes';
import type { TaskEngine, TaskEngines } from './task-engines';
import { deleteThrough, putIfAbsentThrough } from './read-modify-write';
import { restoresWithTimestamps, withTimestamps } from './timestamped-changelog';

/** Merge orders of pending writes over the engine's entries (nothing stored is skipped). */
const FORWARD: MergeOrder = { compare: (a, b) => Buffer.compare(a, b), skip: () => false };
const REVERSE: MergeOrder = { compare: (a, b) => Buffer.compare(b, a), skip: () => false };

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
 * - A committed batch is written on the engine's thread pool while processing goes on: until
 *   the engine acknowledged it, reads see it laid between the pending writes and the engine.
 *   The next commit, a flush (before a checkpoint) and a close wait for it; a failed write is
 *   thrown by the next commit or flush (the task then closes dirty and restores the tail).
 *
 * Errors: those of the engine below.
 */
export class TransactionalBytesStore implements BytesStore, TaskEngine {
  /** The open transaction's writes. */
  private pending = new PendingWrites();
  /** The last committed batch while the engine writes it (empty otherwise). */
  private applying = new PendingWrites();
  /** Settles (never rejects) once the engine wrote {@link applying}. */
  private applied: Promise<void> = Promise.resolve();
  /** Why the engine failed to write a committed batch (thrown by the next commit or flush). */
  private applyFailure: unknown;
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
    return this.pending.bytes;
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
    const write = this.held(key);
    return write !== undefined ? (write.value ?? undefined) : this.inner.get(key);
  }

  getMany(keys: readonly Buffer[]): (Buffer | undefined)[] {
    if (!this.holdsAny()) return this.inner.getMany(keys);
    const held = keys.map((key) => this.held(key));
    const missing = keys.filter((_, i) => held[i] === undefined);
    return overlay(held, missing.length > 0 ? this.inner.getMany(missing) : []);
  }

  async getAsync(key: Buffer): Promise<Buffer | undefined> {
    const write = this.held(key);
    return write !== undefined ? (write.value ?? undefined) : this.inner.getAsync(key);
  }

  async getManyAsync(keys: readonly Buffer[]): Promise<(Buffer | undefined)[]> {
    if (!this.holdsAny()) return this.inner.getManyAsync(keys);
    const held = keys.map((key) => this.held(key));
    const missing = keys.filter((_, i) => held[i] === undefined);
    return overlay(held, missing.length > 0 ? await this.inner.getManyAsync(missing) : []);
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
    for (const write of writes) this.pending.set(write);
  }

  putIfAbsent(key: Buffer, value: Buffer): Buffer | undefined {
    return putIfAbsentThrough(this, key, value);
  }

  delete(key: Buffer): Buffer | undefined {
    return deleteThrough(this, key);
  }

  range(from: Buffer | undefined, to: Buffer | undefined): IterableIterator<KeyValueBytes> {
    return this.merged(this.inner.range(from, to), from, to, false);
  }

  reverseRange(from: Buffer | undefined, to: Buffer | undefined): IterableIterator<KeyValueBytes> {
    return this.merged(this.inner.reverseRange(from, to), from, to, true);
  }

  prefixScan(prefix: Buffer): IterableIterator<KeyValueBytes> {
    const stored = this.inner.prefixScan(prefix);
    if (!this.holdsAny()) return stored;
    return this.layered(stored, (w) => w.inPrefix(prefix), FORWARD, this.guard);
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
    const [pending, applying] = [this.pending, this.applying].map((w) =>
      w.between(from, to, reverse),
    );
    const stored = await this.inner.rangeAsync(from, to, reverse);
    const order = reverse ? REVERSE : FORWARD;
    return [...mergeDirty(pending, mergeDirty(applying, stored[Symbol.iterator](), order), order)];
  }

  async prefixScanAsync(prefix: Buffer): Promise<KeyValueBytes[]> {
    const [pending, applying] = [this.pending, this.applying].map((w) => w.inPrefix(prefix));
    const stored = await this.inner.prefixScanAsync(prefix);
    return [
      ...mergeDirty(pending, mergeDirty(applying, stored[Symbol.iterator](), FORWARD), FORWARD),
    ];
  }

  /** Durability is the checkpoint's business (see the class): nothing to do on commit. */
  async flush(): Promise<void> {
    this.guard();
  }

  async close(): Promise<void> {
    await this.settle();
    this.engines.leave(this);
    await this.inner.close();
  }

  async destroy(): Promise<void> {
    await this.settle();
    this.engines.leave(this);
    await this.inner.destroy();
  }

  /**
   * Hands the transaction's writes to the engine as one batch, written on its thread pool when
   * it has one (reads see the batch meanwhile); resolves once the write started, after the
   * previous batch was written.
   *
   * @throws the engine's `ProcessorStateError` when it failed to write the previous batch.
   */
  async commitPending(): Promise<void> {
    await this.written();
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = this.applying;
    this.applying = batch;
    const writes = batch.inKeyOrder();
    if (!this.inner.putAllAsync) {
      this.inner.putAll(writes);
      batch.clear();
      return;
    }
    this.applied = this.inner.putAllAsync(writes).then(
      () => batch.clear(),
      (error: unknown) => {
        // The batch stays readable (it is committed): the task closes dirty and restores.
        this.applyFailure = error;
      },
    );
  }

  discardPending(): void {
    this.pending.clear();
  }

  /** @throws the engine's `ProcessorStateError` when it failed to write a committed batch. */
  async flushEngine(): Promise<void> {
    await this.written();
    if (this.inner.isOpen()) await this.inner.flush();
  }

  /** Waits for the committed batch in flight; throws why the engine failed to write it. */
  private async written(): Promise<void> {
    await this.applied;
    if (this.applyFailure !== undefined) throw this.applyFailure;
  }

  /** Before a close: the batch in flight lands (or fails), the open transaction's writes go. */
  private async settle(): Promise<void> {
    await this.applied;
    this.pending.clear();
    this.applying.clear();
  }

  private holdsAny(): boolean {
    return this.pending.size > 0 || this.applying.size > 0;
  }

  /** The newest write of `key` not in the engine yet: the transaction's, else the batch's. */
  private held(key: Buffer): BytesWrite | undefined {
    if (!this.holdsAny()) return undefined;
    const k = pendingKey(key);
    return this.pending.get(k) ?? this.applying.get(k);
  }

  private merged(
    stored: IterableIterator<KeyValueBytes>,
    from: Buffer | undefined,
    to: Buffer | undefined,
    reverse: boolean,
  ): IterableIterator<KeyValueBytes> {
    if (!this.holdsAny()) return stored;
    const order = reverse ? REVERSE : FORWARD;
    return this.layered(stored, (w) => w.between(from, to, reverse), order, this.guard);
  }

  /** The engine's entries under the committed batch in flight, under the transaction's writes. */
  private layered(
    stored: Iterator<KeyValueBytes>,
    select: (writes: PendingWrites) => DirtyEntry[],
    order: MergeOrder,
    guard: () => void,
  ): IterableIterator<KeyValueBytes> {
    const below =
      this.applying.size > 0 ? mergeDirty(select(this.applying), stored, order) : stored;
    return mergeDirty(select(this.pending), below, order, guard);
  }

  /** Fails a merged iterator (or a flush) once the engine is closed, as the engine does. */
  private readonly guard = (): void => {
    if (!this.inner.isOpen()) throw new StoreClosedError(this.name);
  };
}

/** Each key's value: its held write's, else the next of `stored` (the keys without one, in order). */
function overlay(
  held: readonly (BytesWrite | undefined)[],
  stored: readonly (Buffer | undefined)[],
): (Buffer | undefined)[] {
  let next = 0;
  return held.map((write) => (write === undefined ? stored[next++] : (write.value ?? undefined)));
}
