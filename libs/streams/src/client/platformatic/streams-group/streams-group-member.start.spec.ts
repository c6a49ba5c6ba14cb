import { ResponseError } from '@platformatic/kafka';
import { StreamsGroupRejectedError } from '../../../errors/streams-group-rejected.error';
import {
  isCoordinatorLookupError,
  type StreamsGroupCoordinator,
} from './streams-group-coordinator';
import type { StreamsGroupHeartbeatResponse } from './streams-group-heartbeat-response';
import { StreamsGroupMember, type StreamsGroupMemberListener } from './streams-group-member';
import { unchangedHeartbeatResponse } from '../../../../test-support/streams-group-heartbeat.fixture';

/** What @platformatic/kafka throws when FindCoordinator (api key 10) answers `code`. */
const findCoordinatorRefused = (code: number) =>
  new ResponseError(10, 6, { '/coordinators/0': [code, null] }, undefined);

const joined = (errorCode = 0): StreamsGroupHeartbeatResponse => ({
  ...unchangedHeartbeatResponse(errorCode === 0 ? 1 : 0),
  errorCode,
});

/** A member over a coordinator double answering the heartbeats with `answers`, in turn. */
function memberAnswered(
  answers: (() => StreamsGroupHeartbeatResponse)[],
  rebalanceTimeoutMs = 5_000,
) {
  const calls = { heartbeats: 0, forgotten: 0, answered: 0 };
  const coordinator = {
    groupId: 'app',
    heartbeat: async () => answers[Math.min(calls.heartbeats++, answers.length - 1)](),
    forget: () => void calls.forgotten++,
  } as unknown as StreamsGroupCoordinator;
  const listener: StreamsGroupMemberListener = {
    reconcile: async () => undefined,
    lost: async () => undefined,
    endpoints: () => undefined,
    statuses: () => undefined,
    failed: () => undefined,
    taskOffsets: async () => ({ offsets: [], endOffsets: [] }),
    shutdownRequested: () => false,
    heartbeat: () => void calls.answered++,
  };
  const member = new StreamsGroupMember(
    coordinator,
    {
      topology: () => ({ epoch: 0, subtopologies: [] }) as never,
      processId: 'p',
      userEndpoint: null,
      clientTags: [],
      instanceId: null,
      rebalanceTimeoutMs,
      heartbeatIntervalMs: 60_000,
    },
    listener,
  );
  return { member, calls };
}

describe('StreamsGroupMember joining', () => {
  it('tells a coordinator not found yet from other failures', () => {
    expect(isCoordinatorLookupError(findCoordinatorRefused(15))).toBe(true); // not available
    expect(isCoordinatorLookupError(findCoordinatorRefused(14))).toBe(true); // loading
    expect(isCoordinatorLookupError(new Error('x', { cause: findCoordinatorRefused(16) }))).toBe(
      true,
    );
    expect(isCoordinatorLookupError(findCoordinatorRefused(30))).toBe(false); // not authorized
    expect(isCoordinatorLookupError(new Error('socket hang up'))).toBe(false);
  });

  it('asks again while the coordinator is not found yet (a new cluster), then joins', async () => {
    const notYet = () => {
      throw findCoordinatorRefused(15);
    };
    const { member, calls } = memberAnswered([notYet, notYet, () => joined(14), () => joined()]);
    await member.start();
    // Only the answer without an error tells the engine the member is in the group.
    expect(calls).toEqual({ heartbeats: 4, forgotten: 2, answered: 1 });
    expect(member.memberEpoch).toBe(1);
    await member.close();
  });

  it('gives up after the rebalance timeout, with the client error', async () => {
    const notYet = () => {
      throw findCoordinatorRefused(15);
    };
    const { member, calls } = memberAnswered([notYet], 300);
    await expect(member.start()).rejects.toBeInstanceOf(ResponseError);
    expect(calls.heartbeats).toBeGreaterThanOrEqual(2);
  });

  it('stops at once on a refusal that is not about the coordinator', async () => {
    const unauthorized = () => {
      throw findCoordinatorRefused(30);
    };
    const first = memberAnswered([unauthorized]);
    await expect(first.member.start()).rejects.toBeInstanceOf(ResponseError);
    expect(first.calls.heartbeats).toBe(1);
    expect(first.calls.answered).toBe(0);
    // An error code the member cannot survive (GROUP_MAX_SIZE_REACHED).
    const second = memberAnswered([() => joined(81)]);
    await expect(second.member.start()).rejects.toBeInstanceOf(StreamsGroupRejectedError);
    expect(second.calls.heartbeats).toBe(1);
  });
});
