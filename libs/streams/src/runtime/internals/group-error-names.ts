import { MemberFencedError } from '../../errors/internals/member-fenced.error';
import { RebalanceInProgressError } from '../../errors/internals/rebalance-in-progress.error';
import { UnknownMemberError } from '../../errors/internals/unknown-member.error';

/** The Kafka error names that mean a consumer group moved on while a member worked. */
export const GROUP_MOVED_ON_ERRORS = [
  'REBALANCE_IN_PROGRESS',
  'ILLEGAL_GENERATION',
  'FENCED_INSTANCE_ID',
  'UNKNOWN_MEMBER_ID',
  // The member epoch of a streams group (KIP-1071) member: moved on, or fenced.
  'STALE_MEMBER_EPOCH',
  'FENCED_MEMBER_EPOCH',
] as const;

/** One of {@link GROUP_MOVED_ON_ERRORS}. */
export type GroupMovedOnErrorName = (typeof GROUP_MOVED_ON_ERRORS)[number];

/**
 * The engine's typed error for a Kafka error name that says the group moved on, whichever client
 * reported it (`cause`: the client's error): a `RebalanceInProgressError`, a `MemberFencedError`
 * (illegal generation, fenced instance id) or an `UnknownMemberError`.
 */
export function groupMovedOnError(
  name: GroupMovedOnErrorName,
  groupId: string,
  memberId: string,
  cause: unknown,
): RebalanceInProgressError | MemberFencedError | UnknownMemberError {
  switch (name) {
    case 'REBALANCE_IN_PROGRESS':
      return new RebalanceInProgressError(groupId, { cause });
    case 'ILLEGAL_GENERATION':
      return new MemberFencedError(groupId, 'illegal-generation', { cause });
    case 'FENCED_INSTANCE_ID':
      return new MemberFencedError(groupId, 'fenced-instance-id', { cause });
    case 'UNKNOWN_MEMBER_ID':
      return new UnknownMemberError(groupId, memberId, { cause });
    case 'STALE_MEMBER_EPOCH':
      return new RebalanceInProgressError(groupId, { cause });
    case 'FENCED_MEMBER_EPOCH':
      return new MemberFencedError(groupId, 'illegal-generation', { cause });
  }
}

/** Whether `name` is one of {@link GROUP_MOVED_ON_ERRORS}. */
export function isGroupMovedOnErrorName(name: unknown): name is GroupMovedOnErrorName {
  return (GROUP_MOVED_ON_ERRORS as readonly unknown[]).includes(name);
}
