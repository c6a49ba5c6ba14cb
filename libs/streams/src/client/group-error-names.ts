import { CommitFailedError } from '../errors/internals/commit-failed.error';
import { FencedInstanceIdError } from '../errors/internals/fenced-instance-id.error';
import { MemberFencedError } from '../errors/internals/member-fenced.error';
import { RebalanceInProgressError } from '../errors/internals/rebalance-in-progress.error';
import { UnknownMemberError } from '../errors/internals/unknown-member.error';

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

/** The engine's typed errors for {@link GROUP_MOVED_ON_ERRORS}. */
export type GroupMovedOnError =
  RebalanceInProgressError | MemberFencedError | UnknownMemberError | FencedInstanceIdError;

/**
 * The engine's typed error for a Kafka error name that says the group moved on, whichever client
 * reported it (`cause`: the client's error): a `RebalanceInProgressError`, a `MemberFencedError`
 * (illegal generation), an `UnknownMemberError`, or a `FencedInstanceIdError` (another process
 * took this static member's `groupInstanceId`: fatal, not a rejoin).
 */
export function groupMovedOnError(
  name: GroupMovedOnErrorName,
  groupId: string,
  memberId: string,
  cause: unknown,
  groupInstanceId?: string,
): GroupMovedOnError {
  switch (name) {
    case 'REBALANCE_IN_PROGRESS':
      return new RebalanceInProgressError(groupId, { cause });
    case 'ILLEGAL_GENERATION':
      return new MemberFencedError(groupId, 'illegal-generation', { cause });
    case 'FENCED_INSTANCE_ID':
      return new FencedInstanceIdError(groupId, groupInstanceId, { cause });
    case 'UNKNOWN_MEMBER_ID':
      return new UnknownMemberError(groupId, memberId, { cause });
    case 'STALE_MEMBER_EPOCH':
      return new RebalanceInProgressError(groupId, { cause });
    case 'FENCED_MEMBER_EPOCH':
      return new MemberFencedError(groupId, 'illegal-generation', { cause });
  }
}

/**
 * What an offset commit refused by the group throws: a {@link CommitFailedError} caused by the
 * group error (Kafka's `CommitFailedException`: rejoin), except a {@link FencedInstanceIdError},
 * thrown as it is (Kafka's `FencedInstanceIdException` is no `CommitFailedException`: fatal).
 */
export function commitRefusal(
  groupId: string,
  groupError: GroupMovedOnError,
): CommitFailedError | FencedInstanceIdError {
  return groupError instanceof FencedInstanceIdError
    ? groupError
    : new CommitFailedError(groupId, { cause: groupError });
}

/** Whether `name` is one of {@link GROUP_MOVED_ON_ERRORS}. */
export function isGroupMovedOnErrorName(name: unknown): name is GroupMovedOnErrorName {
  return (GROUP_MOVED_ON_ERRORS as readonly unknown[]).includes(name);
}

/**
 * The {@link FencedInstanceIdError} in `error`'s chain (its `cause`s, and the `errors` of an
 * `AggregateError`: clients wrap failures after retries), if there is one.
 */
export function findFencedInstanceIdError(error: unknown): FencedInstanceIdError | undefined {
  const seen: unknown[] = [error];
  for (let i = 0; i < seen.length && i < 32; i++) {
    const e = seen[i];
    if (e instanceof FencedInstanceIdError) return e;
    if (!(e instanceof Error)) continue;
    if (e instanceof AggregateError) seen.push(...(e.errors as unknown[]));
    if (e.cause !== undefined) seen.push(e.cause);
  }
  return undefined;
}
