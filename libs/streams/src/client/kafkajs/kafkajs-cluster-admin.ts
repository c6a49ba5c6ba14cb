import type { Admin } from 'kafkajs';
import { GroupNotDeletedError } from '../../errors/internals/group-not-deleted.error';
import { PartitionLeaderNotAvailableError } from '../../errors/internals/partition-leader-not-available.error';
import { UnknownTopicError } from '../../errors/internals/unknown-topic.error';
import { StreamsError } from '../../errors/streams.error';
import type {
  CommittedOffset,
  ConsumerGroupListing,
  DescribedGroup,
  FetchCommittedOffsetsOptions,
  NewTopic,
  PartitionOffsets,
  TopicConfigs,
  TopicMetadata,
} from '../cluster-admin';
import { describedGroup } from '../cluster-admin';
import { typedConnectionError } from '../cluster-connection';
import type { RefreshableClusterAdmin } from '../cluster-retry/retrying-cluster-admin';
import { AssignerProtocol, ConfigResourceTypes } from './kafkajs';
import type { KafkajsConfirmedReads } from './kafkajs-confirmed-reads';

/** Kafka errors of a partition whose leadership is moving. */
const LEADERSHIP_ERRORS = new Set([
  'NOT_LEADER_FOR_PARTITION',
  'NOT_LEADER_OR_FOLLOWER',
  'LEADER_NOT_AVAILABLE',
  'UNKNOWN_LEADER_EPOCH',
  'FENCED_LEADER_EPOCH',
]);
const UNKNOWN_TOPIC = 'UNKNOWN_TOPIC_OR_PARTITION';

/**
 * The `ClusterAdmin` port over kafkajs' `Admin`. Errors the port names are typed from
 * kafkajs' protocol errors (the original as `cause`); any other error is kafkajs' own.
 */
export class KafkajsClusterAdmin implements RefreshableClusterAdmin {
  /**
   * @param admin a kafkajs admin client (`kafka.admin()`), not connected yet.
   * @param brokers the bootstrap brokers, named by connection errors; without them a failed
   *   `connect` throws kafkajs' own error.
   * @param renew makes a new kafkajs admin client, for {@link forgetMetadata}.
   * @param confirmedReads reads {@link fetchTopicOffsets} and {@link fetchCommittedOffsets} from
   *   leaders and coordinators confirmed after they answered (what the engine's clients give
   *   it); without it kafkajs' `admin` answers them, which a broker that lost its leaderships
   *   while hung can answer from the past.
   */
  constructor(
    private admin: Admin,
    private readonly brokers?: readonly string[],
    private readonly renew?: () => Admin,
    private readonly confirmedReads?: KafkajsConfirmedReads,
  ) {}

  /**
   * kafkajs' admin keeps its metadata until `metadataMaxAge` (5 minutes) and gives up on a moved
   * leader without asking again (`fetchTopicOffsets` on NOT_LEADER_OR_FOLLOWER): the admin is
   * replaced by a new one (`renew`), connected, with metadata of its own. Never throws: a new
   * admin that cannot connect fails the next call.
   */
  async forgetMetadata(): Promise<void> {
    this.confirmedReads?.forgetMetadata();
    if (!this.renew) return;
    const old = this.admin;
    this.admin = this.renew();
    void old.disconnect().catch(() => undefined);
    await this.admin.connect().catch(() => undefined);
  }

  async connect(): Promise<void> {
    try {
      await this.admin.connect();
    } catch (error) {
      throw this.brokers ? typedConnectionError(error, this.brokers) : error;
    }
  }

  async disconnect(): Promise<void> {
    await Promise.all([this.admin.disconnect(), this.confirmedReads?.disconnect()]);
  }

