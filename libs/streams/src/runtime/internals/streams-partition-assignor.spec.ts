import {
  decodeInfo,
  encodeInfo,
  type AssignmentInfo,
  type SubscriptionInfo,
} from '../../cluster/internals/assignment-info';
import { streamsGroupAssignor, type StreamsAssignorContext } from './streams-partition-assignor';

function assigner(endOffsets: () => Promise<Record<string, number>>) {
  const log = jest.fn();
  const context: StreamsAssignorContext = {
    subtopologies: () => [{ id: 0, sourceTopics: ['input'], stateful: true }],
    subscription: () => {
      throw new Error('not used by assign');
    },
    taskEndOffsetSums: endOffsets,
    numStandbyReplicas: 0,
    acceptableRecoveryLag: 500,
    maxWarmupReplicas: 2,
    probingRebalanceIntervalMs: 4000,
    log,
  };
  return { assignor: streamsGroupAssignor(context), log };
}

const member = (memberId: string, info: Omit<SubscriptionInfo, 'version'>) => ({
  memberId,
  topics: ['input'],
  userData: encodeInfo({ version: 1, ...info }),
});

async function assign(
  endOffsets: () => Promise<Record<string, number>>,
): Promise<{ byMember: Map<string, AssignmentInfo>; log: jest.Mock }> {
  const { assignor, log } = assigner(endOffsets);
  const result = await assignor.assign({
    members: [
      // a runs both tasks; b has just started, with no state.
      member('m-a', {
        processId: 'a',
        taskOffsetSums: { '0_0': -2, '0_1': -2 },
        previousActive: ['0_0', '0_1'],
      }),
      member('m-b', { processId: 'b', taskOffsetSums: {}, previousActive: [] }),
    ],
    partitionCounts: new Map([['input', 2]]),
  });
  const byMember = new Map(
    result.map(({ memberId, userData }) => [memberId, decodeInfo<AssignmentInfo>(userData)]),
  );
  return { byMember, log };
}

describe('streamsGroupAssignor', () => {
  it('warms a new client up instead of moving a task to it cold', async () => {
    const { byMember } = await assign(async () => ({ '0_0': 4120, '0_1': 3880 }));
    expect(byMember.get('m-a')).toMatchObject({ active: ['0_0', '0_1'], standby: [] });
    expect(byMember.get('m-b')).toMatchObject({ active: [], standby: ['0_1'], warmup: ['0_1'] });
    expect(byMember.get('m-b')!.probingRebalanceAtMs).toBeGreaterThan(Date.now());
  });

  it('never moves a stateful task while the changelog end offsets are unknown, and retries at a probing rebalance', async () => {
    const { byMember, log } = await assign(() => Promise.reject(new Error('broker busy')));
    // Unknown lags are not "caught up": b has no state for either task.
    expect(byMember.get('m-a')).toMatchObject({ active: ['0_0', '0_1'], standby: [] });
    expect(byMember.get('m-b')).toMatchObject({ active: [], standby: ['0_1'], warmup: ['0_1'] });
    expect(byMember.get('m-a')!.probingRebalanceAtMs).toBeGreaterThan(Date.now());
    expect(log).toHaveBeenCalledWith(
      expect.stringContaining('assignor: changelog end offsets unavailable (Error: broker busy)'),
    );
  });
});
