import type { Consumer, Producer } from 'kafkajs';
import { Kafka, logLevel } from './kafkajs';
import { KafkajsClusterAdmin } from './kafkajs-cluster-admin';
import { KafkajsConfirmedReads } from './kafkajs-confirmed-reads';
import { describeClusterAdminContract } from '../../../test-support/cluster-admin.contract';
import { brokers, testKafka } from '../../../../../test/support/kafka-test-context';

// As the engine's clients make it (offsets and committed offsets read from confirmed leaders and
// coordinators), and over kafkajs' admin alone (a kafkajs whose internals the engine cannot use).
describe.each([
  ['kafkajs', true],
  ['kafkajs, its admin alone', false],
])('%s', (name, confirmed) => {
  describeClusterAdminContract(name, () => {
    const kafka = testKafka('cluster-admin-contract');
    let producer: Producer | undefined;
    const consumers = new Set<Consumer>();
    return {
      admin: () =>
        new KafkajsClusterAdmin(
          kafka.admin(),
          brokers(),
          undefined,
          confirmed ? KafkajsConfirmedReads.of(kafka) : undefined,
        ),
      unreachableAdmin: (unreachable) =>
        new KafkajsClusterAdmin(
          new Kafka({
            brokers: [unreachable],
            logLevel: logLevel.NOTHING,
            connectionTimeout: 500,
            retry: { retries: 0 },
          }).admin(),
          [unreachable],
        ),
      async produce(topic, partition, count) {
        if (!producer) {
          producer = kafka.producer();
          await producer.connect();
        }
        await producer.send({
          topic,
          messages: Array.from({ length: count }, (_, i) => ({ partition, value: `v${i}` })),
        });
      },
      async joinGroup(groupId, topic, offsets = {}) {
        const consumer = kafka.consumer({ groupId });
        consumers.add(consumer);
        const joined = new Promise<void>((resolve) =>
          consumer.on(consumer.events.GROUP_JOIN, () => resolve()),
        );
        await consumer.connect();
        await consumer.subscribe({ topics: [topic] });
        await consumer.run({ autoCommit: false, eachBatch: async () => undefined });
        await joined;
        const entries = Object.entries(offsets);
        if (entries.length > 0) {
          await consumer.commitOffsets(
            entries.map(([partition, offset]) => ({
              topic,
              partition: Number(partition),
              offset: String(offset),
            })),
          );
        }
        return async () => {
          consumers.delete(consumer);
          await consumer.disconnect();
        };
      },
      async close() {
        await producer?.disconnect();
        for (const consumer of consumers) await consumer.disconnect();
      },
    };
  });
});