  async createTopics(topics: readonly NewTopic[]): Promise<void> {
    if (topics.length === 0) return;
    try {
      // Not kafkajs' waitForLeaders: it asks metadata v0 and gives up on
      // UNKNOWN_TOPIC_OR_PARTITION while a KRaft broker's metadata cache lags the creation.
      await this.admin.createTopics({
        topics: topics.map((t) => ({
          topic: t.topic,
          numPartitions: t.partitions,
          replicationFactor: t.replicationFactor,
          configEntries: Object.entries(t.configs).map(([name, value]) => ({ name, value })),
        })),
        waitForLeaders: false,
      });
    } catch (error) {
      // kafkajs answers `false` when every topic exists, and an aggregate error naming
      // TOPIC_ALREADY_EXISTS when only some do.
      const text = String((error as { errors?: unknown[] }).errors?.map(String) ?? error);
      if (
        !/TOPIC_ALREADY_EXISTS|already exists/i.test(text) &&
        !/already exists/i.test(String(error))
      )
        throw error;
    }
  }

  listTopics(): Promise<string[]> {
    return this.admin.listTopics();
  }

  async fetchTopicMetadata(topics: readonly string[]): Promise<TopicMetadata[]> {
    const { topics: metadata } = await this.admin
      .fetchTopicMetadata({ topics: [...topics] })
      .catch((error: unknown) => {
        throw typedTopicError(error, topics.join(', '));
      });
    // kafkajs answers in its metadata cache's order, not the order asked.
    const byName = new Map(metadata.map((t) => [t.name, t]));
    return topics.map((name) => {
      const topic = byName.get(name);
      if (!topic) throw new UnknownTopicError(name);
      return {
        name,
        partitions: topic.partitions
          .map((p) => ({
            partition: p.partitionId,
            leader: p.leader,
            replicas: p.replicas,
            isr: p.isr,
          }))
          .sort((a, b) => a.partition - b.partition),
      };
    });
  }

  /** One attempt (the engine's retries come from `RetryingClusterAdmin`, with their bound). */
  async fetchTopicOffsets(topic: string): Promise<PartitionOffsets[]> {
    if (this.confirmedReads) {
      return this.confirmedReads.fetchTopicOffsets(topic).catch((error: unknown) => {
        throw error instanceof StreamsError ? error : typedTopicError(error, topic);
      });
    }
    const offsets = await this.admin.fetchTopicOffsets(topic).catch((error: unknown) => {
      // kafkajs asks for no partition when its metadata of the topic has none yet (a topic
      // just created, on a broker the cluster's metadata has not reached), then fails on the
      // empty answer: "Cannot destructure property 'partitions' of 'high.pop(...)'". A moment
      // of a new topic, as a missing leader is: retried, with the metadata asked again.
      if (error instanceof TypeError && error.message.includes("'partitions'")) {
        throw new PartitionLeaderNotAvailableError(topic, 'NO_PARTITIONS_IN_METADATA', {
          cause: error,
        });
      }
      throw typedTopicError(error, topic);
    });
    return offsets
      .map((o) => ({ partition: o.partition, low: Number(o.low), high: Number(o.high) }))
      .sort((a, b) => a.partition - b.partition);
  }

  /** kafkajs' OffsetFetch has no `require_stable` (it sends v1 to v4). */
  readonly supportsRequireStable = false;

  async fetchCommittedOffsets(
    groupId: string,
    topics: readonly string[],
    options: FetchCommittedOffsetsOptions = {},
  ): Promise<CommittedOffset[]> {
    if (options.requireStable) {
      throw new Error(
        'kafkajs cannot read stable offsets (require_stable): see supportsRequireStable',
      );
    }
    if (this.confirmedReads) {
      return this.confirmedReads.fetchCommittedOffsets(groupId, topics).catch((error: unknown) => {
        throw error instanceof StreamsError ? error : typedTopicError(error, topics.join(', '));
      });
    }
    const committed = await this.admin
      .fetchOffsets({ groupId, topics: [...topics] })
      .catch((error: unknown) => {
        throw typedTopicError(error, topics.join(', '));
      });
    return committed.flatMap(({ topic, partitions }) =>
      partitions
        .map((p) => ({ topic, partition: p.partition, offset: Number(p.offset) }))
        .filter((p) => p.offset >= 0)
        .sort((a, b) => a.partition - b.partition),
    );
  }

