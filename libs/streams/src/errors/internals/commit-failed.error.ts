import { StreamsError } from '../streams.error';

/**
 * The group coordinator refused offsets sent in a transaction with the consumer group's
 * metadata (KIP-447): the member's generation is stale (`ILLEGAL_GENERATION`), the member is
 * gone (`UNKNOWN_MEMBER_ID`), another instance took its static id (`FENCED_INSTANCE_ID`), or the
 * group is rebalancing (`REBALANCE_IN_PROGRESS`). Java's `CommitFailedException`.
 *
 * What to do: the group moved on while this member worked. Abort the transaction (its records
 * and offsets are dropped), close the tasks dirty and rejoin; their new owners process from
 * the last committed offsets. Not retriable with the same generation.
 */
export class CommitFailedError extends StreamsError.coded('COMMIT_FAILED', false) {
  constructor(
    readonly groupId: string,
    /** The Kafka error the coordinator answered with. */
    readonly kafkaError: string,
    options?: { cause?: unknown },
  ) {
    super(
      `the group coordinator refused the offsets of group ${groupId} (${kafkaError}): the group rebalanced`,
      options,
    );
  }
}
