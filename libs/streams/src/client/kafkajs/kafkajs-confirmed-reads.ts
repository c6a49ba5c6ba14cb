import type { Kafka } from 'kafkajs';
import { GroupCoordinatorUnconfirmedError } from '../../errors/internals/group-coordinator-unconfirmed.error';
import { PartitionLeaderNotAvailableError } from '../../errors/internals/partition-leader-not-available.error';
import type { CommittedOffset, PartitionOffsets } from '../cluster-admin';
import {
  COORDINATOR_MOVED_WHILE_ASKED,
  assertAnsweredByCoordinator,
  assertAnsweredByLeaders,
  type LeaderAnswer,
} from '../answer-confirmation';
import {
  clusterFactoryOf,
  type CreateKafkajsCluster,
  type KafkajsCluster,
} from './kafkajs-cluster';

const READ_UNCOMMITTED = 0;
const LATEST = -1;
const EARLIEST = -2;

/** The parts of kafkajs' (internal) `Broker` these requests use. */
export interface ConfirmedReadsBroker {
  readonly nodeId: number;
  /** `host:port`, as kafkajs' request events name the broker that answered. */
  readonly brokerAddress: string;
  listOffsets(request: {
    replicaId: number;
    isolationLevel: number;
    topics: { topic: string; partitions: { partition: number; timestamp: number }[] }[];
  }): Promise<{
    responses: readonly {
      topic: string;
      partitions: readonly { partition: number; offset: string }[];
    }[];
  }>;
  offsetFetch(request: {
    groupId: string;
    topics: { topic: string; partitions: { partition: number }[] }[];
  }): Promise<{
    responses: readonly {
      topic: string;
      partitions: readonly { partition: number; offset: string }[];
    }[];
  }>;
  findGroupCoordinator(request: {
    groupId: string;
    coordinatorType: number;
  }): Promise<{ coordinator: { nodeId: number; host: string; port: number } }>;
  metadata(topics: string[]): Promise<{
    topicMetadata: readonly {
      topic: string;
      partitionMetadata: readonly { partitionId: number; leader: number }[];
    }[];
  }>;
}

const GROUP_COORDINATOR = 0;

/**
 * The reads whose answer only one broker may give (a partition's offsets: its leader; a group's
 * committed offsets: its coordinator) as kafkajs makes them, but sent by the engine on a kafkajs
 * cluster of its own and refused unless, by another broker asked once the answers came, the
 * broker that answered still holds that role (see {@link assertAnsweredByLeaders},
 * {@link assertAnsweredByCoordinator}).
 *
 * kafkajs' own `admin.fetchTopicOffsets` sends ListOffsets v3 without a leader epoch, by metadata
 * it keeps 5 minutes, and its `admin.fetchOffsets` finds the coordinator by asking any broker. A
 * broker that was hung while the controller moved its leaderships away answers the requests
 * queued at it, the moment it resumes, from before the hang (seen on a 3-node cluster: a high
 * watermark of 100 where the new leader had 200). A restore that ends there serves a store
 * missing committed records; a task that starts from committed offsets from there processes
 * records again that its restored state already holds.
 */
export class KafkajsConfirmedReads {
  private readonly cluster: KafkajsCluster<ConfirmedReadsBroker>;
  private connecting: Promise<void> | undefined;
  /** Set when an answer was refused or a broker failed: the next call asks the metadata again. */
  private metadataStale = false;

  /** For a kafkajs client; `undefined` when this kafkajs builds no cluster the engine can use. */
  static of(kafka: Kafka): KafkajsConfirmedReads | undefined {
    const create = clusterFactoryOf<ConfirmedReadsBroker>(kafka);
    return create && new KafkajsConfirmedReads(create);
  }

  constructor(createCluster: CreateKafkajsCluster<ConfirmedReadsBroker>) {
    this.cluster = createCluster({
      metadataMaxAge: 300_000,
      allowAutoTopicCreation: false,
      maxInFlightRequests: null,
      instrumentationEmitter: null,
      isolationLevel: READ_UNCOMMITTED,
    });
  }

  /**
   * Each partition's log start offset and high watermark (read_uncommitted), in partition order,
   * each from the partition's current leader.
   *
   * @throws PartitionLeaderNotAvailableError (retriable) when a partition has no leader, the
   *   metadata has no partition yet, or a leader that answered had lost its leadership by the
   *   time another broker was asked (`LEADER_MOVED_WHILE_ASKED`): the next call asks the
   *   metadata again; kafkajs' errors otherwise (its protocol errors, connection errors and
   *   request timeouts), after which the next call asks the metadata again too.
   */
  async fetchTopicOffsets(topic: string): Promise<PartitionOffsets[]> {
    try {
      return await this.fetchConfirmed(topic);
    } catch (error) {
      this.metadataStale = true;
      throw error;
    }
  }