  async describeTopicConfigs(
    topics: readonly string[],
    configNames: readonly string[],
  ): Promise<TopicConfigs[]> {
    if (topics.length === 0) return [];
    const described = await this.admin
      .describeConfigs({
        includeSynonyms: false,
        resources: topics.map((name) => ({
          type: ConfigResourceTypes.TOPIC,
          name,
          configNames: [...configNames],
        })),
      })
      .catch((error: unknown) => {
        throw typedTopicError(error, topics.join(', '));
      });
    const byTopic = new Map(described.resources.map((r) => [r.resourceName, r]));
    return topics.map((topic) => ({
      topic,
      configs: Object.fromEntries(
        (byTopic.get(topic)?.configEntries ?? []).map((e) => [
          e.configName,
          e.configValue as string | null,
        ]),
      ),
    }));
  }

  /** kafkajs' DescribeGroups (v2) carries no `group.instance.id`: members name none. */
  async describeGroup(groupId: string): Promise<DescribedGroup> {
    const { groups } = await this.admin.describeGroups([groupId]).catch((error: unknown) => {
      throw this.brokers ? typedConnectionError(error, this.brokers) : error;
    });
    const group = groups.find((g) => g.groupId === groupId);
    if (!group) return { state: 'Dead', members: [] };
    return describedGroup(group.state, group.protocolType, group.members, (m) => ({
      memberId: m.memberId,
      groupInstanceId: null,
      assignmentUserData:
        AssignerProtocol.MemberAssignment.decode(m.memberAssignment)?.userData ?? Buffer.alloc(0),
    }));
  }

  async listGroups(): Promise<ConsumerGroupListing[]> {
    const { groups } = await this.admin.listGroups();
    return groups.map((g) => ({ groupId: g.groupId, protocolType: g.protocolType }));
  }

  async deleteGroups(groupIds: readonly string[]): Promise<void> {
    if (groupIds.length === 0) return;
    try {
      await this.admin.deleteGroups([...groupIds]);
    } catch (error) {
      const failed = (error as { groups?: { groupId: string; error?: { type?: string } }[] })
        .groups?.[0];
      const type = failed?.error?.type;
      if (failed && (type === 'NON_EMPTY_GROUP' || type === 'GROUP_ID_NOT_FOUND')) {
        throw new GroupNotDeletedError(
          failed.groupId,
          type === 'NON_EMPTY_GROUP' ? 'not-empty' : 'not-found',
          { cause: error },
        );
      }
      throw error;
    }
  }
}

/**
 * The port's typed error for a kafkajs error about a topic: kafkajs' protocol error may be
 * wrapped (its retrier's "number of retries exceeded", an aggregate), so the chain is searched.
 */
function typedTopicError(error: unknown, topic: string): unknown {
  const type = protocolErrorType(error);
  if (type === UNKNOWN_TOPIC) return new UnknownTopicError(topic, { cause: error });
  if (type !== undefined && LEADERSHIP_ERRORS.has(type)) {
    return new PartitionLeaderNotAvailableError(topic, type, { cause: error });
  }
  return error;
}

/** The first Kafka protocol error type (`UNKNOWN_TOPIC_OR_PARTITION`, ...) in an error chain. */
function protocolErrorType(error: unknown, depth = 0): string | undefined {
  if (depth > 4 || typeof error !== 'object' || error === null) return undefined;
  const e = error as { type?: unknown; cause?: unknown; errors?: unknown };
  if (typeof e.type === 'string' && (e.type === UNKNOWN_TOPIC || LEADERSHIP_ERRORS.has(e.type)))
    return e.type;
  for (const inner of Array.isArray(e.errors) ? (e.errors as unknown[]) : []) {
    const found = protocolErrorType(inner, depth + 1);
    if (found) return found;
  }
  return e.cause !== error ? protocolErrorType(e.cause, depth + 1) : undefined;
}
