// The test context first: it loads @nest-streams/streams, whose kafkajs fixes go in before kafkajs.
import { KafkaTestContext } from '../support/kafka-test-context';
import { ConfigResourceTypes } from 'kafkajs';

describe('kafkajs admin against the Kafka 4 broker', () => {
  const ctx = new KafkaTestContext();
  afterAll(() => ctx.cleanup());

  it('creates a compacted topic and reads its cleanup policy back', async () => {
    const topic = await ctx.createTopic(ctx.topicName('compact'), 3, [
      { name: 'cleanup.policy', value: 'compact' },
      { name: 'message.timestamp.type', value: 'CreateTime' },
    ]);
    const admin = await ctx.admin();

    const described = await admin.describeConfigs({
      includeSynonyms: false,
      resources: [
        {
          type: ConfigResourceTypes.TOPIC,
          name: topic,
          configNames: ['cleanup.policy', 'message.timestamp.type'],
        },
      ],
    });
    const entries = Object.fromEntries(
      described.resources[0].configEntries.map((e) => [e.configName, e.configValue]),
    );
    expect(entries).toEqual({
      'cleanup.policy': 'compact',
      'message.timestamp.type': 'CreateTime',
    });

    const metadata = await admin.fetchTopicMetadata({ topics: [topic] });
    expect(metadata.topics[0].partitions.map((p) => p.partitionId).sort()).toEqual([0, 1, 2]);
  });

  it('refuses to auto-create topics (auto.create.topics.enable=false)', async () => {
    const admin = await ctx.admin();
    const missing = ctx.topicName('missing');
    await expect(admin.fetchTopicMetadata({ topics: [missing] })).rejects.toThrow(
      /does not host this topic-partition|UNKNOWN_TOPIC_OR_PARTITION/i,
    );
    expect(await admin.listTopics()).not.toContain(missing);
  });
});
