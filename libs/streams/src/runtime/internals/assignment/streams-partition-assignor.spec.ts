import {
  decodeInfo,
  encodeInfo,
  type AssignmentInfo,
  type SubscriptionInfo,
} from '../../../cluster/internals/assignment-info';
import { streamsGroupAssignor, type StreamsAssignorContext } from './streams-partition-assignor';

function assigner(endOffsets: () => Promise<Record<string, number>>, cooperative = false) {
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
    info: jest.fn(),
  };
  return { assignor: streamsGroupAssignor(context, { cooperative }), log };
}

const member = (memberId: string, info: Omit<SubscriptionInfo, 'version'>) => ({
  memberId,
  topics: ['input'],
  userData: encodeInfo({ version: 1, ...info }),
});

/** Member `m-a` (process a) as given, and `m-b` (process b) holding 0_1's state caught up. */
const withCaughtUpB = (
  a: Pick<SubscriptionInfo, 'taskOffsetSums' | 'previousActive' | 'ownedGeneration'>,
) => [
  member('m-a', { processId: 'a', ...a }),
  member('m-b', { processId: 'b', taskOffsetSums: { '0_1': 100 }, previousActive: [] }),
];

/** Each member's assignment, by member id. */
const infosOf = (result: readonly { memberId: string; userData: Buffer }[]) =>
  new Map(result.map((m) => [m.memberId, decodeInfo<AssignmentInfo>(m.userData)]));

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
  return { byMember: infosOf(result), log };
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

  it('cooperative: a caught-up task moves in two rebalances, its owner first giving it up', async () => {
    const { assignor } = assigner(async () => ({ '0_0': 100, '0_1': 100 }), true);
    const counts = new Map([['input', 2]]);
    // b holds 0_1's state caught up (a standby): the balanced target moves 0_1 to b.
    const first = await assignor.assign({
      members: withCaughtUpB({
        taskOffsetSums: { '0_0': -2, '0_1': -2 },
        previousActive: ['0_0', '0_1'],
        ownedGeneration: 7,
      }),
      partitionCounts: counts,
    });
    const one = infosOf(first);
    // a gives 0_1 up (no partition of it stays with a); b is not given it yet, but stands by.
    expect(one.get('m-a')).toMatchObject({ active: ['0_0'], standby: [] });
    expect(first.find((m) => m.memberId === 'm-a')!.partitions).toEqual([
      { topic: 'input', partitions: [0] },
    ]);
    expect(one.get('m-b')).toMatchObject({ active: [], standby: ['0_1'] });
    expect(first.find((m) => m.memberId === 'm-b')!.partitions).toEqual([]);
    // The host map already shows where the task goes.
    expect(one.get('m-a')!.hosts.map((h) => [h.processId, h.active])).toEqual([
      ['a', ['0_0']],
      ['b', ['0_1']],
    ]);

    // The follow-up rebalance, once a gave 0_1 up: b gets it.
    const second = await assignor.assign({
      members: withCaughtUpB({
        taskOffsetSums: { '0_0': -2, '0_1': 100 },
        previousActive: ['0_0'],
        ownedGeneration: 8,
      }),
      partitionCounts: counts,
    });
    const two = infosOf(second);
    expect(two.get('m-a')).toMatchObject({ active: ['0_0'] });
    expect(two.get('m-b')).toMatchObject({ active: ['0_1'], standby: [] });
    expect(second.find((m) => m.memberId === 'm-b')!.partitions).toEqual([
      { topic: 'input', partitions: [1] },
    ]);
  });

  it('eager: the same task moves in one rebalance', async () => {
    const { assignor } = assigner(async () => ({ '0_0': 100, '0_1': 100 }));
    const result = await assignor.assign({
      members: withCaughtUpB({
        taskOffsetSums: { '0_0': -2, '0_1': -2 },
        previousActive: ['0_0', '0_1'],
        ownedGeneration: 7,
      }),
      partitionCounts: new Map([['input', 2]]),
    });
    const infos = infosOf(result);
    expect(infos.get('m-a')).toMatchObject({ active: ['0_0'] });
    expect(infos.get('m-b')).toMatchObject({ active: ['0_1'] });
  });
});
