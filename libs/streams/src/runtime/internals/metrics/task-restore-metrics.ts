import type { StateRestoreListener } from '../../state-restore-listener';

/**
 * What a task's restore has done and has left (Kafka Streams' task-level restore metrics,
 * KIP-869): records restored, and changelog offsets still to read, kept by listening to the
 * restore (the user's listener, when there is one, hears everything as before).
 */
export class TaskRestoreMetrics {
  /** Changelog records written to the task's stores by restores. */
  restored = 0;
  /** The next offset to read and the end, per changelog partition being restored. */
  private readonly partitions = new Map<string, { position: number; end: number }>();

  /** Offsets left to read over every partition still restoring (0 once restored). */
  get remaining(): number {
    let sum = 0;
    for (const { position, end } of this.partitions.values()) sum += Math.max(0, end - position);
    return sum;
  }

  /** A listener that counts, then calls `listener` (when given) with the same arguments. */
  listener(listener: StateRestoreListener | undefined): StateRestoreListener {
    const key = (tp: { topic: string; partition: number }) => `${tp.topic}\u0000${tp.partition}`;
    return {
      onRestoreStart: (tp, store, start, end) => {
        this.partitions.set(key(tp), { position: start, end });
        listener?.onRestoreStart?.(tp, store, start, end);
      },
      onBatchRestored: (tp, store, batchEndOffset, n) => {
        this.restored += n;
        const p = this.partitions.get(key(tp));
        if (p) p.position = Math.max(p.position, batchEndOffset + 1);
        listener?.onBatchRestored?.(tp, store, batchEndOffset, n);
      },
      onRestoreEnd: (tp, store, total) => {
        this.partitions.delete(key(tp));
        listener?.onRestoreEnd?.(tp, store, total);
      },
    };
  }
}
