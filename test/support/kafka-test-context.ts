import { randomUUID } from 'node:crypto';
// kafkajs with the engine's fixes (no TimeoutNegativeWarning on Node 24): importing
// @nest-streams/streams installs them, before anything loads kafkajs.
import '@nest-streams/streams';
import { Admin, ITopicConfig, Kafka, logLevel, type Producer, type ProducerConfig } from 'kafkajs';
import { waitForTopicLeaders } from '@nest-streams/testing/kafka';

/** Waits until every partition of a new topic has a leader the broker will name. */
export { waitForTopicLeaders };

/** The bootstrap servers of the cluster under test (set by the global setup). */
export function brokers(): string[] {
  const value = process.env.KAFKA_BROKERS;
  if (!value)
    throw new Error(
      'KAFKA_BROKERS is not set: run integration tests through jest.integration.config.js',
    );
  return value.split(',').map((b) => b.trim());
}

/**
 * kafkajs whose producers are idempotent unless a test says otherwise. On a fresh broker a
 * just-created partition can answer NOT_LEADER_OR_FOLLOWER to the first Produce while its leader
 * is already in the metadata; kafkajs then resends the whole request, and a plain producer writes
 * the partitions that had succeeded twice (a test counting exact results then waits forever).
 */
class TestKafka extends Kafka {
  override producer(config: ProducerConfig = {}): Producer {
    return super.producer({ idempotent: true, maxInFlightRequests: 1, ...config });
  }
}

/** A kafkajs client for tests, quiet unless KAFKAJS_LOG is set; producers idempotent. */
export function testKafka(clientId = 'nest-streams-test'): Kafka {
  return new TestKafka({
    clientId,
    brokers: brokers(),
    logLevel: process.env.KAFKAJS_LOG ? logLevel.INFO : logLevel.NOTHING,
  });
}

/** A short random suffix safe in topic names and group ids. */
export function randomSuffix(): string {
  return randomUUID().replace(/-/g, '').slice(0, 12);
}

/**
 * One test's Kafka namespace: random application id and topic names, every topic it created
 * deleted by {@link KafkaTestContext.cleanup}, along with topics prefixed by its application id
 * (changelogs, repartition topics).
 */
export class KafkaTestContext {
  readonly applicationId = `test-app-${randomSuffix()}`;
  readonly kafka = testKafka(this.applicationId);
  private readonly created = new Set<string>();
  private adminClient: Admin | undefined;

  /** A topic name unique to this test; not created. */
  topicName(label = 'topic'): string {
    return `test-${label}-${randomSuffix()}`;
  }

  async admin(): Promise<Admin> {
    if (!this.adminClient) {
      this.adminClient = this.kafka.admin();
      await this.adminClient.connect();
    }
    return this.adminClient;
  }

  /** Creates a topic (waiting for its leaders) and remembers it for cleanup. */
  async createTopic(
    topic: string,
    numPartitions = 1,
    configEntries: ITopicConfig['configEntries'] = [],
  ): Promise<string> {
    const admin = await this.admin();
    // kafkajs' own waitForLeaders asks metadata v0 and gives up on UNKNOWN_TOPIC_OR_PARTITION,
    // which a KRaft broker answers until the new topic reaches its metadata cache: poll instead.
    await admin.createTopics({
      topics: [{ topic, numPartitions, replicationFactor: 1, configEntries }],
      waitForLeaders: false,
    });
    this.created.add(topic);
    await waitForTopicLeaders(admin, topic, numPartitions);
    return topic;
  }

  /** Deletes every topic this test created or that carries its application id. */
  async cleanup(): Promise<void> {
    const admin = await this.admin();
    const existing = await admin.listTopics();
    const doomed = existing.filter(
      (t) => this.created.has(t) || t.startsWith(`${this.applicationId}-`),
    );
    if (doomed.length > 0) await admin.deleteTopics({ topics: doomed, timeout: 30_000 });
    await admin.disconnect();
    this.adminClient = undefined;
  }
}
