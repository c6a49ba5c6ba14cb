import { StoreClosedError } from '../../errors/store-closed.error';
import type { ChangelogRecord } from '../../processor/state-store-context';
import type { BytesStore, BytesStoreCapabilities, BytesWrite, KeyValueBytes } from '../bytes-store';
import type { RocksDBStoreMetrics } from '../rocksdb-store-metrics';
import { assertBuffer } from './byte-range';
import { keyOrder, mergeDirty, overlayHeld, type DirtyEntry, type MergeOrder } from './cache-merge';
import { pendingKey, PendingWrites } from './pending-writes';
import type { TaskEngine, TaskEngines } from './task-engines';
import { deleteThrough, putIfAbsentThrough } from './read-modify-write';
import { restoresWithTimestamps, withTimestamps } from './timestamped-changelog';

/**
 * A task's persistent engine as its {@link TaskEngines} drives it (the store stack lays it over
 * each RocksDB instance inside a task, see `store-stack.ts`; the engine below is the RocksDB store).
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
 * - At-least-once (and under exactly-once before the transactions start), on an engine that
 *   writes on its pool (`putAllAsync`), writes are written behind: each `putAll` (a cache flush,
 *   an eviction) joins the pending writes, which go to the engine as one batch as soon as no
 *   other batch is being written; reads see both meanwhile. A flush (before a checkpoint) waits
 *   until every write made before it is in the engine, a close writes what is left, a destroy
 *   drops it. A failed write is thrown by the next write, flush or restore batch (the task then
 *   closes dirty and restores from the last checkpoint). An engine without `putAllAsync` is
 *   written synchronously.
 *
 * Errors: those of the engine below.
 */
export class TransactionalBytesStore implements BytesStore, TaskEngine {
  /** The open transaction's writes (at-least-once: those not handed to the engine yet). */
  private pending = new PendingWrites();
  /** The batch the engine is writing (empty otherwise, unless its write failed). */
  private applying = new PendingWrites();
  /** Settles (never rejects) once the engine wrote {@link applying}. */
  private applied: Promise<void> = Promise.resolve();
  private writing = false;
  /** Batches handed to the engine, and the last one it wrote (they are written in turn). */
  private batchesStarted = 0;
  private batchesWritten = 0;
  /** Why the engine failed to write a batch (thrown by the next commit, write or flush). */
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

  /** Bytes of the batch the engine is writing now (0 when none is). */
  get writingBytes(): number {
    return this.writing ? this.applying.bytes : 0;
  }

  async open(): Promise<void> {
    await this.inner.open();
    this.engines.enlist(this);
  }

  isOpen(): boolean {
    return this.inner.isOpen();
  }

  /** The engine's estimate, at least the batch in flight (counted once), plus the pending keys. */
  approximateNumEntries(): number {
    return Math.max(this.inner.approximateNumEntries(), this.applying.size) + this.pending.size;
  }

  get(key: Buffer): Buffer | undefined {
    const write = this.held(key);
    return write !== undefined ? (write.value ?? undefined) : this.inner.get(key);
  }

  getMany(keys: readonly Buffer[]): (Buffer | undefined)[] {
    if (!this.holdsAny()) return this.inner.getMany(keys);
    const held = keys.map((key) => this.held(key));
    const missing = keys.filter((_, i) => held[i] === undefined);
    return overlayHeld(held, missing.length > 0 ? this.inner.getMany(missing) : []);
  }

  async getAsync(key: Buffer): Promise<Buffer | undefined> {
    const write = this.held(key);
    return write !== undefined ? (write.value ?? undefined) : this.inner.getAsync(key);
  }

