import { kGetApi, kGetConnection, type Connection, type Consumer } from '@platformatic/kafka';
import type { ConsumedRecord } from '../consumed-record';
import type { FetchedRecord } from '../assigned-partition-reader';
import type { TopicPartitionOffset } from '../group-consumer';
import { offsetCommitTopics } from './platformatic-records';

/** The generation a commit names. */
export interface CommitGeneration {
  readonly generationId: number;
  readonly memberId: string;
}

/**
 * Sends one OffsetCommit of `offsets` to the group's coordinator in `generation`, with
 * platformatic's OffsetCommit API (its own `commit` would rejoin and commit again in a later
 * generation, writing offsets of partitions the member may have lost).
 *
 * @throws the client's error as it is (the caller types the group errors).
 */
export async function sendOffsetCommit(
  member: Consumer,
  groupId: string,
  generation: CommitGeneration,
  groupInstanceId: string | null,
  offsets: readonly TopicPartitionOffset[],
): Promise<void> {
  const topics = offsetCommitTopics(offsets);
  const api = await new Promise<(...args: unknown[]) => void>((resolve, reject) =>
    member[kGetApi]('OffsetCommit', (e, a) => (e ? reject(e) : resolve(a as never))),
  );
  const metadata = await member.metadata({ topics: topics.map((t) => t.name) });
  const coordinator = metadata.brokers.get(member.coordinatorId ?? -1);
  if (!coordinator) throw new Error(`no coordinator known for group ${groupId}`);
  const connection = await new Promise<Connection>((resolve, reject) =>
    member[kGetConnection](coordinator, (e, c) =>
      e || !c ? reject(e ?? new Error('no connection')) : resolve(c),
    ),
  );
  await new Promise<void>((resolve, reject) =>
    api(
      connection,
      groupId,
      generation.generationId,
      generation.memberId,
      groupInstanceId,
      topics,
      (e: Error | null) => (e ? reject(e) : resolve()),
    ),
  );
}

/**
 * Where fetching starts for partitions that have no position: the group's committed offset,
 * else the log start.
 */
export async function startPositions(
  member: Consumer,
  partitions: readonly { topic: string; partition: number }[],
): Promise<{ topic: string; partition: number; offset: number }[]> {
  const byTopic = new Map<string, number[]>();
  for (const p of partitions) byTopic.set(p.topic, [...(byTopic.get(p.topic) ?? []), p.partition]);
  const committed = await member.listCommittedOffsets({
    topics: [...byTopic].map(([topic, ids]) => ({ topic, partitions: ids })),
  });
  const positions: { topic: string; partition: number; offset: number }[] = [];
  for (const { topic, partition } of partitions) {
    const offset = committed.get(topic)?.[partition];
    positions.push({
      topic,
      partition,
      offset:
        offset !== undefined && offset >= 0n
          ? Number(offset)
          : await earliestOffset(member, topic, partition),
    });
  }
  return positions;
}

/** The partition's log start offset. */
export async function earliestOffset(
  member: Consumer,
  topic: string,
  partition: number,
): Promise<number> {
  const offsets = await member.listOffsets({
    topics: [topic],
    partitions: { [topic]: [partition] },
    timestamp: -2n,
  });
  return Number(offsets.get(topic)?.[partition] ?? 0n);
}

/**
 * A fetched record as the engine consumes it, field for field what the kafkajs adapter builds
 * from a kafkajs message (its headers as decoded, `{}` when it has none).
 */
export function consumedRecord(topic: string, partition: number, r: FetchedRecord): ConsumedRecord {
  return {
    topic,
    partition,
    offset: r.offset,
    timestamp: r.timestamp,
    key: r.key,
    value: r.value,
    headers: (r.headers ?? {}) as ConsumedRecord['headers'],
  };
}
