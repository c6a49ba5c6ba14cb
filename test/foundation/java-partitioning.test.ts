import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Partitioners, PartitionerArgs } from 'kafkajs';
import { DefaultStreamPartitioner } from '@nest-streams/streams';
import { KafkaTestContext } from '../support/kafka-test-context';

interface FixtureCase {
  key: string;
  keyHex: string;
  partitions: Record<string, number>;
}
const fixture = JSON.parse(
  readFileSync(join(__dirname, '..', 'fixtures', 'murmur2-partitions.json'), 'utf8'),
) as { cases: FixtureCase[] };

/**
 * The broker stores each record where the producer put it, so producing the fixture's keys and
 * reading back each record's partition proves end to end that keys land where Kafka's Java
 * producer (the fixture) puts them.
 */
describe('key partitioning matches the Java client on a real topic', () => {
  const ctx = new KafkaTestContext();
  afterAll(() => ctx.cleanup());

  const partitionsOf = async (
    topic: string,
    createPartitioner: () => (args: PartitionerArgs) => number,
    keys: Buffer[],
  ): Promise<Map<string, number>> => {
    const producer = ctx.kafka.producer({ createPartitioner });
    await producer.connect();
    await producer.send({ topic, messages: keys.map((key) => ({ key, value: key })) });
    await producer.disconnect();
    const consumer = ctx.kafka.consumer({ groupId: `${ctx.applicationId}-${topic}` });
    await consumer.connect();
    await consumer.subscribe({ topics: [topic], fromBeginning: true });
    const seen = new Map<string, number>();
    await new Promise<void>((resolve, reject) => {
      consumer
        .run({
          eachMessage: async ({ message, partition }) => {
            seen.set(message.key!.toString('hex'), partition);
            if (seen.size === keys.length) resolve();
          },
        })
        .catch(reject);
    });
    await consumer.disconnect();
    return seen;
  };

  it('places every fixture key on the same partition of a 6-partition topic as Java does', async () => {
    const topic = await ctx.createTopic(ctx.topicName('murmur2'), 6);
    const partitioner = new DefaultStreamPartitioner();
    const keys = fixture.cases.map((c) => Buffer.from(c.keyHex, 'hex'));
    const seen = await partitionsOf(
      topic,
      () =>
        ({ message, partitionMetadata }) =>
          partitioner.partition(message.key as Buffer, partitionMetadata.length),
      keys,
    );
    expect(seen.size).toBe(fixture.cases.length);
    const mismatches = fixture.cases.filter((c) => seen.get(c.keyHex) !== c.partitions['6']);
    expect(mismatches).toEqual([]);
  });

  it("kafkajs' DefaultPartitioner agrees for Buffer keys", async () => {
    const topic = await ctx.createTopic(ctx.topicName('kafkajs-default'), 6);
    const sample = fixture.cases.filter((_, i) => i % 5 === 0);
    const seen = await partitionsOf(
      topic,
      Partitioners.DefaultPartitioner,
      sample.map((c) => Buffer.from(c.keyHex, 'hex')),
    );
    expect(sample.filter((c) => seen.get(c.keyHex) !== c.partitions['6'])).toEqual([]);
  });
});
