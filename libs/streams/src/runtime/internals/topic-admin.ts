import type { Admin, ITopicConfig } from 'kafkajs';

/**
 * Creates topics and waits until every partition has a leader the broker will name. kafkajs'
 * own `waitForLeaders` asks metadata v0 and gives up on UNKNOWN_TOPIC_OR_PARTITION, which a
 * KRaft broker answers until the new topic reaches its metadata cache; a topic created
 * meanwhile by another instance is accepted.
 */
export async function createTopicsAndWait(
  admin: Admin,
  topics: readonly ITopicConfig[],
  timeoutMs = 30_000,
): Promise<void> {
  if (topics.length === 0) return;
  try {
    await admin.createTopics({ topics: [...topics], waitForLeaders: false });
  } catch (error) {
    const text = String((error as { errors?: unknown[] }).errors?.map(String) ?? error);
    if (
      !/TOPIC_ALREADY_EXISTS|already exists/i.test(text) &&
      !/already exists/i.test(String(error))
    )
      throw error;
  }
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const { topics: metadata } = await admin.fetchTopicMetadata({
        topics: topics.map((t) => t.topic),
      });
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
  admin: Admin,
  topics: readonly string[],
): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  if (topics.length === 0) return counts;
  const existing = new Set(await admin.listTopics());
  const present = topics.filter((t) => existing.has(t));
  if (present.length === 0) return counts;
  const { topics: metadata } = await admin.fetchTopicMetadata({ topics: present });
  for (const topic of metadata) counts.set(topic.name, topic.partitions.length);
  return counts;
}

/** Partition leadership errors a just-created (or just-moved) partition answers for a moment. */
const LEADERSHIP_ERRORS = new Set([
  'NOT_LEADER_FOR_PARTITION',
  'NOT_LEADER_OR_FOLLOWER',
  'LEADER_NOT_AVAILABLE',
  'UNKNOWN_LEADER_EPOCH',
  'FENCED_LEADER_EPOCH',
  'UNKNOWN_TOPIC_OR_PARTITION',
]);

/**
 * `admin.fetchTopicOffsets`, retried while the partitions' leadership settles. A KRaft broker
 * names a new topic's leader in its metadata a moment before that leader answers ListOffsets,
 * and kafkajs gives up at once on `NOT_LEADER_FOR_PARTITION` (it retries only an unknown topic).
 *
 * @throws the last error once `timeoutMs` passed, or at once for any other error.
 */
export async function fetchTopicOffsetsSettled(
  admin: Admin,
  topic: string,
  timeoutMs = 10_000,
): Promise<Awaited<ReturnType<Admin['fetchTopicOffsets']>>> {
  const deadline = Date.now() + timeoutMs;
  for (let delay = 50; ; delay = Math.min(1000, delay * 2)) {
    try {
      return await admin.fetchTopicOffsets(topic);
    } catch (error) {
      if (!isLeadershipError(error) || Date.now() + delay > deadline) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, delay));
  }
}

function isLeadershipError(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 4; depth++) {
    const type = (e as { type?: string }).type;
    if (type !== undefined && LEADERSHIP_ERRORS.has(type)) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}
