// kafkajs with the engine's fixes: importing @nest-streams/streams installs them, before
// anything loads kafkajs.
import '@nest-streams/streams';
import { Kafka, logLevel, type Admin } from 'kafkajs';
import { BrokerToolError } from './broker-error';

/** A topic to create. */
export interface NewTopic {
  readonly topic: string;
  /** Partition count; default 1. */
  readonly partitions?: number;
  /** Replication factor; default the brokers' `default.replication.factor` (-1). */
  readonly replicationFactor?: number;
  /** Topic configs (`cleanup.policy`, `retention.ms`, ...). */
  readonly configs?: Readonly<Record<string, string>>;
}

/**
 * An admin client of the broker tool on `brokers` (`host:port`), quiet (the tool reports its
 * own errors). Connect it before use; disconnect it after.
 */
export function toolAdmin(brokers: readonly string[]): Admin {
  return new Kafka({
    clientId: 'nest-streams-kafka',
    brokers: [...brokers],
    logLevel: logLevel.NOTHING,
    retry: { retries: 2 },
  }).admin();
}

/**
 * Creates `spec` on `brokers` and waits until every partition has a leader, as Kafka's
 * `kafka-topics.sh --create` does (no Kafka distribution needed). Resolves `created`, or
 * `exists` when the topic is there already and `ifNotExists` is set.
 *
 * @throws BrokerToolError when the topic exists (without `ifNotExists`), the brokers refuse it
 *   (a bad config, more replicas than brokers), or are not reachable: the message says which.
 */
export async function createTopic(
  brokers: readonly string[],
  spec: NewTopic,
  options: { ifNotExists?: boolean } = {},
): Promise<'created' | 'exists'> {
  const admin = toolAdmin(brokers);
  try {
    await admin.connect().catch((error: unknown) => {
      throw new BrokerToolError(
        `Cannot reach the Kafka brokers ${brokers.join(', ')} (${messageOf(error)}): start one (nest-streams-kafka start) or name yours with --brokers or KAFKA_BROKERS.`,
      );
    });
    const existing = await admin.fetchTopicMetadata({ topics: [] });
    const found = existing.topics.find((t) => t.name === spec.topic);
    if (found) {
      if (options.ifNotExists) return 'exists';
      throw new BrokerToolError(
        `Topic ${spec.topic} already exists (${found.partitions.length} partitions); --if-not-exists accepts that.`,
      );
    }
    const partitions = spec.partitions ?? 1;
    await admin
      .createTopics({
        topics: [
          {
            topic: spec.topic,
            numPartitions: partitions,
            replicationFactor: spec.replicationFactor ?? -1,
            configEntries: Object.entries(spec.configs ?? {}).map(([name, value]) => ({
              name,
              value,
            })),
          },
        ],
        // kafkajs' own wait asks metadata v0, which a KRaft broker answers with
        // UNKNOWN_TOPIC_OR_PARTITION until the topic reaches its cache: poll instead.
        waitForLeaders: false,
      })
      .catch((error: unknown) => {
        throw new BrokerToolError(`The brokers refused topic ${spec.topic}: ${messageOf(error)}.`);
      });
    await waitForTopicLeaders(admin, spec.topic, partitions);
    return 'created';
  } finally {
    await admin.disconnect().catch(() => undefined);
  }
}

/**
 * Waits until every partition of a new topic has a leader the brokers name.
 *
 * @throws BrokerToolError after `timeoutMs` (default 30 s), with the last error seen.
 */
export async function waitForTopicLeaders(
  admin: Admin,
  topic: string,
  numPartitions: number,
  timeoutMs = 30_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      const { topics } = await admin.fetchTopicMetadata({ topics: [topic] });
      const partitions = topics[0]?.partitions ?? [];
      if (partitions.length === numPartitions && partitions.every((p) => p.leader >= 0)) return;
    } catch (error) {
      lastError = error;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new BrokerToolError(
    `Topic ${topic} has no leaders after ${timeoutMs} ms${lastError ? ` (${messageOf(lastError)})` : ''}.`,
  );
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
