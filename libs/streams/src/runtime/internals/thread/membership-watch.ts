import { isMembershipLostError } from '../commit/commit-failure';

/**
 * Whether a member can still count on its assignment. The group coordinator drops a member it
 * has not heard from for `session.timeout.ms` and gives its partitions to others; the member
 * learns of it only from its next answered request. Until then its stores fall behind the new
 * owner's, so reading them as the active copy would answer with counts below what is committed.
 * A member that has had no heartbeat answered for longer than the session timeout (outside a
 * rebalance it is taking part in) is in doubt until the next answer, join or assignment.
 */
export class MembershipWatch {
  private confirmedAt = Date.now();
  private joining = false;
  private inDoubt = false;

  /**
   * @param sessionTimeoutMs the member's `session.timeout.ms`.
   * @param tasks told when the member falls into doubt and when it is confirmed again.
   * @param logger where both are said.
   */
  constructor(
    private readonly sessionTimeoutMs: number,
    private readonly tasks: { setMembershipInDoubt(inDoubt: boolean): void },
    private readonly logger: { warn(message: string): void },
  ) {}

  /**
   * The group refused the member's commit: when it no longer knows the member (not when it is
   * only rebalancing), the member is in doubt at once, until it is assigned again.
   */
  refused(error: unknown): void {
    if (this.inDoubt || !isMembershipLostError(error)) return;
    this.inDoubt = true;
    this.tasks.setMembershipInDoubt(true);
    this.logger.warn(
      `the group no longer counts this member (${String(error)}): queries stop reading its ` +
        'tasks as the active copy until it is assigned again',
    );
  }

  /** A heartbeat was answered, or the member was assigned a generation's partitions. */
  confirmed(): void {
    this.confirmedAt = Date.now();
    this.joining = false;
    if (!this.inDoubt) return;
    this.inDoubt = false;
    this.tasks.setMembershipInDoubt(false);
    this.logger.warn('the group answered again: queries read the active tasks again');
  }

  /** The member is (re)joining the group: no heartbeats until it is assigned. */
  joiningGroup(): void {
    this.joining = true;
  }

  /** Looks at the time since the last confirmation; `holdsTasks`: only then does it matter. */
  check(holdsTasks: boolean): void {
    if (this.inDoubt || this.joining || !holdsTasks) return;
    const silentMs = Date.now() - this.confirmedAt;
    if (silentMs <= this.sessionTimeoutMs) return;
    this.inDoubt = true;
    this.tasks.setMembershipInDoubt(true);
    this.logger.warn(
      `no heartbeat answered for ${silentMs} ms (session.timeout.ms ${this.sessionTimeoutMs}): ` +
        "the group may have given this member's tasks to another; queries stop reading them " +
        'as the active copy until it answers',
    );
  }
}
