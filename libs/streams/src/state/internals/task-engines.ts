import type { WriteBehindBudget } from './write-behind-budget';

/** What the task's registry drives in each of its engines (see TransactionalBytesStore). */
export interface TaskEngine {
  /** Bytes of keys and values written since the last commit, not yet in the engine. */
  readonly uncommittedBytes: number;
  /** Bytes of the batch the engine is writing now (none: 0 or absent). */
  readonly writingBytes?: number;
  /**
   * Hands the pending writes to the engine as one batch (which may write it in the background,
   * reads seeing it meanwhile); rejects with the engine's error about an earlier batch.
   */
  commitPending(): Promise<void>;
  /** Drops the pending writes. */
  discardPending(): void;
  /** Makes what the engine holds durable, batches in flight included (a memtable flush on the addon). */
  flushEngine(): Promise<void>;
  /**
   * Resolves once the writes the engine holds behind (at-least-once) are in the engine, not
   * made durable; rejects with the engine's error about one of them.
   */
  writeHeld(): Promise<void>;
}

const TASK_ENGINES = Symbol('nest-streams.taskEngines');

/**
 * The persistent engines of one task (every RocksDB instance of its stores and window/session
 * segments), as the runtime drives them for checkpoints and exactly-once (when, in a commit:
 * `runtime/internals/commit/commit-protocol.ts`):
 *
 * - durability: a commit only flushes the record caches; the engines' memtables are flushed by
 *   {@link flush} right before a checkpoint is written (Kafka Streams' order), so a
 *   checkpoint never claims more than the files on disk hold and no WAL is needed;
 * - exactly-once: once {@link startTransactions} ran (after the restore), writes stay in each
 *   engine's pending batch, readable by processing, until the Kafka transaction that carries
 *   their changelog records commits ({@link commit}); a crash or an abort drops them
 *   ({@link abort}). RocksDB then only ever holds committed state, so an unclean stop under
 *   exactly_once_v2 restores only the tail after the last checkpoint.
 *
 * Engines enlist when they open and leave when they close. Store names are declared when their
 * supplier makes them, before any segment exists (`covers`). A window or session segment
 * created on the hot path opens in the background and holds its writes in memory until its
 * engine is open ({@link track}): {@link commit} and {@link flush} wait for those opens, so
 * that neither a transaction's writes nor a checkpoint's offsets can run ahead of the engines.
 */
export class TaskEngines {
  private readonly engines = new Set<TaskEngine>();
  private readonly stores = new Set<string>();
  /** Segment opens in flight; a failed one stays, so every later commit and flush throws. */
  private readonly opening = new Set<Promise<void>>();
  private transactional = false;

  /**
   * `maxUncommittedBytes`: the task's `statestore.uncommitted.max.bytes` (none: no limit), the
   * bound of the writes held back: for their transaction, or behind the engine's batch in flight.
   */
  constructor(
    private readonly maxUncommittedBytes = Number.POSITIVE_INFINITY,
    /** The instance's bound of the bytes every task's engines hold (see {@link WriteBehindBudget}). */
    private readonly budget?: WriteBehindBudget,
  ) {}

  /** Records that `storeName`'s persistent engines (all of them) are managed here. */
  declare(storeName: string): void {
    this.stores.add(storeName);
  }

  /** Whether every engine of `storeName` is managed here. */
  covers(storeName: string): boolean {
    return this.stores.has(storeName);
  }

  enlist(engine: TaskEngine): void {
    this.engines.add(engine);
    this.budget?.enlist(engine);
  }

  leave(engine: TaskEngine): void {
    this.engines.delete(engine);
    this.budget?.leave(engine);
  }

  /**
   * Records a segment that is opening in the background and buffers its writes meanwhile:
   * `ready` resolves once its engine is open and enlisted and the buffer is written to it.
   */
  track(ready: Promise<void>): void {
    this.opening.add(ready);
    ready.then(
      () => this.opening.delete(ready),
      () => undefined,
    );
  }

