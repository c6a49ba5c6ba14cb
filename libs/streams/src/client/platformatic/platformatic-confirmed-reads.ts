import {
  findCoordinatorV4,
  findCoordinatorV5,
  findCoordinatorV6,
  listOffsetsV4,
  listOffsetsV5,
  listOffsetsV6,
  listOffsetsV7,
  listOffsetsV8,
  listOffsetsV9,
  metadataV12,
  offsetFetchV8,
  offsetFetchV9,
  type Admin,
  type Broker,
  type ClusterMetadata,
  type Connection,
} from '@platformatic/kafka';
import { GroupCoordinatorUnconfirmedError } from '../../errors/internals/group-coordinator-unconfirmed.error';
import { PartitionLeaderNotAvailableError } from '../../errors/internals/partition-leader-not-available.error';
import type { PartitionOffsets } from '../cluster-admin';
import {
  assertAnsweredByCoordinator,
  assertAnsweredByLeaders,
  type LeaderAnswer,
} from '../answer-confirmation';
import { negotiatedVersions, type NegotiatedApi } from './platformatic-negotiated-api';

const READ_UNCOMMITTED = 0;
const EARLIEST = -2n;
const LATEST = -1n;
const LIST_OFFSETS_API_KEY = 2;
const METADATA_API_KEY = 3;
const OFFSET_FETCH_API_KEY = 9;
const FIND_COORDINATOR_API_KEY = 10;
const GROUP_COORDINATOR = 0;
/** ListOffsets with `current_leader_epoch` (v4, Kafka 2.1) up to what platformatic encodes. */
const LIST_OFFSETS = {
  4: listOffsetsV4.api,
  5: listOffsetsV5.api,
  6: listOffsetsV6.api,
  7: listOffsetsV7.api,
  8: listOffsetsV8.api,
  9: listOffsetsV9.api,
};
/** Metadata with the leader epochs and topic ids (v12, Kafka 3.1). */
const METADATA = { 12: metadataV12.api };
/** FindCoordinator with a list of keys (v4, Kafka 2.8) up to what platformatic encodes. */
const FIND_COORDINATOR = {
  4: findCoordinatorV4.api,
  5: findCoordinatorV5.api,
  6: findCoordinatorV6.api,
};
/** OffsetFetch of groups (v8, Kafka 3.0) up to what platformatic encodes. */
const OFFSET_FETCH = { 8: offsetFetchV8.api, 9: offsetFetchV9.api };
type ListOffsetsApi = (typeof LIST_OFFSETS)[4];
type MetadataApi = (typeof METADATA)[12];
type FindCoordinatorApi = (typeof FIND_COORDINATOR)[4];
type OffsetFetchApi = (typeof OFFSET_FETCH)[8];

/** The partitions of one topic whose committed offsets are asked. */
export interface CommittedOffsetsTopic {
  readonly name: string;
  readonly partitionIndexes: number[];
}

/** A group's committed offsets as OffsetFetch answers them (-1: none committed). */
export interface CommittedOffsetsAnswer {
  readonly topics: readonly {
    readonly name: string;
    readonly partitions: readonly { partitionIndex: number; committedOffset: bigint }[];
  }[];
}

/**
 * The reads whose answer only one broker may give, sent by the engine on platformatic's
 * connections and refused unless another broker, asked once the answers came, confirms the one
 * that answered:
 * - a topic's log start offsets and high watermarks, each read from its partition's leader with
 *   the leader epoch of fresh metadata (KIP-320: a broker at another epoch refuses), kept only if
 *   that broker still leads at the epoch it answered at (see {@link assertAnsweredByLeaders});
 * - a group's committed offsets, kept only if that broker is still the group's coordinator (see
 *   {@link assertAnsweredByCoordinator}).
 *
 * The epoch alone does not do: a request sent to a broker while it was hung is answered, the
 * moment it resumes, at the epoch it still believes in, from its log and its group state before
 * the controller moved its leaderships away; and platformatic asks its metadata and coordinators
 * of its first bootstrap broker that answers, which may be that broker.
 */
