import type { Admin } from 'kafkajs';

/** A window of the run (join, leave...): `[start, end]` in epoch ms. */
export interface PhaseWindow {
  readonly name: string;
  readonly start: number;
  readonly end: number;
}

/**
 * When each partition was seen to make progress (epoch ms), and the pauses between. Fed by a
 * sampler: {@link PartitionProgress} (committed offsets) or {@link TaskActivity} (store writes).
 */
export class AdvanceSeries {
  private readonly advances = new Map<number, number[]>();

  constructor(private readonly partitions: number) {}

  /** Records that `partition` was seen to advance at `at`. */
  advanced(partition: number, at: number): void {
    const list = this.advances.get(partition) ?? [];
    list.push(at);
    this.advances.set(partition, list);
  }

  /** True once every partition advanced after `since` (epoch ms). */
  allAdvancedSince(since: number): boolean {
    for (let p = 0; p < this.partitions; p++) {
      const list = this.advances.get(p) ?? [];
      if (list.length === 0 || list[list.length - 1] <= since) return false;
    }
    return true;
  }

  /**
   * The longest pause of each partition in `window`, in ms: the longest time between two
   * consecutive advances, the window's start and end counting as advances (a partition that
   * never advanced in the window paused for all of it). Events are produced to every partition
   * throughout, so a partition that stands still had records waiting.
   */
  longestPauses(window: PhaseWindow): Map<number, number> {
    const result = new Map<number, number>();
    for (let p = 0; p < this.partitions; p++) {
      const inside = (this.advances.get(p) ?? []).filter((t) => t > window.start && t < window.end);
      const points = [window.start, ...inside, window.end];
      let longest = 0;
      for (let i = 1; i < points.length; i++) {
        longest = Math.max(longest, points[i] - points[i - 1]);
      }
      result.set(p, longest);
    }
    return result;
  }
}

/**
 * The application's progress per input partition, seen from outside: its consumer group's
 * committed offsets (group = application id), read every `intervalMs`. With a short commit
 * interval (the scenario sets `COMMIT_INTERVAL_MS=200`) a task that processes also commits
 * every 200 ms, so the committed offset of its partition moves with its processing.
 *
 * It is also the lower bound the query rules need: an active copy must reflect every event
 * below the committed offset read before the request was sent.
 */
export class PartitionProgress {
  /** Highest committed offset read per partition (offsets committed by a group only grow). */
  private readonly highest = new Map<number, number>();
  /** Per partition, when a read first saw its committed offset higher than before. */
  readonly series: AdvanceSeries;
  /** Reads that failed (the broker did not answer in time); they leave a hole in the series. */
  failedReads = 0;
  /** Reads made, and the longest time between two completed reads (the sampling resolution). */
  reads = 0;
  longestReadGapMs = 0;
  private lastReadAt = 0;
  private timer: NodeJS.Timeout | undefined;
  private polling: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly admin: Admin,
    private readonly groupId: string,
    private readonly topic: string,
    partitions: number,
    private readonly intervalMs = 100,
  ) {
    this.series = new AdvanceSeries(partitions);
  }

  /** Committed offset of a partition as last read; 0 when nothing is committed yet. */
  committed(partition: number): number {
    return this.highest.get(partition) ?? 0;
  }

  start(): void {
    const tick = (): void => {
      if (this.stopped) return;
      this.polling = this.poll()
        .catch(() => {
          this.failedReads++;
        })
        .finally(() => {
          if (!this.stopped) this.timer = setTimeout(tick, this.intervalMs);
        });
    };
    tick();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.polling;
  }

  private async poll(): Promise<void> {
    const [entry] = await this.admin.fetchOffsets({ groupId: this.groupId, topics: [this.topic] });
    const now = Date.now();
    this.reads++;
    if (this.lastReadAt > 0)
      this.longestReadGapMs = Math.max(this.longestReadGapMs, now - this.lastReadAt);
    this.lastReadAt = now;
    for (const { partition, offset } of entry?.partitions ?? []) {
      const value = Number(offset);
      if (value < 0 || value <= (this.highest.get(partition) ?? 0)) continue;
      this.highest.set(partition, value);
      this.series.advanced(partition, now);
    }
  }
}
