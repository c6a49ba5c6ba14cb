import { PartitionLeaderNotAvailableError } from '../errors/internals/partition-leader-not-available.error';
import { UnknownTopicError } from '../errors/internals/unknown-topic.error';
import type { ClusterAdmin } from './cluster-admin';
import { fetchTopicOffsetsSettled } from './topic-admin';

const OFFSETS = [{ partition: 0, high: 7, low: 0 }];

/** The port's error for a partition whose leadership moves, as an adapter types it. */
function leadershipError(type: string): Error {
  return new PartitionLeaderNotAvailableError('changelog', type);
}

function adminFailing(errors: Error[]): { admin: ClusterAdmin; calls: () => number } {
  let calls = 0;
  const admin = {
    fetchTopicOffsets: () => {
      const error = errors[calls++];
      return error ? Promise.reject(error) : Promise.resolve(OFFSETS);
    },
  } as unknown as ClusterAdmin;
  return { admin, calls: () => calls };
}

describe('fetchTopicOffsetsSettled', () => {
  it('retries while the partition leadership settles, then answers', async () => {
    const { admin, calls } = adminFailing([
      leadershipError('NOT_LEADER_FOR_PARTITION'),
      new UnknownTopicError('changelog'),
      leadershipError('LEADER_NOT_AVAILABLE'),
    ]);
    await expect(fetchTopicOffsetsSettled(admin, 'changelog')).resolves.toEqual(OFFSETS);
    expect(calls()).toBe(4);
  });

  it('throws any other error at once', async () => {
    const { admin, calls } = adminFailing([
      Object.assign(new Error('TOPIC_AUTHORIZATION_FAILED'), {
        type: 'TOPIC_AUTHORIZATION_FAILED',
      }),
    ]);
    await expect(fetchTopicOffsetsSettled(admin, 'changelog')).rejects.toThrow(
      'TOPIC_AUTHORIZATION_FAILED',
    );
    expect(calls()).toBe(1);
  });

  it('gives up with the leadership error once its time is spent', async () => {
    const errors = Array.from({ length: 100 }, () => leadershipError('NOT_LEADER_FOR_PARTITION'));
    const { admin, calls } = adminFailing(errors);
    await expect(fetchTopicOffsetsSettled(admin, 'changelog', 200)).rejects.toThrow(
      'NOT_LEADER_FOR_PARTITION',
    );
    expect(calls()).toBeGreaterThanOrEqual(2);
    expect(calls()).toBeLessThan(6);
  });
});