export class PlatformaticConfirmedReads {
  private readonly listOffsets: NegotiatedApi<number, ListOffsetsApi>;
  private readonly metadata: NegotiatedApi<number, MetadataApi>;
  private readonly findCoordinator: NegotiatedApi<number, FindCoordinatorApi>;
  private readonly offsetFetch: NegotiatedApi<number, OffsetFetchApi>;

  constructor(private readonly admin: Admin) {
    this.listOffsets = negotiatedVersions(admin, {
      apiKey: LIST_OFFSETS_API_KEY,
      name: 'ListOffsets',
      needs: 'offsets read from confirmed leaders need v4 or newer (Kafka 2.1+)',
      versions: LIST_OFFSETS,
    });
    this.metadata = negotiatedVersions(admin, {
      apiKey: METADATA_API_KEY,
      name: 'Metadata',
      needs: 'leaders confirmed by another broker need v12 (Kafka 3.1+)',
      versions: METADATA,
    });
    this.findCoordinator = negotiatedVersions(admin, {
      apiKey: FIND_COORDINATOR_API_KEY,
      name: 'FindCoordinator',
      needs: 'coordinators confirmed by another broker need v4 or newer (Kafka 2.8+)',
      versions: FIND_COORDINATOR,
    });
    this.offsetFetch = negotiatedVersions(admin, {
      apiKey: OFFSET_FETCH_API_KEY,
      name: 'OffsetFetch',
      needs: 'committed offsets read from a confirmed coordinator need v8 or newer (Kafka 3.0+)',
      versions: OFFSET_FETCH,
    });
  }

  /**
   * The offsets group `groupId` committed for `topics`' partitions, from the group's
   * coordinator, found as platformatic finds it (any broker asked), then confirmed: another
   * broker, asked once the offsets came, must name the same coordinator.
   *
   * @throws GroupCoordinatorUnconfirmedError (retriable) when another broker names another
   *   coordinator or none answered; platformatic's errors otherwise (a `ResponseError` of
   *   OffsetFetch, `UNSTABLE_OFFSET_COMMIT` among them with `requireStable`; network errors,
   *   timeouts), typed by the caller. After any error the client's metadata is forgotten.
   */
  async fetchCommittedOffsets(
    groupId: string,
    topics: readonly CommittedOffsetsTopic[],
    requireStable: boolean,
  ): Promise<CommittedOffsetsAnswer> {
    try {
      return await this.fetchCommittedConfirmed(groupId, topics, requireStable);
    } catch (error) {
      this.admin.clearMetadata();
      throw error;
    }
  }

  /**
   * Checks that broker `nodeId`, which answered a member's heartbeat, coordinates group
   * `groupId`: every other broker is asked at once (FindCoordinator), the first answer counts. A
   * broker that hung while the group's coordination moved answers the heartbeats queued at it,
   * the moment it resumes, from the group as it was before the hang; it names itself, so it is
   * not asked. One broker in the cluster: nothing can have moved, it is confirmed.
   *
   * The brokers are those of the client's metadata as last read (a refusal says nothing of them:
   * asking the metadata again could reach the hung broker and wait out the request timeout).
   *
   * @throws GroupCoordinatorUnconfirmedError (retriable) when another broker names another
   *   coordinator (`COORDINATOR_MOVED_WHILE_ASKED`) or none answered (`UNCONFIRMED`);
   *   platformatic's errors (network errors, timeouts) while the metadata is first read.
   */
  async confirmGroupCoordinator(groupId: string, nodeId: number): Promise<void> {
    const findCoordinator = await this.findCoordinator.get();
    const metadata = await this.admin.metadata({ topics: [] });
    const named = await this.askOthers(
      metadata,
      [nodeId],
      (other) => this.coordinatorNamedBy(findCoordinator, other, groupId),
      (reason, cause) =>
        new GroupCoordinatorUnconfirmedError(groupId, reason, { cause, answer: 'heartbeat' }),
    );
    if (named !== undefined) assertAnsweredByCoordinator(groupId, nodeId, named, 'heartbeat');
  }

