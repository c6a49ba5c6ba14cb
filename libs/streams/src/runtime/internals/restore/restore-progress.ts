import { ChangelogRestoreError } from '../../../errors/changelog-restore.error';
import type { ChangelogRecord } from '../../../processor/state-store-context';
import type { StateRestoreListener } from '../../state-restore-listener';
import type { RestoreTarget } from './restore-target';

/** One changelog partition being restored: its bounds and how far it got. */
export interface PartitionRestore {
  readonly target: RestoreTarget;
  readonly key: string;
  /** The first offset read (the log start, after a wipe). */
  start: number;
  readonly end: number;
  wiped: boolean;
  /** The next offset to apply: everything before it is in the store. */
  position: number;
  restored: number;
  done: boolean;
}

/** A record as a reader returned it, before the restore picks the store records. */
export interface RestoreCandidate {
  readonly offset: number | string;
  readonly key: Buffer | null;
  readonly value: Buffer | null;
  readonly timestamp: number | string;
}

/**
 * The bookkeeping of one restore pass over some partitions, whatever reads them: applies
 * fetched records to the stores (only offsets in `[position, end)`, keyed records only),
 * moves positions (markers and aborted records included), reports to the listener, settles
 * {@link finished} when every partition reached its end, and fails the pass on a store or
 * listener error, an abort, or no progress for `stallTimeoutMs`.
 */
export class RestoreProgress {
  /** Resolves when every partition is done; rejects with the pass's first failure. */
  readonly finished: Promise<void>;
  failure: Error | undefined;
  private settle!: { resolve: () => void; reject: (error: Error) => void };
  private remaining: number;
  private lastProgress = Date.now();
  private readonly stallCheck: NodeJS.Timeout;
  private readonly onAbort = (): void => this.fail(undefined, 'the restore was aborted');

  constructor(
    readonly pending: readonly PartitionRestore[],
    private readonly listener: StateRestoreListener,
    private readonly stallTimeoutMs: number,
    private readonly signal: AbortSignal | undefined,
    /** Called when a partition is done (a group consumer pauses it). */
    private readonly onPartitionDone: (r: PartitionRestore) => void = () => undefined,
  ) {
    this.remaining = pending.filter((r) => !r.done).length;
    this.finished = new Promise<void>((resolve, reject) => {
      this.settle = { resolve, reject };
    });
    this.finished.catch(() => undefined); // awaited by the reader's loop, or not at all
    if (this.remaining === 0) this.settle.resolve();
    signal?.addEventListener('abort', this.onAbort, { once: true });
    if (signal?.aborted) this.onAbort();
    this.stallCheck = setInterval(() => this.checkStall(), Math.min(1000, stallTimeoutMs));
    this.stallCheck.unref();
  }

  /** Restarts the stall clock (once a reader is ready to fetch). */
  touch(): void {
    this.lastProgress = Date.now();
  }

  fail(r: PartitionRestore | undefined, message: string, cause?: unknown): void {
    if (this.failure) return;
    const at = r ?? this.pending[0];
    this.failure = new ChangelogRestoreError(at.target.topic, at.target.partition, message, {
      cause,
    });
    this.settle.reject(this.failure);
  }

  /**
   * Writes the store records among `fetched` to the partition's store as one batch, then moves
   * its position past `lastOffset` (the last offset the reader returned, whatever it was).
   */
  async apply(
    r: PartitionRestore,
    fetched: readonly RestoreCandidate[],
    lastOffset: number,
  ): Promise<void> {
    if (r.done || this.failure) return;
    const records: ChangelogRecord[] = [];
    let lastApplied = -1;
    for (const record of fetched) {
      const offset = Number(record.offset);
      if (offset < r.position) continue; // before the position (a batch fetched whole)
      if (offset >= r.end) break; // past the end captured at the start
      if (record.key === null) continue; // not a store record
      records.push(record as ChangelogRecord);
      lastApplied = offset;
    }
    if (records.length > 0) {
      try {
        await r.target.restoreBatch(records, lastApplied);
        if (this.failure) return;
        r.restored += records.length;
        this.listener.onBatchRestored?.(
          { topic: r.target.topic, partition: r.target.partition },
          r.target.storeName,
          lastApplied,
          records.length,
        );
      } catch (error) {
        this.fail(r, `writing a batch to store ${r.target.storeName} failed`, error);
        return;
      }
    }
    this.advance(r, Math.min(lastOffset, r.end - 1));
  }

  /** Moves the position past `lastOffset` (a batch of markers or aborted records only). */
  advance(r: PartitionRestore, lastOffset: number): void {
    if (r.done || this.failure || lastOffset + 1 <= r.position) return;
    r.position = lastOffset + 1;
    this.lastProgress = Date.now();
    if (r.position < r.end) return;
    r.done = true;
    this.onPartitionDone(r);
    try {
      this.listener.onRestoreEnd?.(
        { topic: r.target.topic, partition: r.target.partition },
        r.target.storeName,
        r.restored,
      );
    } catch (error) {
      this.fail(r, 'the restore listener failed', error);
      return;
    }
    if (--this.remaining === 0) this.settle.resolve();
  }

  /** Stops the stall clock and the abort listener. */
  dispose(): void {
    clearInterval(this.stallCheck);
    this.signal?.removeEventListener('abort', this.onAbort);
  }

  private checkStall(): void {
    if (Date.now() - this.lastProgress < this.stallTimeoutMs) return;
    const stuck = this.pending.find((r) => !r.done);
    this.fail(
      stuck,
      `no progress for ${this.stallTimeoutMs} ms (position ${stuck?.position}, end offset ${stuck?.end})`,
    );
  }
}
