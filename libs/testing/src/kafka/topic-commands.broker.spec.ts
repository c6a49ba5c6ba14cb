// kafkajs with the engine's fixes: importing @nest-streams/streams installs them first.
import { DefaultStreamPartitioner } from '@nest-streams/streams';
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { Kafka, logLevel } from 'kafkajs';
import { BrokerToolError } from './broker-error';
import { produceLines } from './console-producer';
import { createTopic, toolAdmin } from './topic-commands';

const brokers = (process.env.KAFKA_BROKERS ?? '').split(',');

describe('the broker tool topic and produce commands, on the real broker', () => {
  const topic = `kafka-tool-spec-${randomUUID()}`;
  afterAll(async () => {
    const admin = toolAdmin(brokers);
    await admin.connect();
    await admin.deleteTopics({ topics: [topic] }).catch(() => undefined);
    await admin.disconnect();
  });

  it('creates a topic with its partitions and configs, once', async () => {
    await expect(
      createTopic(brokers, { topic, partitions: 3, configs: { 'retention.ms': '3600000' } }),
    ).resolves.toBe('created');
    const admin = toolAdmin(brokers);
    await admin.connect();
    try {
      const { topics } = await admin.fetchTopicMetadata({ topics: [topic] });
      expect(topics[0].partitions.map((p) => p.leader >= 0)).toEqual([true, true, true]);
      const described = await admin.describeConfigs({
        resources: [{ type: 2, name: topic, configNames: ['retention.ms'] }],
        includeSynonyms: false,
      });
      expect(described.resources[0].configEntries[0].configValue).toBe('3600000');
    } finally {
      await admin.disconnect();
    }
    await expect(createTopic(brokers, { topic, partitions: 3 })).rejects.toEqual(
      new BrokerToolError(
        `Topic ${topic} already exists (3 partitions); --if-not-exists accepts that.`,
      ),
    );
    await expect(
      createTopic(brokers, { topic, partitions: 3 }, { ifNotExists: true }),
    ).resolves.toBe('exists');
  });

  it('produces key:value lines to the partitions Java places the keys in', async () => {
    const keys = ['alice', 'bob', 'carol', 'dave', 'erin'];
    const input = Readable.from(
      [...keys.map((k, i) => `${k}:{"userId":"${k}","amount":${i}}`), '', ''].join('\n'),
    );
    await expect(produceLines(brokers, topic, input)).resolves.toBe(5);

    const consumer = new Kafka({ brokers, logLevel: logLevel.NOTHING }).consumer({
      groupId: `${topic}-reader`,
    });
    const seen = new Map<string, { partition: number; value: string }>();
    await consumer.connect();
    try {
      await consumer.subscribe({ topics: [topic], fromBeginning: true });
      await consumer.run({
        eachMessage: async ({ partition, message }) => {
          seen.set(String(message.key), { partition, value: String(message.value) });
        },
      });
      const deadline = Date.now() + 30_000;
      while (seen.size < keys.length && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 100));
      }
    } finally {
      await consumer.disconnect();
    }
    const partitioner = new DefaultStreamPartitioner();
    expect(Object.fromEntries(seen)).toEqual(
      Object.fromEntries(
        keys.map((k, i) => [
          k,
          {
            partition: partitioner.partition(Buffer.from(k), 3),
            value: `{"userId":"${k}","amount":${i}}`,
          },
        ]),
      ),
    );
  });
});