  /**
   * Each partition's log start offset and high watermark (read_uncommitted), in partition order,
   * each from the partition's current leader.
   *
   * @throws PartitionLeaderNotAvailableError (retriable) when a partition has no leader or a
   *   leader that answered had lost its leadership by the time another broker was asked
   *   (`LEADER_MOVED_WHILE_ASKED`); platformatic's errors otherwise (its `ResponseError` of a
   *   partition error, network errors, timeouts), typed by the caller. After any error the
   *   client's metadata is forgotten, so the next call asks it again.
   */
  async fetchTopicOffsets(topic: string): Promise<PartitionOffsets[]> {
    try {
      return await this.fetchConfirmed(topic);
    } catch (error) {
      this.admin.clearMetadata();
      throw error;
    }
  }

  private async fetchConfirmed(topic: string): Promise<PartitionOffsets[]> {
    const [listOffsets, metadataApi] = await Promise.all([
      this.listOffsets.get(),
      this.metadata.get(),
    ]);
    const metadata = await this.admin.metadata({ topics: [topic], forceUpdate: true });
    const partitions = metadata.topics.get(topic)?.partitions ?? [];
    const byLeader = new Map<number, { partition: number; leaderEpoch: number }[]>();
    partitions.forEach((p, partition) => {
      if (p === undefined) return;
      if (p.leader < 0 || !metadata.brokers.has(p.leader)) {
        throw new PartitionLeaderNotAvailableError(topic, `LEADER_NOT_AVAILABLE: ${partition}`);
      }
      byLeader.set(p.leader, [
        ...(byLeader.get(p.leader) ?? []),
        { partition, leaderEpoch: p.leaderEpoch },
      ]);
    });
    if (byLeader.size === 0) {
      throw new PartitionLeaderNotAvailableError(topic, 'NO_PARTITIONS_IN_METADATA');
    }
    const answered = await Promise.all(
      [...byLeader].map(([nodeId, led]) =>
        this.listOffsetsAt(listOffsets, metadata, nodeId, topic, led),
      ),
    );
    await this.confirmLeaders(
      metadataApi,
      metadata,
      topic,
      answered.flatMap((a) => a.answers),
    );
    return answered.flatMap((a) => a.offsets).sort((a, b) => a.partition - b.partition);
  }

  private async fetchCommittedConfirmed(
    groupId: string,
    topics: readonly CommittedOffsetsTopic[],
    requireStable: boolean,
  ): Promise<CommittedOffsetsAnswer> {
    const [findCoordinator, offsetFetch] = await Promise.all([
      this.findCoordinator.get(),
      this.offsetFetch.get(),
    ]);
    const metadata = await this.admin.metadata({ topics: topics.map((t) => t.name) });
    const [found] = await this.admin.findCoordinator({
      keyType: GROUP_COORDINATOR,
      keys: [groupId],
    });
    if (found === undefined) {
      throw new GroupCoordinatorUnconfirmedError(groupId, 'no coordinator found');
    }
    const connection = await this.admin.connections.get(
      metadata.brokers.get(found.nodeId) ?? { host: found.host, port: found.port },
    );
    const answer = await offsetFetch.async(
      connection,
      [{ groupId, memberId: null, memberEpoch: -1, topics: topics.map((t) => ({ ...t })) }],
      requireStable,
    );
    const named = await this.askOthers(
      metadata,
      [found.nodeId],
      (other) => this.coordinatorNamedBy(findCoordinator, other, groupId),
      (reason, cause) => new GroupCoordinatorUnconfirmedError(groupId, reason, { cause }),
    );
    if (named !== undefined) assertAnsweredByCoordinator(groupId, found.nodeId, named);
    return answer.groups.find((g) => g.groupId === groupId) ?? { topics: [] };
  }

