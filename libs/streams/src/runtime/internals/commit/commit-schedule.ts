/** The longest a rebalance holds an exactly-once commit back (half the transaction timeout). */
export const MAX_EXACTLY_ONCE_HOLD_MS = 5_000;

/**
 * When a stream thread commits: every `commit.interval.ms`, but under cooperative rebalancing
 * not while the member's JoinGroup is out (as Kafka Streams skips commits while a rebalance is
 * in progress): the coordinator answers a group's requests on one connection in order, so an
 * offset commit sent then waits for the JoinGroup (for the whole group to rejoin), and the
 * batch that sent it with it; under exactly-once the generation may also change under the
 * transaction's offsets, which the coordinator would refuse (every task would close dirty).
 * Held commits wait for the assignment; under exactly-once at most `maxHoldMs` (5 s, half the
 * 10 s transaction timeout), then go ahead anyway. `holdOnRebalance` false (eager rebalancing,
 * which commits before the member rejoins): never held.
 */
export class CommitSchedule {
  private last = Date.now();
  private holdSince: number | undefined;

  constructor(
    private readonly intervalMs: number,
    private readonly holdOnRebalance: boolean,
    private readonly maxHoldMs = Number.POSITIVE_INFINITY,
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
    return this.holdSince !== undefined && now - this.holdSince < this.maxHoldMs;
  }
}
