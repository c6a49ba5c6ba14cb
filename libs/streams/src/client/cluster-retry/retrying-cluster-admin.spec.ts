import { BrokersUnreachableError } from '../../errors/brokers-unreachable.error';
import { ClusterFaultTimeoutError } from '../../errors/cluster-fault-timeout.error';
import { PartitionLeaderNotAvailableError } from '../../errors/internals/partition-leader-not-available.error';
import { UnknownTopicError } from '../../errors/internals/unknown-topic.error';
import type { TopicMetadata } from '../cluster-admin';
import { kafkajsTransientFault } from '../kafkajs/kafkajs-transient-faults';
import { partitionCounts } from '../topic-admin';
import { RetryingClusterAdmin, type RefreshableClusterAdmin } from './retrying-cluster-admin';
import { virtualClockPerTest } from '../../../test-support/virtual-clock';

const metadataOf = (name: string): TopicMetadata => ({
  name,
  partitions: [0, 1, 2].map((partition) => ({ partition, leader: 1, replicas: [1], isr: [1] })),
});

/** An adapter whose calls fail with the queued errors first; it counts forgotten metadata. */
function fakeAdmin(listed: string[], errors: Error[]) {
  const calls: string[] = [];
  let forgotten = 0;
  const next = <T>(name: string, value: T): Promise<T> => {
    calls.push(name);
    const error = errors.shift();
    return error ? Promise.reject(error) : Promise.resolve(value);
  };
  const admin = {
    supportsRequireStable: false,
    connect: () => Promise.resolve(),
    disconnect: () => Promise.resolve(),
    listTopics: () => (calls.push('listTopics'), Promise.resolve(listed)),
    fetchTopicMetadata: (topics: readonly string[]) => next('metadata', topics.map(metadataOf)),
    fetchTopicOffsets: () => next('offsets', [{ partition: 0, low: 0, high: 3 }]),
    forgetMetadata: async () => void forgotten++,
  } as unknown as RefreshableClusterAdmin;
  return { admin, calls, forgotten: () => forgotten };
}

describe('RetryingClusterAdmin', () => {
  const { clock, retry } = virtualClockPerTest(kafkajsTransientFault);

  it("asks again for a listed topic the answering broker's metadata lacks yet (issue #38, D)", async () => {
    // Another instance just created the changelog: the cluster lists it, and the broker asked
    // for its metadata answers UNKNOWN_TOPIC_OR_PARTITION until its metadata cache has it.
    const unknown = () => new UnknownTopicError('app-store-changelog');
    const { admin, calls } = fakeAdmin(['app-store-changelog', 'input'], [unknown(), unknown()]);
    const counts = await partitionCounts(new RetryingClusterAdmin(admin, retry), [
      'app-store-changelog',
      'missing',
    ]);
    expect([...counts]).toEqual([['app-store-changelog', 3]]);
    expect(calls).toEqual([
      'listTopics',
      'metadata',
      'listTopics',
      'metadata',
      'listTopics',
      'metadata',
    ]);
  });

  it('throws UnknownTopicError at once for a topic the cluster does not list', async () => {
    const { admin, calls } = fakeAdmin(['input'], [new UnknownTopicError('gone')]);
    const retrying = new RetryingClusterAdmin(admin, retry);
    await expect(retrying.fetchTopicMetadata(['gone'])).rejects.toBeInstanceOf(UnknownTopicError);
    expect(calls).toEqual(['metadata', 'listTopics']);
  });

  it('retries transient faults, forgetting the metadata each time, within the bound', async () => {
    const { admin, calls, forgotten } = fakeAdmin(
      [],
      [
        new PartitionLeaderNotAvailableError('t', 'NOT_LEADER_OR_FOLLOWER'),
        new BrokersUnreachableError(['b:1'], 'connect ECONNREFUSED'),
      ],
    );
    const retrying = new RetryingClusterAdmin(admin, retry);
    await expect(retrying.fetchTopicOffsets('t')).resolves.toEqual([
      { partition: 0, low: 0, high: 3 },
    ]);
    expect(calls).toEqual(['offsets', 'offsets', 'offsets']);
    expect(forgotten()).toBe(2);
    // The caller's bound (a lag read behind a health check) instead of default.api.timeout.ms.
    const faults = Array.from(
      { length: 100 },
      () => new PartitionLeaderNotAvailableError('t', 'LEADER_NOT_AVAILABLE'),
    );
    const slow = fakeAdmin([], faults);
    clock.ms = 0;
    const error = await new RetryingClusterAdmin(slow.admin, retry)
      .fetchTopicOffsets('t', { timeoutMs: 2_000 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ClusterFaultTimeoutError);
    expect(clock.ms).toBeLessThanOrEqual(2_000);
  });

  it('stops retrying once disconnected', async () => {
    const { admin } = fakeAdmin(
      [],
      Array.from({ length: 100 }, () => new BrokersUnreachableError(['b:1'], 'refused')),
    );
    const retrying = new RetryingClusterAdmin(admin, retry);
    await retrying.disconnect();
    await expect(retrying.fetchTopicOffsets('t')).rejects.toBeInstanceOf(BrokersUnreachableError);
  });
});
