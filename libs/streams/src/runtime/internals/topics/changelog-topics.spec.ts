import { UnknownTopicError } from '../../../errors/internals/unknown-topic.error';
import type { ClusterAdmin, NewTopic } from '../../../client/cluster-admin';
import { ChangelogTopics, changelogTopicConfig } from './changelog-topics';

describe('changelogTopicConfig', () => {
  it('compacts key-value changelogs, CreateTime timestamps', () => {
    expect(
      changelogTopicConfig({ topic: 'a-s-changelog', kind: 'key-value', partitions: 3 }),
    ).toEqual({
      'cleanup.policy': 'compact',
      'message.timestamp.type': 'CreateTime',
    });
  });

  it('compacts and deletes window and session changelogs after retention + 1 day', () => {
    for (const kind of ['window', 'session'] as const) {
      expect(
        changelogTopicConfig({ topic: 't', kind, partitions: 1, retentionMs: 3_600_000 }),
      ).toEqual({
        'cleanup.policy': 'compact,delete',
        'retention.ms': String(3_600_000 + 86_400_000),
        'message.timestamp.type': 'CreateTime',
      });
    }
  });

  it('lets withLoggingEnabled(topicConfig) add and override configs', () => {
    expect(
      changelogTopicConfig({
        topic: 't',
        kind: 'key-value',
        partitions: 1,
        topicConfig: { 'min.compaction.lag.ms': '1000', 'segment.bytes': '1048576' },
      }),
    ).toMatchObject({ 'cleanup.policy': 'compact', 'min.compaction.lag.ms': '1000' });
  });

  it('needs the retention of window and session stores', () => {
    expect(() => changelogTopicConfig({ topic: 't', kind: 'window', partitions: 1 })).toThrow(
      RangeError,
    );
  });
});

describe('ChangelogTopics.ensure', () => {
  /**
   * An admin as a KRaft broker answers right after a creation: metadata requests fail with
   * UNKNOWN_TOPIC_OR_PARTITION for a while, then name the leaders.
   */
  function laggingAdmin(unknownAnswers: number, unknownDescribes = 0) {
    const created: (readonly NewTopic[])[] = [];
    let metadataCalls = 0;
    let describeCalls = 0;
    const admin: Pick<
      ClusterAdmin,
      'listTopics' | 'createTopics' | 'fetchTopicMetadata' | 'describeTopicConfigs'
    > = {
      listTopics: async () => [],
      createTopics: async (topics) => {
        created.push(topics);
      },
      fetchTopicMetadata: async (topics) => {
        metadataCalls++;
        if (metadataCalls <= unknownAnswers) throw new UnknownTopicError(topics.join(', '));
        return topics.map((name) => ({
          name,
          partitions: [0, 1, 2].map((partition) => ({
            partition,
            leader: 1,
            replicas: [1],
            isr: [1],
          })),
        }));
      },
      describeTopicConfigs: async (topics) => {
        describeCalls++;
        if (describeCalls <= unknownDescribes) throw new UnknownTopicError(topics.join(', '));
        return topics.map((topic) => ({ topic, configs: { 'cleanup.policy': 'compact' } }));
      },
    };
    return {
      admin: admin as ClusterAdmin,
      created,
      metadataCalls: () => metadataCalls,
      describeCalls: () => describeCalls,
    };
  }

  it('waits for the leaders of new topics while the broker does not know them yet', async () => {
    const { admin, created, metadataCalls } = laggingAdmin(3);
    const result = await new ChangelogTopics(admin).ensure([
      { topic: 'app-s-changelog', kind: 'key-value', partitions: 3 },
    ]);
    expect(result).toEqual({ created: ['app-s-changelog'], existing: [] });
    expect(created).toEqual([
      [
        {
          topic: 'app-s-changelog',
          partitions: 3,
          replicationFactor: -1,
          configs: { 'cleanup.policy': 'compact', 'message.timestamp.type': 'CreateTime' },
        },
      ],
    ]);
    // Three unknown answers, one with leaders, one more for the partition-count validation.
    expect(metadataCalls()).toBe(5);
  });

  it('validates a topic whose configs the broker asked does not know yet, once they arrive', async () => {
    // Another instance created it: DescribeConfigs reached a broker its metadata had not yet.
    const { admin, describeCalls } = laggingAdmin(0, 2);
    (admin as { listTopics: () => Promise<string[]> }).listTopics = async () => ['app-s-changelog'];
    const result = await new ChangelogTopics(admin).ensure([
      { topic: 'app-s-changelog', kind: 'key-value', partitions: 3 },
    ]);
    expect(result).toEqual({ created: [], existing: ['app-s-changelog'] });
    expect(describeCalls()).toBe(3);
  });
});
