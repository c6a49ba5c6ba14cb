import type { Admin } from 'kafkajs';

/** Committed offsets of the input topic's partitions as read at one moment. */
export interface CommittedSnapshot {
  /** When the read completed (epoch ms): the offsets were committed at least by then. */
  readonly at: number;
  /** Partition to committed offset (the next record to process); absent: nothing committed. */
  readonly offsets: ReadonlyMap<number, number>;
}

/**
 * Polls the application's committed input offsets (consumer group = application id). Offsets a
 * group committed only grow, so the latest snapshot, read before a request starts, is a lower
 * bound of what every active copy had processed when the request started: an active store's
 * answer must reflect at least the user's events below it.
 */
export class ChaosCommittedOffsets {
  private snapshot: CommittedSnapshot = { at: 0, offsets: new Map() };
  /** The previous background read, to compare the next one with. */
  private previous: ReadonlyMap<number, number> | undefined;
  /**
   * Background reads where a partition's committed offset went below the previous read's, as
   * `p<partition> <before> -> <after>`. The group's owners only commit forward; a member that
   * missed a rebalance (a zombie) committing where it stopped moves an offset back.
   */
  readonly regressions: string[] = [];
  private timer: NodeJS.Timeout | undefined;
  private polling: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly admin: Admin,
    private readonly groupId: string,
    private readonly topic: string,
    private readonly intervalMs = 300,
  ) {}

  /** The latest snapshot (read completely before this call). */
  latest(): CommittedSnapshot {
    return this.snapshot;
  }

  /** Committed offset of a partition in the latest snapshot; 0 when none. */
  committed(partition: number): number {
    return this.snapshot.offsets.get(partition) ?? 0;
  }

  /** Starts polling in the background. */
  start(): void {
    const tick = (): void => {
      if (this.stopped) return;
      this.polling = this.poll()
        .then((read) => this.compareWithPrevious(read.offsets))
        .catch(() => undefined)
        .finally(() => {
          if (!this.stopped) this.timer = setTimeout(tick, this.intervalMs);
        });
    };
    tick();
  }

  /** Reads the committed offsets now (also updates the latest snapshot). */
  async poll(): Promise<CommittedSnapshot> {
    const [entry] = await this.admin.fetchOffsets({ groupId: this.groupId, topics: [this.topic] });
    const offsets = new Map<number, number>();
    for (const { partition, offset } of entry?.partitions ?? []) {
      const value = Number(offset);
      if (value >= 0) offsets.set(partition, value);
    }
    const snapshot = { at: Date.now(), offsets };
    // Keep the higher of two reads per partition: a slower read must not lower the bound.
    const merged = new Map(this.snapshot.offsets);
    for (const [p, o] of offsets) merged.set(p, Math.max(o, merged.get(p) ?? 0));
    this.snapshot = { at: snapshot.at, offsets: merged };
    return snapshot;
  }

  private compareWithPrevious(offsets: ReadonlyMap<number, number>): void {
    for (const [partition, offset] of offsets) {
      const before = this.previous?.get(partition);
      if (before !== undefined && offset < before) {
        this.regressions.push(`p${partition} ${before} -> ${offset}`);
      }
    }
    this.previous = offsets;
  }

  /** Stops polling (waits for a read in flight). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.polling;
  }
}
