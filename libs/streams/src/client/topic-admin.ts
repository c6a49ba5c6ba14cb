import { PartitionLeaderNotAvailableError } from '../errors/internals/partition-leader-not-available.error';
import { UnknownTopicError } from '../errors/internals/unknown-topic.error';
import type { ClusterAdmin, NewTopic, PartitionOffsets, TopicConfigs } from './cluster-admin';

/**
 * Creates topics and waits until every partition has a leader the broker will name: a KRaft
 * broker answers UNKNOWN_TOPIC_OR_PARTITION until the new topic reaches its metadata cache. A
 * topic created meanwhile by another instance is accepted.
 *
 * @throws the admin's errors of `createTopics`; an Error naming the topics when they have no
 *   leaders after `timeoutMs`.
 */
export async function createTopicsAndWait(
  admin: ClusterAdmin,
  topics: readonly NewTopic[],
  timeoutMs = 30_000,
): Promise<void> {
  if (topics.length === 0) return;
  await admin.createTopics(topics);
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const metadata = await admin.fetchTopicMetadata(topics.map((t) => t.topic));
      const ready = topics.every((spec) => {
        const found = metadata.find((m) => m.name === spec.topic);
        return (
          found !== undefined &&
          found.partitions.length > 0 &&
          found.partitions.every((p) => p.leader >= 0)
        );
      });
      if (ready) return;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) {
      throw new Error(
        `topics ${topics.map((t) => t.topic).join(', ')} have no leaders after ${timeoutMs} ms: ${String(lastError)}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Partition counts of existing topics; missing topics are absent from the map. */
export async function partitionCounts(
  admin: ClusterAdmin,
  topics: readonly string[],
): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  if (topics.length === 0) return counts;
  const existing = new Set(await admin.listTopics());
  const present = topics.filter((t) => existing.has(t));
  if (present.length === 0) return counts;
  const metadata = await admin.fetchTopicMetadata(present);
  for (const topic of metadata) counts.set(topic.name, topic.partitions.length);
  return counts;
}

/**
 * `admin.fetchTopicOffsets`, retried while the partitions' leadership settles. A KRaft broker
 * names a new topic's leader in its metadata a moment before that leader answers ListOffsets,
 * and a client may give up at once on that (kafkajs does on `NOT_LEADER_FOR_PARTITION`).
 *
 * @throws the last UnknownTopicError or PartitionLeaderNotAvailableError once `timeoutMs`
 *   passed, or at once any other error.
 */
export function fetchTopicOffsetsSettled(
  admin: ClusterAdmin,
  topic: string,
  timeoutMs = 10_000,
): Promise<PartitionOffsets[]> {
  return settled(
    (remainingMs) => admin.fetchTopicOffsets(topic, { timeoutMs: remainingMs }),
    timeoutMs,
  );
}

/**
 * `admin.describeTopicConfigs`, retried while a new topic reaches the broker asked: DescribeConfigs
 * goes to any broker, and one whose metadata cache has not got a topic another instance just
 * created answers UNKNOWN_TOPIC_OR_PARTITION (seen on a 3-node KRaft cluster at start-up).
 *
 * @throws the last UnknownTopicError once `timeoutMs` passed, or at once any other error.
 */
export function describeTopicConfigsSettled(
  admin: ClusterAdmin,
  topics: readonly string[],
  configNames: readonly string[],
  timeoutMs = 10_000,
): Promise<TopicConfigs[]> {
  return settled(() => admin.describeTopicConfigs(topics, configNames), timeoutMs);
}

/** `attempt` (given the time left), retried with backoff on a new topic's moment errors. */
async function settled<T>(
  attempt: (remainingMs: number) => Promise<T>,
  timeoutMs: number,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (let delay = 50; ; delay = Math.min(1000, delay * 2)) {
    try {
      return await attempt(Math.max(0, deadline - Date.now()));
    } catch (error) {
      if (!isLeadershipError(error) || Date.now() + delay > deadline) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, delay));
  }
}

/** The errors a just-created (or just-moved) partition answers for a moment. */
function isLeadershipError(error: unknown): boolean {
  return error instanceof PartitionLeaderNotAvailableError || error instanceof UnknownTopicError;
}