  /**
   * Resolves once every segment open tracked so far completed (see {@link track}).
   *
   * @throws the engine's `ProcessorStateError` of a segment that failed to open: its buffered
   *   writes are lost, so the task must close dirty and restore.
   */
  async whenOpen(): Promise<void> {
    while (this.opening.size > 0) await Promise.all(this.opening);
  }

  /** Whether writes wait for {@link commit} (exactly-once, after the restore). */
  get transactions(): boolean {
    return this.transactional;
  }

  /**
   * From now on, writes wait for {@link commit}: once the writes made so far (by the restore,
   * or a processor's `init`) are in the engines, so that no transaction can hold or drop them.
   *
   * @throws the engine's `ProcessorStateError` of a write that failed: close the task dirty.
   */
  async startTransactions(): Promise<void> {
    if (this.opening.size > 0) await this.whenOpen();
    for (const engine of this.engines) await engine.writeHeld();
    this.transactional = true;
  }

  /**
   * Whether the writes waiting for their transaction passed `statestore.uncommitted.max.bytes`
   * (the constructor's `maxUncommittedBytes`): commit now, without waiting for the interval.
   */
  overUncommittedLimit(): boolean {
    return this.transactional && this.uncommittedBytes() > this.maxUncommittedBytes;
  }

  /**
   * At-least-once: whether the writes held behind the engines (waiting for the batch each one
   * is writing) passed `statestore.uncommitted.max.bytes`. The stream thread then lets them
   * catch up ({@link writeHeld}) before it processes more: a disk slower than the processing
   * (a RocksDB write stall) holds the processing back instead of growing the memory. Also
   * when the instance's engines together hold more than its {@link WriteBehindBudget}.
   */
  overWriteBehindLimit(): boolean {
    if (this.transactional) return false;
    return this.uncommittedBytes() > this.maxUncommittedBytes || this.budget?.over() === true;
  }

  /**
   * Resolves once every engine wrote what it held behind when called (at-least-once), and,
   * when the instance holds more than its {@link WriteBehindBudget}, once every engine of the
   * instance did.
   *
   * @throws the engine's `ProcessorStateError` of a write that failed: close the task dirty.
   */
  async writeHeld(): Promise<void> {
    for (const engine of this.engines) await engine.writeHeld();
    if (!this.transactional && this.budget?.over() === true) await this.budget.writeHeld();
  }

  /** Bytes written since the last commit, over every engine. */
  uncommittedBytes(): number {
    let bytes = 0;
    for (const engine of this.engines) bytes += engine.uncommittedBytes;
    return bytes;
  }

  /**
   * Hands every engine's pending writes to it, one batch per engine (call once the Kafka
   * transaction committed), after the segments opening meanwhile wrote their buffers to their
   * engines' pending writes. An engine may write its batch in the background (reads see it
   * meanwhile; its next commit and {@link flush} wait for it). Throws the engine's
   * `ProcessorStateError` (about this batch or the one before): the state is then behind the
   * changelog; close the task dirty so that it restores the tail.
   */
  async commit(): Promise<void> {
    if (this.opening.size > 0) await this.whenOpen();
    for (const engine of this.engines) await engine.commitPending();
  }

  /** Drops every pending write (the transaction aborted, or the task closes dirty). */
  abort(): void {
    for (const engine of this.engines) engine.discardPending();
  }

  /**
   * Makes every write made before the call durable (before a checkpoint): waits for the
   * segments still opening, then flushes every engine. Throws the engine's
   * `ProcessorStateError`: the checkpoint must not be written.
   */
  async flush(): Promise<void> {
    if (this.opening.size > 0) await this.whenOpen();
    for (const engine of [...this.engines]) await engine.flushEngine();
  }

  /**
   * `configs` with this registry attached (not enumerable: config setters never see it),
   * handed to the task's stores as their application configs.
   */
  attachTo<T extends object>(configs: T): T {
    const copy = { ...configs };
    Object.defineProperty(copy, TASK_ENGINES, { value: this, enumerable: false });
    return copy;
  }

  /** The registry attached to a task's configs, if any. */
  static of(configs: object): TaskEngines | undefined {
    const engines = (configs as { [TASK_ENGINES]?: unknown })[TASK_ENGINES];
    return engines instanceof TaskEngines ? engines : undefined;
  }
}
