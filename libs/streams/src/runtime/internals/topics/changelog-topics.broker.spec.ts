import { ConfigResourceTypes } from '../../../client/kafkajs/kafkajs';
import { ChangelogTopicMismatchError } from '../../../errors/changelog-topic-mismatch.error';
import { ChangelogTopics, type ChangelogTopicSpec } from './changelog-topics';
import { KafkajsClusterAdmin } from '../../../client/kafkajs/kafkajs-cluster-admin';
import { KafkaTestContext } from '../../../../../../test/support/kafka-test-context';

describe('changelog topics (real broker)', () => {
  const ctx = new KafkaTestContext();
  afterAll(() => ctx.cleanup());

  const describeTopic = async (topic: string) => {
    const admin = await ctx.admin();
    const configs = await admin.describeConfigs({
      includeSynonyms: false,
      resources: [
        {
          type: ConfigResourceTypes.TOPIC,
          name: topic,
          configNames: ['cleanup.policy', 'retention.ms', 'message.timestamp.type'],
        },
      ],
    });
    const metadata = await admin.fetchTopicMetadata({ topics: [topic] });
    return {
      partitions: metadata.topics[0].partitions.length,
      ...Object.fromEntries(
        configs.resources[0].configEntries.map((e) => [e.configName, e.configValue]),
      ),
    };
  };

  it('creates key-value and window changelogs with Kafka Streams configs, idempotently', async () => {
    const topics = new ChangelogTopics(new KafkajsClusterAdmin(await ctx.admin()));
    const kv = `${ctx.applicationId}-stats-store-changelog`;
    const window = `${ctx.applicationId}-windowed-count-store-changelog`;
    const specs = [
      { topic: kv, kind: 'key-value' as const, partitions: 3 },
      { topic: window, kind: 'window' as const, partitions: 3, retentionMs: 3_600_000 },
    ];
    expect(await topics.ensure(specs)).toEqual({ created: [kv, window], existing: [] });
    expect(await describeTopic(kv)).toMatchObject({
      partitions: 3,
      'cleanup.policy': 'compact',
      'message.timestamp.type': 'CreateTime',
    });
    expect(await describeTopic(window)).toMatchObject({
      partitions: 3,
      'cleanup.policy': 'compact,delete',
      'retention.ms': String(3_600_000 + 86_400_000),
      'message.timestamp.type': 'CreateTime',
    });
    expect(await topics.ensure(specs)).toEqual({ created: [], existing: [kv, window] });
  });

  /** What ensuring `spec` throws over an existing topic of `partitions` and `cleanupPolicy`. */
  const ensureOver = async (
    spec: ChangelogTopicSpec,
    partitions: number,
    cleanupPolicy: string,
  ) => {
    await ctx.createTopic(spec.topic, partitions, [
      { name: 'cleanup.policy', value: cleanupPolicy },
    ]);
    return new ChangelogTopics(new KafkajsClusterAdmin(await ctx.admin()))
      .ensure([spec])
      .catch((e: unknown) => e);
  };

  it('fails startup on a changelog with the wrong partition count, naming the topic and both counts', async () => {
    const topic = `${ctx.applicationId}-counts-changelog`;
    const error = await ensureOver({ topic, kind: 'key-value', partitions: 3 }, 2, 'compact');
    expect(error).toBeInstanceOf(ChangelogTopicMismatchError);
    expect(error).toMatchObject({
      code: 'CHANGELOG_TOPIC_MISMATCH',
      topic,
      expected: 3,
      actual: 2,
    });
    expect((error as Error).message).toBe(
      `changelog topic ${topic} has 2 partitions but 3 are required (one per source partition); delete the topic or recreate it with 3 partitions`,
    );
  });

  it('fails startup on a key-value changelog that is not compacted', async () => {
    const topic = `${ctx.applicationId}-deleting-changelog`;
    const error = await ensureOver({ topic, kind: 'key-value', partitions: 1 }, 1, 'delete');
    expect(error).toMatchObject({
      setting: 'cleanup.policy',
      expected: 'compact',
      actual: 'delete',
    });
    expect((error as Error).message).toContain(topic);
  });
});
