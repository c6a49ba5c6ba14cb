// The streams-protocol GroupConsumer's fetch size against the broker: `maxBytesPerPartition`
// (the engine's `maxPartitionFetchBytes`) bounds each batch as on the classic protocol.
import { randomUUID } from 'node:crypto';
import { encodeInfo } from '../../cluster/internals/assignment-info';
import type { GroupConsumer } from '../group-consumer';
import { platformaticStreamsGroupConsumerFactory } from './platformatic-streams-group-consumer';
import { brokers, KafkaTestContext } from '../../../../../test/support/kafka-test-context';
import { waitFor } from '../../../../../test/support/wait-for';

jest.setTimeout(90_000);

const RECORDS = 120;
const PER_SEND = 10; // one record batch per send
const VALUE_BYTES = 1024;

const until = (what: string, check: () => boolean, timeoutMs = 30_000): Promise<void> =>
  waitFor(check, timeoutMs, what, { intervalMs: 50 });

describe('PlatformaticStreamsGroupConsumer fetch size against the broker', () => {
  const context = new KafkaTestContext();
  let input: string;
  const consumers: GroupConsumer[] = [];

  beforeAll(async () => {
    input = await context.createTopic(context.topicName('sgc-size'), 1);
    const producer = context.kafka.producer();
    await producer.connect();
    for (let sent = 0; sent < RECORDS; sent += PER_SEND) {
      await producer.send({
        topic: input,
        messages: Array.from({ length: PER_SEND }, (_, i) => ({
          key: `k${sent + i}`,
          value: Buffer.alloc(VALUE_BYTES, sent + i),
        })),
      });
    }
    await producer.disconnect();
  });

  afterAll(async () => {
    for (const c of consumers) await c.close();
    await context.cleanup();
  });

  /** The sizes (in records) of the batches one member of a group of its own is handed. */
  async function batchSizes(maxBytesPerPartition: number | undefined): Promise<number[]> {
    const groupId = `${context.applicationId}-size-${randomUUID().slice(0, 8)}`;
    const consumer = platformaticStreamsGroupConsumerFactory({
      clientId: 'streams-group-fetch-size-spec',
      bootstrapBrokers: brokers(),
    })({
      groupId,
      assignor: {
        name: 'unused',
        subscriptionUserData: () =>
          encodeInfo({
            version: 1,
            processId: randomUUID(),
            endpoint: '127.0.0.1:7101',
            queryEndpoint: '127.0.0.1:17101',
            taskOffsetSums: {},
            previousActive: [],
          }),
        assign: () => Promise.reject(new Error('the broker assigns')),
      },
      sessionTimeoutMs: 6000,
      heartbeatIntervalMs: 1000,
      rebalanceTimeoutMs: 20_000,
      maxWaitTimeMs: 100,
      maxBytesPerPartition,
      rebalanceProtocol: 'cooperative',
      streamsGroup: {
        subtopologies: () => [
          {
            id: '0',
            sourceTopics: [input],
            repartitionSourceTopics: [],
            repartitionSinkTopics: [],
            changelogTopics: [],
            copartitionGroups: [],
          },
        ],
        taskEndOffsetSums: () => Promise.resolve({}),
      },
    });
    consumers.push(consumer);
    const sizes: number[] = [];
    await consumer.start({
      topics: [input],
      listener: {
        onRebalancing: () => undefined,
        onRevoking: async () => undefined,
        onAssigned: async () => undefined,
        onLost: async () => undefined,
        onFetch: () => undefined,
        onFailed: (error) => {
          throw error;
        },
      },
      handleBatch: async (batch) => {
        sizes.push(batch.records.length);
        return true;
      },
    });
    const total = () => sizes.reduce((a, b) => a + b, 0);
    await until('every record fetched', () => total() >= RECORDS);
    expect(total()).toBe(RECORDS);
    return sizes;
  }

  it('hands batches of at most maxBytesPerPartition (a record batch over it comes whole)', async () => {
    // 16 KiB: one record batch of 10 x 1 KiB fits, a second one is returned only whole.
    const small = await batchSizes(16_384);
    expect(small.length).toBeGreaterThanOrEqual(RECORDS / (2 * PER_SEND));
    expect(Math.max(...small)).toBeLessThanOrEqual(2 * PER_SEND);
    // The default (1 MiB, the Java consumer's): every record in one fetch.
    const large = await batchSizes(undefined);
    expect(large).toEqual([RECORDS]);
  });
});
