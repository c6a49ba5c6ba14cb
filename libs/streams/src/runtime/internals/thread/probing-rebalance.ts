/**
 * Triggers the probing rebalance the group leader asked for (warm-up replicas placed,
 * so warmed-up tasks can move to their intended owner): once per probing time, since a rejoin
 * that changed nothing hands the same assignment, with the same time, back.
 */
export class ProbingRebalance {
  private timer: NodeJS.Timeout | undefined;
  private probedAt: number | undefined;

  constructor(private readonly probe: () => Promise<void>) {}

  /** Replaces the pending probe with one at `at` (epoch ms; `undefined`: none). */
  schedule(at: number | undefined): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (at === undefined || at === this.probedAt) return;
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        this.probedAt = at;
        void this.probe();
      },
      Math.max(0, at - Date.now()),
    );
    this.timer.unref();
  }

  /** Drops the pending probe (the thread stops). */
  cancel(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
