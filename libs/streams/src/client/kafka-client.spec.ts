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
import { RetryingClusterAdmin } from './cluster-retry/retrying-cluster-admin';
import { idleGroupConsumerOptions } from '../../test-support/group-consumer-options.fixture';

const base: StreamsConfig = { applicationId: 'client-spec', bootstrapServers: ['127.0.0.1:1'] };
/** The kafkajs logs (its partitioner notice) dropped. */
const quiet = completeStreamsLogger({ warn: () => undefined });

const groupOptions: GroupConsumerOptions = idleGroupConsumerOptions('client-spec', {
  sessionTimeoutMs: 45_000,
  heartbeatIntervalMs: 3_000,
  rebalanceProtocol: 'eager',
  rebalanceTimeoutMs: 60_000,
  maxWaitTimeMs: 100,
});

/** Makes one of each adapter (none connects), checks their classes, and closes them. */
async function adaptersOf(clients: KafkaClientAdapters): Promise<string[]> {
  const admin = clients.clusterAdmin();
  const producer = clients.recordProducers.idempotent();
  const transactional = clients.recordProducers.transactional('client-spec-0_0', 60_000);
  const consumer = clients.groupConsumers(groupOptions);
  const reader = clients.assignedReaders();
  try {
    // The cluster admin's calls go through the retry policy, around the client's adapter.
    expect(admin).toBeInstanceOf(RetryingClusterAdmin);
    const adapter = (admin as RetryingClusterAdmin).admin;
    return [adapter, producer, transactional, consumer].map((a) => a.constructor.name);
  } finally {
    await Promise.all([admin.disconnect(), producer.disconnect(), transactional.disconnect()]);
    await reader?.close();
  }
}

describe('createKafkaClientAdapters', () => {
  it.each([
    {
      builds: "kafkajs' adapters when asked, with the throwaway-group fallback client",
      config: { ...base, kafkaClient: 'kafkajs' as const },
      client: 'kafkajs',
      classes: [
        KafkajsClusterAdmin,
        KafkajsRecordProducer,
        KafkajsRecordProducer,
        KafkajsGroupConsumer,
      ],
      fallback: true,
    },
    {
      builds: "@platformatic/kafka's adapters by default, with no fallback client",
      config: base,
      client: '@platformatic/kafka',
      classes: [
        PlatformaticClusterAdmin,
        PlatformaticRecordProducer,
        PlatformaticRecordProducer,
        PlatformaticGroupConsumer,
      ],
      fallback: false,
    },
  ])('builds $builds', async ({ config, client, classes, fallback }) => {
    const clients = createKafkaClientAdapters(resolveStreamsConfig(config), quiet);
    expect(clients.client).toBe(client);
    expect(await adaptersOf(clients)).toEqual(classes.map((c) => c.name));
    expect(clients.throwawayGroupClient !== undefined).toBe(fallback);
  });
});