  async getManyAsync(keys: readonly Buffer[]): Promise<(Buffer | undefined)[]> {
    if (!this.holdsAny()) return this.inner.getManyAsync(keys);
    const held = keys.map((key) => this.held(key));
    const missing = keys.filter((_, i) => held[i] === undefined);
    return overlayHeld(held, missing.length > 0 ? await this.inner.getManyAsync(missing) : []);
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

  /**
   * Outside transactions (the restore), the engine's own asynchronous batch write, resolved
   * once the engine wrote it: in the engine's turn when nothing else is held, else behind what
   * is (writes made meanwhile land after it).
   */
  async putAllAsync(writes: readonly BytesWrite[]): Promise<void> {
    if (this.engines.transactions || !this.inner.putAllAsync) {
      this.putAll(writes);
      return;
    }
    if (this.writing || this.holdsAny()) {
      this.putAll(writes);
      await this.writtenThrough();
      return;
    }
    const write = this.startWrite(writes);
    this.inTurn(
      write,
      () => undefined,
      () => undefined, // the caller has the error (a failed restore closes the task)
    );
    await write;
  }

  putAll(writes: readonly BytesWrite[]): void {
    const behind = !this.engines.transactions;
    if (behind && !this.inner.putAllAsync) {
      this.inner.putAll(writes);
      return;
    }
    this.guard();
    if (behind && this.applyFailure !== undefined) throw this.applyFailure;
    for (const write of writes) {
      assertBuffer(write.key, 'key');
      if (write.value !== null) assertBuffer(write.value, 'value');
    }
    for (const write of writes) this.pending.set(write);
    if (behind) this.writeNext();
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
    return this.layered(stored, (w) => w.inPrefix(prefix), keyOrder(), this.guard);
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
    const order = keyOrder(reverse);
    return [...mergeDirty(pending, mergeDirty(applying, stored[Symbol.iterator](), order), order)];
  }

  async prefixScanAsync(prefix: Buffer): Promise<KeyValueBytes[]> {
    const [pending, applying] = [this.pending, this.applying].map((w) => w.inPrefix(prefix));
    const stored = await this.inner.prefixScanAsync(prefix);
    return [
      ...mergeDirty(
        pending,
        mergeDirty(applying, stored[Symbol.iterator](), keyOrder()),
        keyOrder(),
      ),
    ];
  }

  /** Durability is the checkpoint's business (see the class): nothing to do on commit. */
  async flush(): Promise<void> {
    this.guard();
  }

  /**
   * Waits for the batch in flight; at-least-once, first writes what is held (a failure is not
   * thrown: the checkpoint, written after a flush that waits for every earlier write, does not
   * claim it); under exactly-once the open transaction's writes are dropped.
   */
  async close(): Promise<void> {
    if (!this.engines.transactions) await this.writtenThrough().catch(() => undefined);
    await this.drop();
    this.engines.leave(this);
    await this.inner.close();
  }

  async destroy(): Promise<void> {
    await this.drop();
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
    if (!this.inner.putAllAsync) {
      this.inner.putAll(this.pending.list());
      this.pending.clear();
      return;
    }
    this.writeNext();
  }

  discardPending(): void {
    this.pending.clear();
  }

  /**
   * Makes durable every write made before the call (under exactly-once: every committed one).
   *
   * @throws the engine's `ProcessorStateError` when it failed to write a batch.
   */
  async flushEngine(): Promise<void> {
    await this.writtenThrough();
    if (this.inner.isOpen()) await this.inner.flush();
  }

  /**
   * Hands the pending writes to the engine as one batch, on its thread pool, unless a batch is
   * being written or one failed; at-least-once, the next batch follows when this one is written.
   */
  private writeNext(): void {
    if (this.writing || this.pending.size === 0 || this.applyFailure !== undefined) return;
    const batch = this.pending;
    this.pending = this.applying;
    this.applying = batch;
    this.inTurn(
      this.startWrite(batch.list()),
      () => batch.clear(),
      (error) => {
        // The batch stays readable: the task closes dirty and restores.
        this.applyFailure = error;
      },
    );
  }

  /** Makes `write` the batch in flight; at-least-once, the pending writes follow it. */
  private inTurn(
    write: Promise<void>,
    written: () => void,
    failed: (error: unknown) => void,
  ): void {
    const number = ++this.batchesStarted;
    this.writing = true;
    this.applied = write.then(written, failed).then(() => {
      this.batchesWritten = number;
      this.writing = false;
      if (!this.engines.transactions) this.writeNext();
    });
  }

  /** The engine's asynchronous write (its synchronous refusal, e.g. closed, as a rejection). */
  private startWrite(writes: readonly BytesWrite[]): Promise<void> {
    try {
      return this.inner.putAllAsync!(writes);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** Waits for the batch in flight; throws why the engine failed to write a batch. */
  private async written(): Promise<void> {
    await this.applied;
    if (this.applyFailure !== undefined) throw this.applyFailure;
  }

  /** @throws the engine's `ProcessorStateError` when it failed to write a batch. */
  writeHeld(): Promise<void> {
    return this.writtenThrough();
  }

  /**
   * Waits until every write held now is in the engine: the batch in flight and, outside
   * transactions, the pending writes (under exactly-once those wait for their commit).
   */
  private async writtenThrough(): Promise<void> {
    if (this.engines.transactions) return this.written();
    const target = this.batchesStarted + (this.pending.size > 0 ? 1 : 0);
    while (this.batchesWritten < target) {
      if (this.applyFailure !== undefined) throw this.applyFailure;
      this.writeNext();
      await this.applied;
    }
    if (this.applyFailure !== undefined) throw this.applyFailure;
  }

  /** Before a close or destroy: the batch in flight lands (or fails), what is held goes. */
  private async drop(): Promise<void> {
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
    const order = keyOrder(reverse);
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
