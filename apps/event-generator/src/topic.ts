import type { Admin } from 'kafkajs';

/** What {@link ensureTopic} found or did. */
export interface TopicStatus {
  readonly topic: string;
  /** True when this call created the topic. */
  readonly created: boolean;
  readonly partitions: number;
  /** Records the topic holds (end minus start offsets over its partitions). */
  readonly records: number;
}

/** Partition count of a topic, or undefined when it does not exist. */
export async function topicPartitions(admin: Admin, topic: string): Promise<number | undefined> {
  const existing = await admin.listTopics();
  if (!existing.includes(topic)) return undefined;
  const { topics } = await admin.fetchTopicMetadata({ topics: [topic] });
  return topics[0]?.partitions.length;
}

/** How many records a topic holds: the sum of (high watermark - low watermark). */
export async function topicRecordCount(admin: Admin, topic: string): Promise<number> {
  const offsets = await admin.fetchTopicOffsets(topic);
  return offsets.reduce((total, p) => total + (Number(p.high) - Number(p.low)), 0);
}

/**
 * Creates `topic` with `partitions` partitions (replication factor 1) unless it exists, and
 * waits until every partition has a leader. Reports what it found: an existing topic keeps
 * its own partition count, which the caller may compare with the one it wanted.
 */
export async function ensureTopic(
  admin: Admin,
  topic: string,
  partitions: number,
  timeoutMs = 30_000,
): Promise<TopicStatus> {
  let count = await topicPartitions(admin, topic);
  let created = false;
  if (count === undefined) {
    // kafkajs' own waitForLeaders gives up on the UNKNOWN_TOPIC_OR_PARTITION a KRaft broker
    // answers until the new topic reaches its metadata cache: poll instead.
    created = await admin.createTopics({
      topics: [{ topic, numPartitions: partitions, replicationFactor: 1 }],
      waitForLeaders: false,
    });
    count = partitions;
  }
  await waitForLeaders(admin, topic, count, timeoutMs);
  // A new topic is empty; asking its offsets at once may still meet NOT_LEADER.
  const records = created ? 0 : await retrying(() => topicRecordCount(admin, topic), timeoutMs);
  return { topic, created, partitions: count, records };
}

/** Waits until `topic` has `partitions` partitions, each with a leader. */
export async function waitForLeaders(
  admin: Admin,
  topic: string,
  partitions: number,
  timeoutMs = 30_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      const { topics } = await admin.fetchTopicMetadata({ topics: [topic] });
      const found = topics[0]?.partitions ?? [];
      if (found.length === partitions && found.every((p) => p.leader >= 0)) return;
    } catch (error) {
      lastError = error;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(
    `topic ${topic} has no leader for every partition after ${timeoutMs} ms` +
      (lastError ? `: ${String(lastError)}` : ''),
  );
}

/** Calls `attempt` until it resolves, every 200 ms, for at most `timeoutMs`. */
async function retrying<T>(attempt: () => Promise<T>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await attempt();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}