  /** The node id of the coordinator of `groupId` that the broker behind `connection` names. */
  private async coordinatorNamedBy(
    findCoordinator: FindCoordinatorApi,
    connection: Connection,
    groupId: string,
  ): Promise<number> {
    const [named] = (await findCoordinator.async(connection, GROUP_COORDINATOR, [groupId]))
      .coordinators;
    if (named === undefined) throw new Error('FindCoordinator named no coordinator');
    return named.nodeId;
  }

  private async listOffsetsAt(
    api: ListOffsetsApi,
    metadata: ClusterMetadata,
    nodeId: number,
    topic: string,
    led: readonly { partition: number; leaderEpoch: number }[],
  ): Promise<{ offsets: PartitionOffsets[]; answers: LeaderAnswer[] }> {
    const connection = await this.admin.connections.get(metadata.brokers.get(nodeId)!);
    const at = async (timestamp: bigint) => {
      const response = await api.async(connection, -1, READ_UNCOMMITTED, [
        {
          name: topic,
          partitions: led.map(({ partition, leaderEpoch }) => ({
            partitionIndex: partition,
            currentLeaderEpoch: leaderEpoch,
            timestamp,
          })),
        },
      ]);
      return new Map(
        response.topics
          .filter((t) => t.name === topic)
          .flatMap((t) => t.partitions.map((p) => [p.partitionIndex, p] as const)),
      );
    };
    const [low, high] = await Promise.all([at(EARLIEST), at(LATEST)]);
    const offsets: PartitionOffsets[] = [];
    const answers: LeaderAnswer[] = [];
    for (const { partition, leaderEpoch } of led) {
      const l = low.get(partition);
      const h = high.get(partition);
      if (l === undefined || h === undefined) {
        throw new PartitionLeaderNotAvailableError(topic, `NO_OFFSETS_ANSWERED: ${partition}`);
      }
      offsets.push({ partition, low: Number(l.offset), high: Number(h.offset) });
      // The epoch the broker answered the high watermark at; the one asked at if it says none.
      answers.push({
        partition,
        nodeId,
        leaderEpoch: h.leaderEpoch >= 0 ? h.leaderEpoch : leaderEpoch,
      });
    }
    return { offsets, answers };
  }

  /** Checks the answers against the topic's metadata as a broker that did not answer gives it. */
  private async confirmLeaders(
    api: MetadataApi,
    metadata: ClusterMetadata,
    topic: string,
    answers: readonly LeaderAnswer[],
  ): Promise<void> {
    const confirmed = await this.askOthers(
      metadata,
      answers.map((a) => a.nodeId),
      (connection) => api.async(connection, [topic], false, false),
      (reason, cause) => new PartitionLeaderNotAvailableError(topic, reason, { cause }),
    );
    if (confirmed === undefined) return;
    const partitions = confirmed.topics.find((t) => t.name === topic)?.partitions ?? [];
    assertAnsweredByLeaders(
      topic,
      answers,
      partitions.map((p) => ({
        partition: p.partitionIndex,
        leader: p.leaderId,
        leaderEpoch: p.leaderEpoch,
      })),
    );
  }

  /**
   * Asks every broker of `metadata` but `answering` at once, and resolves with the first answer
   * (a hung broker among them holds nothing up); `undefined` when the cluster has no other broker
   * (one node: nothing can have moved to another).
   *
   * @throws what `unconfirmed` makes of the reason (`UNCONFIRMED: ...`) when none answered.
   */
  private async askOthers<T>(
    metadata: ClusterMetadata,
    answering: readonly number[],
    ask: (connection: Connection) => Promise<T>,
    unconfirmed: (reason: string, cause: unknown) => Error,
  ): Promise<T | undefined> {
    const others: Broker[] = [...metadata.brokers]
      .filter(([id]) => !answering.includes(id))
      .map(([, broker]) => broker);
    if (others.length === 0) return undefined;
    return Promise.any(
      others.map(async (broker) => ask(await this.admin.connections.get(broker))),
    ).catch((error: unknown) => {
      const asked = [...new Set(answering)].join(', ');
      throw unconfirmed(`UNCONFIRMED: no broker other than node(s) ${asked} answered`, error);
    });
  }
}
