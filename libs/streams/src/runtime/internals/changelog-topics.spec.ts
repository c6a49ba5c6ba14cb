import type { Admin } from 'kafkajs';
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
  function laggingAdmin(unknownAnswers: number) {
    const created: { waitForLeaders?: boolean; topics: { topic: string }[] }[] = [];
    let metadataCalls = 0;
    const admin = {
      listTopics: async () => [],
      createTopics: async (request: { waitForLeaders?: boolean; topics: { topic: string }[] }) => {
        created.push(request);
        if (request.waitForLeaders) {
          throw new Error('This server does not host this topic-partition');
        }
        return true;
      },
      fetchTopicMetadata: async ({ topics }: { topics: string[] }) => {
        metadataCalls++;
        if (metadataCalls <= unknownAnswers) {
          throw new Error('This server does not host this topic-partition');
        }
        return {
          topics: topics.map((name) => ({
            name,
            partitions: [0, 1, 2].map((partitionId) => ({ partitionId, leader: 1 })),
          })),
        };
      },
      describeConfigs: async ({ resources }: { resources: { name: string }[] }) => ({
        resources: resources.map((r) => ({
          resourceName: r.name,
          configEntries: [{ configName: 'cleanup.policy', configValue: 'compact' }],
        })),
      }),
    };
    return { admin: admin as unknown as Admin, created, metadataCalls: () => metadataCalls };
  }

  it('waits for the leaders of new topics while the broker does not know them yet', async () => {
    const { admin, created, metadataCalls } = laggingAdmin(3);
    const result = await new ChangelogTopics(admin).ensure([
      { topic: 'app-s-changelog', kind: 'key-value', partitions: 3 },
    ]);
    expect(result).toEqual({ created: ['app-s-changelog'], existing: [] });
    expect(created).toHaveLength(1);
    expect(created[0].waitForLeaders).toBe(false);
    expect(created[0].topics.map((t) => t.topic)).toEqual(['app-s-changelog']);
    // Three unknown answers, one with leaders, one more for the partition-count validation.
    expect(metadataCalls()).toBe(5);
  });
});
