import { PartitionLeaderNotAvailableError } from '../errors/internals/partition-leader-not-available.error';
import { assertAnsweredByLeaders, LEADER_MOVED_WHILE_ASKED } from './answer-confirmation';

describe('assertAnsweredByLeaders', () => {
  it('accepts answers of the brokers that still lead, at the epochs they answered at', () => {
    expect(() =>
      assertAnsweredByLeaders(
        't',
        [
          { partition: 0, nodeId: 3, leaderEpoch: 7 },
          { partition: 1, nodeId: 1, leaderEpoch: -1 },
        ],
        [
          { partition: 0, leader: 3, leaderEpoch: 7 },
          { partition: 1, leader: 1, leaderEpoch: 4 },
        ],
      ),
    ).not.toThrow();
  });

  it('refuses an answer of a broker that no longer leads its partition', () => {
    const check = () =>
      assertAnsweredByLeaders(
        't',
        [
          { partition: 0, nodeId: 3, leaderEpoch: -1 },
          { partition: 1, nodeId: 1, leaderEpoch: -1 },
        ],
        [
          { partition: 0, leader: 1, leaderEpoch: -1 },
          { partition: 1, leader: 1, leaderEpoch: -1 },
        ],
      );
    expect(check).toThrow(PartitionLeaderNotAvailableError);
    expect(check).toThrow(
      `a partition of t has no leader that answers yet (${LEADER_MOVED_WHILE_ASKED}: partition(s) 0 (answered by node 3, led by node 1))`,
    );
  });

  it('refuses an answer at an older epoch of the same leader (it lost and regained the lead)', () => {
    expect(() =>
      assertAnsweredByLeaders(
        't',
        [{ partition: 0, nodeId: 3, leaderEpoch: 7 }],
        [{ partition: 0, leader: 3, leaderEpoch: 9 }],
      ),
    ).toThrow('partition(s) 0 (answered at leader epoch 7, now 9)');
  });

  it('refuses an answer for a partition the other broker names no leader of', () => {
    expect(() =>
      assertAnsweredByLeaders('t', [{ partition: 2, nodeId: 3, leaderEpoch: -1 }], []),
    ).toThrow('partition(s) 2 (answered by node 3, led by no node)');
    expect(() =>
      assertAnsweredByLeaders(
        't',
        [{ partition: 2, nodeId: 3, leaderEpoch: -1 }],
        [{ partition: 2, leader: -1, leaderEpoch: -1 }],
      ),
    ).toThrow('partition(s) 2 (answered by node 3, led by node -1)');
  });

  it('is a retriable error', () => {
    try {
      assertAnsweredByLeaders('t', [{ partition: 0, nodeId: 3, leaderEpoch: -1 }], []);
    } catch (error) {
      expect((error as PartitionLeaderNotAvailableError).retriable).toBe(true);
      expect((error as PartitionLeaderNotAvailableError).code).toBe(
        'PARTITION_LEADER_NOT_AVAILABLE',
      );
      return;
    }
    throw new Error('did not throw');
  });
});
