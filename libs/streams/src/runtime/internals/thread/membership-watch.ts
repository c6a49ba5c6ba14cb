import { isMembershipLostError } from '../commit/commit-failure';

/**
 * Whether a member can still count on its assignment. The group coordinator drops a member it
 * has not heard from for `session.timeout.ms` and gives its partitions to others; the member
 * learns of it only from its next answered request. Until then its stores fall behind the new
 * owner's, so reading them as the active copy would answer with counts below what is committed.
 * A member that has had no heartbeat answered for longer than the session timeout (outside a
 * rebalance it is taking part in) is in doubt until it is assigned again, or a heartbeat is
 * answered by a broker that the others name the group's coordinator: a broker that hung while
 * the coordination moved answers the heartbeats queued at it, the moment it resumes, from the
 * group as it was before the hang ("still a member" of a group that dropped it).
 */
export class MembershipWatch {
  private confirmedAt = Date.now();
  private joining = false;
  private inDoubt = false;
  /** Counts the doubts: a confirmation that outlived its doubt clears no later one. */
  private doubts = 0;
  /** A check of the coordinator that answered a heartbeat, while in doubt; one at a time. */
  private confirming = false;
  /** The doubt whose unconfirmed heartbeat answer was said (once per doubt). */
  private saidUnconfirmed = -1;

  /**
   * @param sessionTimeoutMs the member's `session.timeout.ms`.
   * @param tasks told when the member falls into doubt and when it is confirmed again.
   * @param logger where both are said.
   * @param confirmCoordinator checks that the broker that answered the latest heartbeat is the
   *   group's coordinator (see `GroupConsumer.confirmHeartbeatCoordinator`), rejecting when
   *   not; absent: every answered heartbeat counts.
   */
  constructor(
    private readonly sessionTimeoutMs: number,
    private readonly tasks: { setMembershipInDoubt(inDoubt: boolean): void },
    private readonly logger: { warn(message: string): void },
    private readonly confirmCoordinator?: () => Promise<void>,
  ) {}

  /**
   * The group refused the member's commit: when it no longer knows the member (not when it is
   * only rebalancing), the member is in doubt at once, until it is assigned again.
   */
  refused(error: unknown): void {
    if (this.inDoubt || !isMembershipLostError(error)) return;
    this.doubt();
    this.logger.warn(
      `the group no longer counts this member (${String(error)}): queries stop reading its ` +
        'tasks as the active copy until it is assigned again',
    );
  }

  /**
   * A heartbeat was answered. Outside a doubt it counts at once. In doubt it counts once the
   * broker that answered is confirmed as the group's coordinator; until then the member stays in
   * doubt (the first refusal of a doubt is said).
   */
  heartbeatAnswered(): void {
    if (!this.inDoubt || !this.confirmCoordinator) {
      this.confirmed();
      return;
    }
    if (this.confirming) return;
    this.confirming = true;
    const doubt = this.doubts;
    this.confirmCoordinator()
      .then(
        () => {
          if (this.doubts === doubt && this.inDoubt) this.confirmed();
        },
        (error: unknown) => {
          if (this.saidUnconfirmed === doubt || this.doubts !== doubt || !this.inDoubt) return;
          this.saidUnconfirmed = doubt;
          this.logger.warn(
            `a heartbeat was answered, but its broker is not confirmed as the group's ` +
              `coordinator (${String(error)}): the answer may come from a broker that hung ` +
              'while the group moved; queries still read no active copy of its tasks',
          );
        },
      )
      .finally(() => (this.confirming = false));
  }

  /** The member was assigned a generation's partitions (or a heartbeat confirmed it). */
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
    this.doubt();
    this.logger.warn(
      `no heartbeat answered for ${silentMs} ms (session.timeout.ms ${this.sessionTimeoutMs}): ` +
        "the group may have given this member's tasks to another; queries stop reading them " +
        'as the active copy until it answers',
    );
  }

  private doubt(): void {
    this.inDoubt = true;
    this.doubts++;
    this.tasks.setMembershipInDoubt(true);
  }
}
