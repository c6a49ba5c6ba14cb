import { kGetApi, type Consumer } from '@platformatic/kafka';
import type { ConsumedRecord } from '../consumed-record';
import type { FetchedRecord } from '../assigned-partition-reader';
import type { TopicPartitionOffset } from '../group-consumer';
import type { ClusterRetry } from '../cluster-retry/cluster-retry';
import type { PlatformaticCoordinators } from './platformatic-coordinators';
import { offsetCommitTopics } from './platformatic-records';

/** The generation a commit names. */
export interface CommitGeneration {
  readonly generationId: number;
  readonly memberId: string;
}

/** Who sends a group's OffsetCommit, and how it retries. */
export interface OffsetCommitSender {
  readonly member: Consumer;
  /** The group's coordinator, found with FindCoordinator and forgotten after a fault. */
  readonly coordinators: PlatformaticCoordinators;
  readonly retry: ClusterRetry;
}

/**
 * Sends one OffsetCommit of `offsets` to the group's coordinator in `generation`, with
 * platformatic's OffsetCommit API (its own `commit` would rejoin and commit again in a later
 * generation, writing offsets of partitions the member may have lost). The coordinator is the
 * one FindCoordinator names (not the member's: platformatic forgets it only inside its own
 * calls); a coordinator that died, moved or is loading, a refused connection or a timeout is
 * looked up again and the commit retried with back-off within `default.api.timeout.ms`, as
 * Java's consumer marks the coordinator unknown and retries.
 *
 * @throws the client's error as it is when the coordinator refuses (the caller types the group
 *   errors); `ClusterFaultTimeoutError` when no coordinator answered within the bound.
 */
export async function sendOffsetCommit(
  { member, coordinators, retry }: OffsetCommitSender,
  groupId: string,
  generation: CommitGeneration,
  groupInstanceId: string | null,
  offsets: readonly TopicPartitionOffset[],
): Promise<void> {
  const topics = offsetCommitTopics(offsets);
  const api = await new Promise<(...args: unknown[]) => void>((resolve, reject) =>
    member[kGetApi]('OffsetCommit', (e, a) => (e ? reject(e) : resolve(a as never))),
  );
  await retry.run({
    name: `OffsetCommit of group ${groupId}`,
    bound: 'api',
    attempt: async () => {
      const connection = await coordinators.connection('group', groupId);
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
    },
    onFault: (fault) => {
      if (fault.kind !== 'busy') coordinators.forget('group', groupId);
    },
    stopped: () => member.closed,
  });
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
