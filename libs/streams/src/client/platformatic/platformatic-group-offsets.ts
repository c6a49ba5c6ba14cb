import { kGetApi, type Consumer } from '@platformatic/kafka';
import type { ConsumedRecord } from '../consumed-record';
import type { FetchedRecord } from '../assigned-partition-reader';
import type { TopicPartitionOffset } from '../group-consumer';
import type { ClusterRetry } from '../cluster-retry/cluster-retry';
import type { PlatformaticCoordinators } from './platformatic-coordinators';
import { offsetCommitTopics } from './platformatic-records';
import type { TransientFault } from '../cluster-retry/transient-fault';
import { findError } from './platformatic-cluster-admin-errors';

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

/** Kafka's answer to a stable offset fetch while a transaction holding offsets is still open. */
const UNSTABLE_OFFSET_COMMIT: TransientFault = { kind: 'busy', reason: 'UNSTABLE_OFFSET_COMMIT' };

interface OffsetFetchPartition {
  readonly partitionIndex: number;
  readonly committedOffset: bigint;
}
interface OffsetFetchTopic {
  readonly name: string;
  readonly partitions: readonly OffsetFetchPartition[];
}

/**
 * The group's committed offsets of `partitions`, fetched with `require_stable` (KIP-447), as
 * Java's consumer fetches them under read_committed: while a transaction that holds offsets of
 * one of them is still open (a former owner's, committing or aborting), the coordinator answers
 * UNSTABLE_OFFSET_COMMIT and the fetch is tried again with back-off within
 * `default.api.timeout.ms`, so a new owner never starts from offsets a transaction is about to
 * move (platformatic's `listCommittedOffsets` does not ask for stable offsets). A coordinator
 * that moved or died is looked up again. Sent as an admin's fetch (no member id), which both
 * group protocols answer.
 *
 * @throws `ClusterFaultTimeoutError` when the offsets stayed unstable, or no coordinator
 *   answered, for the bound; the client's error as it is for anything else.
 */
export async function stableCommittedOffsets(
  { member, coordinators, retry }: OffsetCommitSender,
  groupId: string,
  partitions: readonly { topic: string; partition: number }[],
): Promise<Map<string, Map<number, bigint>>> {
  const byTopic = new Map<string, number[]>();
  for (const p of partitions) byTopic.set(p.topic, [...(byTopic.get(p.topic) ?? []), p.partition]);
  const topics = [...byTopic].map(([name, partitionIndexes]) => ({ name, partitionIndexes }));
  const api = await new Promise<((...args: unknown[]) => void) & { version: number }>(
    (resolve, reject) =>
      member[kGetApi]('OffsetFetch', (e, a) => (e ? reject(e) : resolve(a as never))),
  );
  return retry.run({
    name: `OffsetFetch (require_stable) of group ${groupId}`,
    bound: 'api',
    attempt: async () => {
      const connection = await coordinators.connection('group', groupId);
      const response = await new Promise<{
        groups?: { topics: OffsetFetchTopic[] }[];
        topics?: OffsetFetchTopic[];
      }>((resolve, reject) =>
        api(
          connection,
          [{ groupId, memberId: null, memberEpoch: -1, topics }],
          true,
          (e: Error | null, r: never) => (e ? reject(e) : resolve(r)),
        ),
      );
      const answered = api.version >= 8 ? (response.groups?.[0]?.topics ?? []) : response.topics;
      const committed = new Map<string, Map<number, bigint>>();
      for (const topic of answered ?? []) {
        const offsets = new Map<number, bigint>();
        for (const p of topic.partitions) offsets.set(p.partitionIndex, p.committedOffset);
        committed.set(topic.name, offsets);
      }
      return committed;
    },
    alsoRetry: (error) =>
      findError(error, (e) => e.apiId === 'UNSTABLE_OFFSET_COMMIT')
        ? UNSTABLE_OFFSET_COMMIT
        : undefined,
    onFault: (fault) => {
      if (fault.kind !== 'busy') coordinators.forget('group', groupId);
    },
    stopped: () => member.closed,
  });
}

/**
 * Where fetching starts for partitions that have no position: the group's committed offset
 * ({@link stableCommittedOffsets}), else the log start.
 */
export async function startPositions(
  sender: OffsetCommitSender,
  groupId: string,
  partitions: readonly { topic: string; partition: number }[],
): Promise<{ topic: string; partition: number; offset: number }[]> {
  const { member } = sender;
  const committed = await stableCommittedOffsets(sender, groupId, partitions);
  const positions: { topic: string; partition: number; offset: number }[] = [];
  for (const { topic, partition } of partitions) {
    const offset = committed.get(topic)?.get(partition);
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
