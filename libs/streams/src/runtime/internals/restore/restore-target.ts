import type { ChangelogRecord } from '../../../processor/state-store-context';

// The restore's contract with the stores: what a store gives it to restore, and what it
// reports back (see StateRestorer).

/** One store's changelog partition to restore. */
export interface RestoreTarget {
  readonly storeName: string;
  readonly topic: string;
  readonly partition: number;
  /** The first offset to read (checkpoint + 1); undefined reads from the log start. */
  readonly startOffset: number | undefined;
  /**
   * Writes one polled batch to the engine as one write batch (no caching, no logging);
   * `lastOffset` is the offset of its last record.
   */
  restoreBatch(records: readonly ChangelogRecord[], lastOffset: number): void | Promise<void>;
  /** Empties the store (when its checkpoint is outside the log: a full restore follows). */
  wipe(): Promise<void>;
}

/** How one partition's restore went. */
export interface RestoreResult {
  readonly storeName: string;
  readonly topic: string;
  readonly partition: number;
  /** The first offset read. */
  readonly startOffset: number;
  /** The log end offset captured at the start (exclusive). */
  readonly endOffset: number;
  /** Records written to the store. */
  readonly restored: number;
  /**
   * The offset the store is now consistent with (`endOffset - 1`), for the checkpoint;
   * undefined when the changelog has never had a record.
   */
  readonly lastOffset: number | undefined;
  /** The store was wiped (its checkpoint, or its position during the restore, was outside the log). */
  readonly wiped: boolean;
}