  /**
   * The offsets group `groupId` committed for the partitions of `topics`, in topic and partition
   * order (partitions without one left out), from the group's coordinator.
   *
   * @throws GroupCoordinatorUnconfirmedError (retriable) when another broker, asked once the
   *   offsets came, names another coordinator, or no other broker answered; kafkajs' errors
   *   otherwise (its protocol errors, `KafkaJSGroupCoordinatorNotFound`, connection errors and
   *   timeouts).
   */
  async fetchCommittedOffsets(
    groupId: string,
    topics: readonly string[],
  ): Promise<CommittedOffset[]> {
    try {
      return await this.fetchCommittedConfirmed(groupId, topics);
    } catch (error) {
      this.metadataStale = true;
      throw error;
    }
  }

  /**
   * Checks that the broker at `address` (`host:port`, as kafkajs' request events name the
   * broker that answered) coordinates group `groupId`: every other broker is asked at once
   * (FindCoordinator) and the first answer counts. A broker that hung while the group's
   * coordination moved answers the heartbeats queued at it, the moment it resumes, from the
   * group as it was before the hang; it names itself, so it is not asked. One broker in the
   * cluster: nothing can have moved, it is confirmed.
   *
   * The brokers are those of the metadata as last read (a refusal says nothing of them: asking
   * the metadata again could reach the hung broker and wait out the request timeout).
   *
   * @throws GroupCoordinatorUnconfirmedError (retriable) when another broker names another
   *   coordinator (`COORDINATOR_MOVED_WHILE_ASKED`) or none answered (`UNCONFIRMED`); kafkajs'
   *   errors (connection errors, timeouts) while the metadata is first read.
   */
  async confirmGroupCoordinator(groupId: string, address: string): Promise<void> {
    await this.connect();
    await this.cluster.refreshMetadataIfNecessary();
    const nodeIds = this.cluster.getNodeIds();
    if (nodeIds.length === 1) return;
    const named = await Promise.any(
      nodeIds.map(async (nodeId) => {
        const broker = await this.cluster.findBroker({ nodeId });
        if (broker.brokerAddress === address) throw new Error('the broker that answered');
        const found = await broker.findGroupCoordinator({
          groupId,
          coordinatorType: GROUP_COORDINATOR,
        });
        return found.coordinator;
      }),
    ).catch((error: unknown) => {
      throw new GroupCoordinatorUnconfirmedError(
        groupId,
        `UNCONFIRMED: no broker other than ${address} answered`,
        { cause: error, answer: 'heartbeat' },
      );
    });
    const at = `${named.host}:${named.port}`;
    if (at !== address) {
      throw new GroupCoordinatorUnconfirmedError(
        groupId,
        `${COORDINATOR_MOVED_WHILE_ASKED}: answered by ${address}, coordinated by node ${named.nodeId} at ${at}`,
        { answer: 'heartbeat' },
      );
    }
  }

  /** Makes the next call ask the metadata again. */
  forgetMetadata(): void {
    this.metadataStale = true;
  }

  async disconnect(): Promise<void> {
    const connecting = this.connecting;
    this.connecting = undefined;
    if (connecting) await connecting.catch(() => undefined);
    await this.cluster.disconnect().catch(() => undefined);
  }

  private async fetchConfirmed(topic: string): Promise<PartitionOffsets[]> {
    await this.connect();
    await this.cluster.addTargetTopic(topic);
    await this.refreshMetadata();
    const partitions = this.cluster.findTopicPartitionMetadata(topic);
    if (partitions.length === 0) {
      throw new PartitionLeaderNotAvailableError(topic, 'NO_PARTITIONS_IN_METADATA');
    }
    const byLeader = new Map<number, number[]>();
    for (const { partitionId, leader } of partitions) {
      if (leader < 0) {
        throw new PartitionLeaderNotAvailableError(topic, `LEADER_NOT_AVAILABLE: ${partitionId}`);
      }
      byLeader.set(leader, [...(byLeader.get(leader) ?? []), partitionId]);
    }
    const answered = await Promise.all(
      [...byLeader].map(([nodeId, led]) => this.listOffsetsAt(nodeId, topic, led)),
    );
    const offsets = answered.flatMap((a) => a.offsets);
    await this.confirmLeaders(
      topic,
      answered.flatMap((a) => a.answers),
    );
    return offsets.sort((a, b) => a.partition - b.partition);
  }

