/** What the budget reads of an engine (a `TaskEngine`). */
export interface HeldWrites {
  /** Bytes written and not handed to the engine yet. */
  readonly uncommittedBytes: number;
  /** Bytes of the batch the engine is writing now. */
  readonly writingBytes?: number;
  /** Resolves once what the engine held when called is written. */
  writeHeld(): Promise<void>;
}

/**
 * The bound of an instance's write-behind: the bytes its RocksDB engines hold in memory
 * waiting to be written (every task's pending writes and the batches being written on the
 * engines' thread pool), whatever the number of tasks, stores and segments. Past `maxBytes`, a
 * stream thread waits for the engines to catch up before it processes more (see
 * `TaskEngines.overWriteBehindLimit`): a disk slower than the processing holds the processing
 * back instead of growing the memory.
 */
export class WriteBehindBudget {
  private readonly engines = new Set<HeldWrites>();

  constructor(readonly maxBytes: number) {}

  enlist(engine: HeldWrites): void {
    this.engines.add(engine);
  }

  leave(engine: HeldWrites): void {
    this.engines.delete(engine);
  }

  /** Bytes every engine of the instance holds now, pending and being written. */
  heldBytes(): number {
    let bytes = 0;
    for (const engine of this.engines)
      bytes += engine.uncommittedBytes + (engine.writingBytes ?? 0);
    return bytes;
  }

  /** Whether the instance holds more than {@link maxBytes}. */
  over(): boolean {
    return this.heldBytes() > this.maxBytes;
  }

  /**
   * Resolves once every engine wrote what it held when called.
   *
   * @throws the engine's `ProcessorStateError` of a write that failed (the task owning it closes
   *   dirty at its next commit or flush; the waiting thread's task sees the same error there).
   */
  async writeHeld(): Promise<void> {
    for (const engine of [...this.engines]) await engine.writeHeld();
  }
}
