import type { Kafka, ProducerBatch, RecordMetadata } from 'kafkajs';
import { ClusterFaultTimeoutError } from '../../errors/cluster-fault-timeout.error';
import { UnknownTopicError } from '../../errors/internals/unknown-topic.error';
import type { PartitionRecords } from '../record-producer';
import { KafkajsRecordProducer } from './kafkajs-record-producer';
import { kafkajsTransientFault } from './kafkajs-transient-faults';
import { virtualClockPerTest } from '../../../test-support/virtual-clock';

/**
 * A kafkajs client whose producer acknowledges each sent partition except those in `dropped`
 * (kafkajs 2.2.4 resolves a send without a partition whose leader moved to a broker that had
 * answered an earlier attempt); its admin names `partitions` partitions per topic.
 */
function fakeKafka(dropped: string[][], partitions = 6) {
  const sent: string[][] = [];
  const producerOptions: unknown[] = [];
  const producer = {
    connect: async () => undefined,
    disconnect: async () => undefined,
    sendBatch: async ({ topicMessages }: ProducerBatch): Promise<RecordMetadata[]> => {
      const keys = (topicMessages ?? []).flatMap(({ topic, messages }) => [
        ...new Set(messages.map((m) => `${topic}-${m.partition}`)),
      ]);
      sent.push(keys);
      const drop = new Set(dropped.shift() ?? []);
      return keys
        .filter((key) => !drop.has(key))
        .map((key) => {
          const cut = key.lastIndexOf('-');
          const partition = Number(key.slice(cut + 1));
          return {
            topicName: key.slice(0, cut),
            partition,
            errorCode: 0,
            baseOffset: `${partition * 10}`,
          };
        });
    },
  };
  const kafka = {
    producer: (options: unknown) => (producerOptions.push(options), producer),
    admin: () => ({
      connect: async () => undefined,
      disconnect: async () => undefined,
      fetchTopicMetadata: async ({ topics }: { topics: string[] }) => ({
        topics: topics.map((name) => ({
          name,
          partitions: Array.from({ length: partitions }, (_, partitionId) => ({ partitionId })),
        })),
      }),
    }),
  } as unknown as Kafka;
  return { kafka, sent, producerOptions };
}

const records = (topic: string, partition: number): PartitionRecords => ({
  topic,
  partition,
  records: [{ key: Buffer.from('k'), value: Buffer.from('v'), timestamp: 1 }],
});

describe('KafkajsRecordProducer', () => {
  const { clock, retry } = virtualClockPerTest(kafkajsTransientFault);

  it('sends again the partitions kafkajs resolved without, until acknowledged (issue #38, A)', async () => {
    // The leader of changelog-3 moved to the broker that answered for changelog-1.
    const { kafka, sent } = fakeKafka([['changelog-3'], ['changelog-3']]);
    const producer = new KafkajsRecordProducer(kafka, undefined, undefined, retry);
    const acks = await producer.send([records('changelog', 1), records('changelog', 3)]);
    expect(acks).toEqual([
      { topic: 'changelog', partition: 1, baseOffset: 10 },
      { topic: 'changelog', partition: 3, baseOffset: 30 },
    ]);
    // Only the partition never sent goes out again: the acknowledged one is not duplicated.
    expect(sent).toEqual([['changelog-1', 'changelog-3'], ['changelog-3'], ['changelog-3']]);
    expect(clock.ms).toBe(100 + 200);
  });

  it('throws UnknownTopicError before sending for a partition the topic does not have', async () => {
    const { kafka, sent } = fakeKafka([['changelog-9']], 6);
    const producer = new KafkajsRecordProducer(kafka, undefined, undefined, retry);
    await expect(producer.send([records('changelog', 9)])).rejects.toBeInstanceOf(
      UnknownTopicError,
    );
    expect(sent).toHaveLength(0);
  });

  it('throws UnknownTopicError before sending to a topic the cluster does not have, not after delivery.timeout.ms', async () => {
    const { kafka, sent } = fakeKafka([]);
    const unknownTopic = Object.assign(
      new Error('This server does not host this topic-partition'),
      {
        type: 'UNKNOWN_TOPIC_OR_PARTITION',
      },
    );
    (kafka as unknown as { admin: () => unknown }).admin = () => ({
      connect: async () => undefined,
      disconnect: async () => undefined,
      fetchTopicMetadata: async () => Promise.reject(unknownTopic),
    });
    const producer = new KafkajsRecordProducer(kafka, undefined, undefined, retry);
    const error = await producer.send([records('missing', 0)]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnknownTopicError);
    expect(error).toMatchObject({ topic: 'missing' });
    expect(sent).toHaveLength(0);
    expect(clock.ms).toBe(0);
  });

  it("reads a topic's partition count once, for every later send", async () => {
    const { kafka, sent } = fakeKafka([]);
    let lookups = 0;
    const admin = (kafka as unknown as { admin: () => { fetchTopicMetadata: unknown } }).admin;
    (kafka as unknown as { admin: () => unknown }).admin = () => {
      const real = admin() as { fetchTopicMetadata: (a: unknown) => Promise<unknown> };
      return {
        ...real,
        fetchTopicMetadata: (a: unknown) => (lookups++, real.fetchTopicMetadata(a)),
      };
    };
    const producer = new KafkajsRecordProducer(kafka, undefined, undefined, retry);
    await producer.send([records('changelog', 1)]);
    await producer.send([records('changelog', 2)]);
    expect(lookups).toBe(1);
    expect(sent).toEqual([['changelog-1'], ['changelog-2']]);
  });

  it('gives up with ClusterFaultTimeoutError when a partition stays unacknowledged', async () => {
    const { kafka } = fakeKafka(Array.from({ length: 1_000 }, () => ['changelog-2']));
    const producer = new KafkajsRecordProducer(kafka, undefined, undefined, retry);
    const error = await producer.send([records('changelog', 2)]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ClusterFaultTimeoutError);
    expect((error as ClusterFaultTimeoutError).bound).toBe('delivery.timeout.ms');
  });

  it("gives kafkajs' retrier the policy's back-off and as many retries as fill delivery.timeout.ms", () => {
    const { kafka, producerOptions } = fakeKafka([]);
    new KafkajsRecordProducer(kafka, 'app-0_1', 10_000, retry);
    expect(producerOptions[0]).toMatchObject({
      idempotent: true,
      transactionalId: 'app-0_1',
      retry: {
        initialRetryTime: 100,
        maxRetryTime: 1000,
        multiplier: 2,
        factor: 0.2,
        retries: 123,
      },
    });
  });
});
