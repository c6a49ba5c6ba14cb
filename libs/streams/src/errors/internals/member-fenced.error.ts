import { StreamsError } from '../streams.error';

/**
 * Why the coordinator no longer counts a member in the current generation. (A static member
 * whose instance id another process took gets a `FencedInstanceIdError` instead: fatal, not a
 * rejoin.)
 */
export type MemberFencedReason = 'illegal-generation';

/**
 * The member's generation is over: the group formed a newer generation without it
 * (`ILLEGAL_GENERATION`). Its partitions may already belong to others.
 *
 * What to do: treat every task of the member as migrated (Kafka Streams'
 * `TaskMigratedException`): drop uncommitted work (at-least-once reprocesses it, exactly-once
 * aborts it) and rejoin the group. Retriable in that sense: after the rejoin the member works
 * again; the refused call itself must not be repeated as it was.
 */
export class MemberFencedError extends StreamsError.coded('MEMBER_FENCED', true) {
  constructor(
    readonly groupId: string,
    readonly reason: MemberFencedReason,
    options?: { cause?: unknown },
  ) {
    super(`consumer group ${groupId} has moved to a newer generation without this member`, options);
  }
}
