import { completeStreamsLogger } from '../logging/logger';
import { resolveStreamsConfig, type StreamsConfig } from '../runtime/streams-config';
import { createKafkaClientAdapters } from './kafka-client';
import { KafkajsClusterAdmin } from './kafkajs/kafkajs-cluster-admin';
import { KafkajsRecordProducer } from './kafkajs/kafkajs-record-producer';
import { KafkajsGroupConsumer } from './kafkajs/kafkajs-group-consumer';
import { PlatformaticClusterAdmin } from './platformatic/platformatic-cluster-admin';
import { PlatformaticRecordProducer } from './platformatic/platformatic-record-producer';
import { PlatformaticGroupConsumer } from './platformatic/platformatic-group-consumer';
import type { GroupConsumerOptions } from './group-consumer';
import type { KafkaClientAdapters } from './kafka-client-adapters';

const base: StreamsConfig = { applicationId: 'client-spec', bootstrapServers: ['127.0.0.1:1'] };
/** The kafkajs logs (its partitioner notice) dropped. */
const quiet = completeStreamsLogger({ warn: () => undefined });

const groupOptions: GroupConsumerOptions = {
  groupId: 'client-spec',
  assignor: {
    name: 'client-spec',
    subscriptionUserData: () => Buffer.alloc(0),
    assign: () => Promise.resolve([]),
  },
  sessionTimeoutMs: 45_000,
  heartbeatIntervalMs: 3_000,
  rebalanceProtocol: 'eager',
  rebalanceTimeoutMs: 60_000,
  maxWaitTimeMs: 100,
};

/** Makes one of each adapter (none connects), checks their classes, and closes them. */
async function adaptersOf(clients: KafkaClientAdapters): Promise<string[]> {
  const admin = clients.clusterAdmin();
  const producer = clients.recordProducers.idempotent();
  const transactional = clients.recordProducers.transactional('client-spec-0_0', 60_000);
  const consumer = clients.groupConsumers(groupOptions);
  const reader = clients.assignedReaders();
  try {
    return [admin, producer, transactional, consumer].map((a) => a.constructor.name);
  } finally {
    await Promise.all([admin.disconnect(), producer.disconnect(), transactional.disconnect()]);
    await reader?.close();
  }
}

describe('createKafkaClientAdapters', () => {
  it("builds kafkajs' adapters by default, with the throwaway-group fallback client", async () => {
    const clients = createKafkaClientAdapters(resolveStreamsConfig(base), quiet);
    expect(clients.client).toBe('kafkajs');
    expect(await adaptersOf(clients)).toEqual([
      KafkajsClusterAdmin.name,
      KafkajsRecordProducer.name,
      KafkajsRecordProducer.name,
      KafkajsGroupConsumer.name,
    ]);
    expect(clients.throwawayGroupClient).toBeDefined();
  });

  it("builds @platformatic/kafka's adapters, with no fallback client", async () => {
    const clients = createKafkaClientAdapters(
      resolveStreamsConfig({ ...base, kafkaClient: '@platformatic/kafka' }),
      quiet,
    );
    expect(clients.client).toBe('@platformatic/kafka');
    expect(await adaptersOf(clients)).toEqual([
      PlatformaticClusterAdmin.name,
      PlatformaticRecordProducer.name,
      PlatformaticRecordProducer.name,
      PlatformaticGroupConsumer.name,
    ]);
    expect(clients.throwawayGroupClient).toBeUndefined();
  });
});
