import { StreamsError } from '../streams.error';

/**
 * An offset commit of a group member was refused because the group moved on: its `cause` is a
 * `RebalanceInProgressError`, a `MemberFencedError` or an
 * `UnknownMemberError`. Kafka's `CommitFailedException`. Nothing was committed.
 *
 * What to do: under at-least-once, keep the offsets pending and let the member rejoin; a kept
 * task commits them in the new generation, a lost one is reprocessed by its next owner from the
 * last committed offset. Under exactly-once a commit is the transaction's: close the tasks
 * dirty. Not retriable as it was: the same commit in the same generation fails again.
 */
export class CommitFailedError extends StreamsError.coded('COMMIT_FAILED', false) {
  constructor(
    readonly groupId: string,
    options: { cause: unknown },
  ) {
    super(
      `offset commit refused: consumer group ${groupId} has rebalanced (${String(
        options.cause instanceof Error ? options.cause.message : options.cause,
      )})`,
      options,
    );
  }
}
