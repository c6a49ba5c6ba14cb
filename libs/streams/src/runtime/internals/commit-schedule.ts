/** The longest a rebalance holds an exactly-once commit back (half the transaction timeout). */
const MAX_HOLD_MS = 5_000;

/**
 * When a stream thread commits: every `commit.interval.ms`, and under cooperative rebalancing
 * with exactly-once, not while the member's JoinGroup is out: the group's generation may change
 * under a transaction's offsets then, which the coordinator would refuse (and every task would
 * close dirty). Such commits wait for the assignment, at most 5 s (half the 10 s transaction
 * timeout), then go ahead anyway. `holdOnRebalance` false (eager rebalancing, which commits
 * before the member rejoins, or at-least-once): never held.
 */
export class CommitSchedule {
  private last = Date.now();
  private holdSince: number | undefined;

  constructor(
    private readonly intervalMs: number,
    private readonly holdOnRebalance: boolean,
  ) {}

  /** The commit interval elapsed since the last commit. */
  due(now = Date.now()): boolean {
    return now - this.last >= this.intervalMs;
  }

  /** A commit starts now. */
  committing(now = Date.now()): void {
    this.last = now;
  }

  /** The member learned of a rebalance (or is about to rejoin). */
  rebalancing(): void {
    if (this.holdOnRebalance) this.holdSince ??= Date.now();
  }

  /** The assignment came. */
  assigned(): void {
    this.holdSince = undefined;
  }

  /** Whether a commit now should wait for the assignment. */
  holds(now = Date.now()): boolean {
    return this.holdSince !== undefined && now - this.holdSince < MAX_HOLD_MS;
  }
}
