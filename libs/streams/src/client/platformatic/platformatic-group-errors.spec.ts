import { ResponseError } from '@platformatic/kafka';
import { CommitFailedError } from '../../errors/internals/commit-failed.error';
import { FencedInstanceIdError } from '../../errors/internals/fenced-instance-id.error';
import { MemberFencedError } from '../../errors/internals/member-fenced.error';
import { RebalanceInProgressError } from '../../errors/internals/rebalance-in-progress.error';
import { UnknownMemberError } from '../../errors/internals/unknown-member.error';
import {
  commitFailureAction,
  isRebalanceError,
} from '../../runtime/internals/commit/commit-failure';
import { platformaticGroupError } from './platformatic-group-errors';

/** What @platformatic/kafka throws for an OffsetCommit (api key 8) refused with `code`. */
const offsetCommitRefused = (code: number) =>
  new ResponseError(8, 9, { '/topics/0/partitions/0': [code, null] }, undefined);

describe('platformaticGroupError', () => {
  it.each([
    // A streams group (KIP-1071) member's epoch moved on: the group rebalanced meanwhile.
    ['STALE_MEMBER_EPOCH', 113, RebalanceInProgressError],
    // The member was fenced out of the streams group: its tasks are lost.
    ['FENCED_MEMBER_EPOCH', 110, MemberFencedError],
    ['REBALANCE_IN_PROGRESS', 27, RebalanceInProgressError],
    ['ILLEGAL_GENERATION', 22, MemberFencedError],
    ['UNKNOWN_MEMBER_ID', 25, UnknownMemberError],
  ])(
    'types a commit refused with %s: a refused commit that rejoins (at-least-once)',
    (_name, code, type) => {
      const error = offsetCommitRefused(code);
      const groupError = platformaticGroupError('app', 'member-1', error);
      expect(groupError).toBeInstanceOf(type);
      expect(groupError).toMatchObject({ groupId: 'app', retriable: true, cause: error });
      // What the streams consumer's commitOffsets throws, and what the stream thread does with it.
      const refused = new CommitFailedError('app', { cause: groupError });
      expect(isRebalanceError(refused)).toBe(true);
      expect(commitFailureAction(refused, false)).toBe('rejoin');
      expect(commitFailureAction(refused, true)).toBe('fatal'); // exactly-once: tasks migrated
    },
  );

  it('types FENCED_INSTANCE_ID as fatal, naming the static member', () => {
    const groupError = platformaticGroupError('app', 'member-1', offsetCommitRefused(82), {
      groupInstanceId: 'pod-0',
    });
    expect(groupError).toBeInstanceOf(FencedInstanceIdError);
    expect(groupError).toMatchObject({ groupInstanceId: 'pod-0', retriable: false });
  });

  it("finds the refusal under the client's wrappers, and nothing in other errors", () => {
    const wrapped = new Error('commit failed after retries', {
      cause: new AggregateError([new Error('timeout'), offsetCommitRefused(113)]),
    });
    expect(platformaticGroupError('app', 'm', wrapped)).toBeInstanceOf(RebalanceInProgressError);
    // NOT_COORDINATOR (16): the client looks the coordinator up again; not the group moving on.
    expect(platformaticGroupError('app', 'm', offsetCommitRefused(16))).toBeUndefined();
    expect(platformaticGroupError('app', 'm', new Error('socket hang up'))).toBeUndefined();
  });
});
