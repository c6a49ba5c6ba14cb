import { afterGroupMembershipLost, beforeGroupRejoin } from './group-rejoin';

/**
 * Commits a stream thread's tasks before kafkajs rejoins the group, while the member's
 * generation may still commit: Kafka's eager `onPartitionsRevoked`, which kafkajs lacks
 * ({@link beforeGroupRejoin}). Without it the commit comes after the new generation formed,
 * and the partitions' next owners may read the old committed offsets first and process again
 * what this member already processed (duplicates under at-least-once). When the coordinator
 * forgot the member instead (its session expired: kafkajs rejoins on UNKNOWN_MEMBER_ID without
 * telling), its tasks are dropped uncommitted first ({@link afterGroupMembershipLost}: Kafka's
 * `onPartitionsLost`), so they neither commit nor answer queries as the active copy of
 * partitions others may own already. The rejoin waits for either at most half the session
 * timeout.
 */
export class RevocationCommit {
  private remove: (() => void)[] = [];

  constructor(
    private readonly config: () => { applicationId: string; sessionTimeoutMs: number },
    private readonly commit: () => Promise<void>,
    private readonly lost: () => Promise<void>,
  ) {}

  /**
   * The member joined a generation as `memberId`: commit before its next rejoin, drop its tasks
   * if the coordinator forgets it.
   */
  joined(memberId: string): void {
    this.stop();
    const { applicationId, sessionTimeoutMs } = this.config();
    this.remove = [
      beforeGroupRejoin(applicationId, memberId, sessionTimeoutMs / 2, this.commit),
      afterGroupMembershipLost(applicationId, memberId, sessionTimeoutMs / 2, this.lost),
    ];
  }

  /** The thread stops: nothing runs on a later rejoin. */
  stop(): void {
    for (const remove of this.remove) remove();
    this.remove = [];
  }
}
