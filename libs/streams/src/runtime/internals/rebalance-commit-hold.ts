/** The longest a rebalance holds an exactly-once commit back (half the transaction timeout). */
const MAX_HOLD_MS = 5_000;

/**
 * Cooperative rebalancing under exactly-once: while the member's JoinGroup is out, the group's
 * generation may change under a transaction's offsets, which the coordinator would then refuse
 * (and every task would close dirty). Commits wait for the assignment, at most 5 s (half the
 * 10 s transaction timeout), then go ahead anyway. Inactive (never holds) when `enabled` is
 * false: eager rebalancing commits before the member rejoins instead.
 */
export class RebalanceCommitHold {
  private since: number | undefined;

  constructor(private readonly enabled: boolean) {}

  /** The member learned of a rebalance (or is about to rejoin). */
  rebalancing(): void {
    if (this.enabled) this.since ??= Date.now();
  }

  /** The assignment came. */
  assigned(): void {
    this.since = undefined;
  }

  /** Whether a commit now should wait. */
  holds(now = Date.now()): boolean {
    return this.since !== undefined && now - this.since < MAX_HOLD_MS;
  }
}