  private async fetchCommittedConfirmed(
    groupId: string,
    topics: readonly string[],
  ): Promise<CommittedOffset[]> {
    await this.connect();
    await this.cluster.addMultipleTargetTopics([...topics]);
    await this.refreshMetadata();
    const coordinator = await this.cluster.findGroupCoordinator({ groupId });
    const { responses } = await coordinator.offsetFetch({
      groupId,
      topics: topics.map((topic) => ({
        topic,
        partitions: this.cluster
          .findTopicPartitionMetadata(topic)
          .map((p) => ({ partition: p.partitionId })),
      })),
    });
    const named = await this.askOthers(
      [coordinator.nodeId],
      async (broker) =>
        (await broker.findGroupCoordinator({ groupId, coordinatorType: GROUP_COORDINATOR }))
          .coordinator.nodeId,
      (reason, cause) => new GroupCoordinatorUnconfirmedError(groupId, reason, { cause }),
    );
    if (named !== undefined) assertAnsweredByCoordinator(groupId, coordinator.nodeId, named);
    const order = new Map(topics.map((t, i) => [t, i]));
    return responses
      .filter((r) => order.has(r.topic))
      .flatMap(({ topic, partitions }) =>
        partitions.map((p) => ({ topic, partition: p.partition, offset: Number(p.offset) })),
      )
      .filter((o) => o.offset >= 0)
      .sort((a, b) => order.get(a.topic)! - order.get(b.topic)! || a.partition - b.partition);
  }

  private async listOffsetsAt(
    nodeId: number,
    topic: string,
    partitions: readonly number[],
  ): Promise<{ offsets: PartitionOffsets[]; answers: LeaderAnswer[] }> {
    const broker = await this.cluster.findBroker({ nodeId: String(nodeId) });
    const at = async (timestamp: number): Promise<Map<number, number>> => {
      const { responses } = await broker.listOffsets({
        replicaId: -1,
        isolationLevel: READ_UNCOMMITTED,
        topics: [{ topic, partitions: partitions.map((partition) => ({ partition, timestamp })) }],
      });
      return new Map(
        responses
          .filter((r) => r.topic === topic)
          .flatMap((r) => r.partitions.map((p) => [p.partition, Number(p.offset)] as const)),
      );
    };
    const [low, high] = await Promise.all([at(EARLIEST), at(LATEST)]);
    const offsets: PartitionOffsets[] = [];
    for (const partition of partitions) {
      const l = low.get(partition);
      const h = high.get(partition);
      if (l === undefined || h === undefined) {
        throw new PartitionLeaderNotAvailableError(topic, `NO_OFFSETS_ANSWERED: ${partition}`);
      }
      offsets.push({ partition, low: l, high: h });
    }
    return {
      offsets,
      answers: partitions.map((partition) => ({ partition, nodeId, leaderEpoch: -1 })),
    };
  }

  /** Checks the answers against the topic's metadata as a broker that did not answer gives it. */
  private async confirmLeaders(topic: string, answers: readonly LeaderAnswer[]): Promise<void> {
    const metadata = await this.askOthers(
      answers.map((a) => a.nodeId),
      (broker) => broker.metadata([topic]),
      (reason, cause) => new PartitionLeaderNotAvailableError(topic, reason, { cause }),
    );
    if (metadata === undefined) return;
    const partitions =
      metadata.topicMetadata.find((t) => t.topic === topic)?.partitionMetadata ?? [];
    assertAnsweredByLeaders(
      topic,
      answers,
      partitions.map((p) => ({ partition: p.partitionId, leader: p.leader, leaderEpoch: -1 })),
    );
  }

  /**
   * Asks every broker but `answering` at once, and resolves with the first answer (a hung broker
   * among them holds nothing up); `undefined` when the cluster has no other broker (one node:
   * nothing can have moved to another).
   *
   * @throws what `unconfirmed` makes of the reason (`UNCONFIRMED: ...`) when none of them
   *   answered.
   */
  private async askOthers<T>(
    answering: readonly number[],
    ask: (broker: ConfirmedReadsBroker) => Promise<T>,
    unconfirmed: (reason: string, cause: unknown) => Error,
  ): Promise<T | undefined> {
    const others = this.cluster
      .getNodeIds()
      .map(Number)
      .filter((id) => !answering.includes(id));
    if (others.length === 0) return undefined;
    return Promise.any(
      others.map(async (nodeId) => ask(await this.cluster.findBroker({ nodeId: String(nodeId) }))),
    ).catch((error: unknown) => {
      const asked = [...new Set(answering)].join(', ');
      throw unconfirmed(`UNCONFIRMED: no broker other than node(s) ${asked} answered`, error);
    });
  }

  /** Asks the metadata again after a refused answer or a failure, else when it is too old. */
  private async refreshMetadata(): Promise<void> {
    if (this.metadataStale) {
      this.metadataStale = false;
      await this.cluster.refreshMetadata();
    } else {
      await this.cluster.refreshMetadataIfNecessary();
    }
  }

  private connect(): Promise<void> {
    if (!this.connecting) {
      this.connecting = this.cluster.connect();
      this.connecting.catch(() => {
        this.connecting = undefined; // the next call tries again
      });
    }
    return this.connecting;
  }
}
