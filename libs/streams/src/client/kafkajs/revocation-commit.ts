import { beforeGroupRejoin } from './group-rejoin';

/**
 * Commits a stream thread's tasks before kafkajs rejoins the group, while the member's
 * generation may still commit: Kafka's eager `onPartitionsRevoked`, which kafkajs lacks
 * ({@link beforeGroupRejoin}). Without it the commit comes after the new generation formed,
 * and the partitions' next owners may read the old committed offsets first and process again
 * what this member already processed (duplicates under at-least-once). The rejoin waits for the
 * commit at most half the session timeout.
 */
export class RevocationCommit {
  private remove: (() => void) | undefined;

  constructor(
    private readonly config: () => { applicationId: string; sessionTimeoutMs: number },
    private readonly commit: () => Promise<void>,
  ) {}

  /** The member joined a generation as `memberId`: commit before its next rejoin. */
  joined(memberId: string): void {
    this.remove?.();
    const { applicationId, sessionTimeoutMs } = this.config();
    this.remove = beforeGroupRejoin(applicationId, memberId, sessionTimeoutMs / 2, this.commit);
  }

  /** The thread stops: no commit on a later rejoin. */
  stop(): void {
    this.remove?.();
    this.remove = undefined;
  }
}
