import { StreamsError } from '../streams.error';

/**
 * The coordinator does not know the member (`UNKNOWN_MEMBER_ID`): its session expired (no
 * heartbeat within `session.timeout.ms`, e.g. a long blocking batch), or it left. Its
 * partitions have been given to others.
 *
 * What to do: as for {@link MemberFencedError}: the member's tasks migrated; drop uncommitted
 * work and join again (with a new member id). Retriable after that rejoin.
 */
export class UnknownMemberError extends StreamsError.coded('UNKNOWN_MEMBER_ID', true) {
  constructor(
    readonly groupId: string,
    readonly memberId: string,
    options?: { cause?: unknown },
  ) {
    super(`consumer group ${groupId} does not know member ${memberId}`, options);
  }
}
