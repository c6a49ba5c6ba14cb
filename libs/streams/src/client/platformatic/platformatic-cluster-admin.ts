import { type Admin, ConfigResourceTypes } from '@platformatic/kafka';
import { BrokerAuthenticationError } from '../../errors/broker-authentication.error';
import { UnknownTopicError } from '../../errors/internals/unknown-topic.error';
import { UnstableOffsetsError } from '../../errors/internals/unstable-offsets.error';
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
import {
  findError,
  isTopicAlreadyExists,
  platformaticConnectionError,
  typedClusterError,
  typedGroupDeletionError,
  typedTopicError,
} from './platformatic-cluster-admin-errors';
import { describeClassicGroup } from './platformatic-describe-group';
import {
  PlatformaticConfirmedReads,
  type CommittedOffsetsAnswer,
} from './platformatic-confirmed-reads';
import { StreamsError } from '../../errors/streams.error';
import type { RefreshableClusterAdmin } from '../cluster-retry/retrying-cluster-admin';

/** Between two reads of offsets found unstable (an open transaction holds some of them). */
const UNSTABLE_RETRY_MS = 100;

/**
 * The `ClusterAdmin` port over @platformatic/kafka's `Admin`. Its errors are typed as the
 * port names them (the platformatic error as `cause`); a network failure of any operation is a
 * `BrokersUnreachableError`.
 *
 * platformatic's `createTopics` takes one set of configs for all the topics of a call, so each
 * topic is created by a call of its own (in parallel).
 */
export class PlatformaticClusterAdmin implements RefreshableClusterAdmin {
  /** Offsets and committed offsets read from confirmed leaders and coordinators. */
  private readonly confirmedReads: PlatformaticConfirmedReads;

  /**
   * @param admin a platformatic admin client (`new Admin({ clientId, bootstrapBrokers })`); it
   *   connects on first use, and {@link disconnect} closes it.
   * @param brokers the bootstrap brokers, named by connection errors.
   */
  constructor(
    private readonly admin: Admin,
    private readonly brokers: readonly string[],
  ) {
    this.confirmedReads = new PlatformaticConfirmedReads(admin);
  }

  /**
   * Reaches the cluster: one attempt first, so that refused SASL credentials fail at the first
   * login (platformatic retries them, `retries` times, as the network error that wraps its
   * authentication error); a cluster that did not answer is then asked again with platformatic's
   * retries.
   *
   * @throws BrokerAuthenticationError when the credentials were refused (fix `kafka.sasl`);
   *   BrokersUnreachableError when no bootstrap broker answered.
   */
  async connect(): Promise<void> {
    try {
      await this.admin.metadata({ topics: [], forceUpdate: true, retries: 0 });
      return;
    } catch (error) {
      const typed = platformaticConnectionError(error, this.brokers);
      if (typed instanceof BrokerAuthenticationError) throw typed;
    }
    try {
      await this.admin.metadata({ topics: [], forceUpdate: true });
    } catch (error) {
      throw platformaticConnectionError(error, this.brokers) ?? error;
    }
  }

  async disconnect(): Promise<void> {
    if (!this.admin.closed) await this.admin.close();
  }

  /** Drops platformatic's cached metadata (leaders, brokers): the next call asks again. */
  async forgetMetadata(): Promise<void> {
    this.admin.clearMetadata();
  }

  async createTopics(topics: readonly NewTopic[]): Promise<void> {
    const settled = await Promise.allSettled(
      topics.map((t) =>
        this.admin.createTopics({
          topics: [t.topic],
          partitions: t.partitions,
          replicas: t.replicationFactor,
          configs: Object.entries(t.configs).map(([name, value]) => ({ name, value })),
        }),
      ),
    );
    for (const result of settled) {
      if (result.status === 'rejected' && !isTopicAlreadyExists(result.reason)) {
        throw typedClusterError(result.reason, this.brokers);
      }
    }
  }

  async listTopics(): Promise<string[]> {
    return this.admin.listTopics({ includeInternals: false }).catch((error: unknown) => {
      throw typedClusterError(error, this.brokers);
    });
  }

  async fetchTopicMetadata(topics: readonly string[]): Promise<TopicMetadata[]> {
    if (topics.length === 0) return [];
    const metadata = await this.admin
      .metadata({ topics: [...topics], forceUpdate: true })
      .catch((error: unknown) => {
        throw typedTopicError(error, topics.join(', '), this.brokers);
      });
    return topics.map((name) => {
      const topic = metadata.topics.get(name);
      if (!topic) throw new UnknownTopicError(name);
      const partitions = [];
      for (const [partition, p] of topic.partitions.entries()) {
        // A sparse array when the broker left a partition out: it is not served now.
        if (p === undefined) continue;
        partitions.push({ partition, leader: p.leader, replicas: p.replicas, isr: p.isr });
      }
      return { name, partitions };
    });
  }

  /**
   * Read from each partition's leader and refused unless that broker still leads once every
   * answer arrived (see {@link PlatformaticConfirmedReads}): a broker hung while its leaderships
   * moved answers queued requests from the past the moment it resumes.
   */
  async fetchTopicOffsets(topic: string): Promise<PartitionOffsets[]> {
    return this.confirmedReads.fetchTopicOffsets(topic).catch((error: unknown) => {
      throw error instanceof StreamsError ? error : typedTopicError(error, topic, this.brokers);
    });
  }

  readonly supportsRequireStable = true;

  async fetchCommittedOffsets(
    groupId: string,
    topics: readonly string[],
    options: FetchCommittedOffsetsOptions = {},
  ): Promise<CommittedOffset[]> {
    if (topics.length === 0) return [];
    const metadata = await this.fetchTopicMetadata(topics);
    const requireStable = options.requireStable ?? false;
    const started = Date.now();
    const timeoutMs = options.timeoutMs ?? 60_000;
    const asked = metadata.map((t) => ({
      name: t.name,
      partitionIndexes: t.partitions.map((p) => p.partition),
    }));
    let answer: CommittedOffsetsAnswer | undefined;
    while (answer === undefined) {
      answer = await this.confirmedReads
        .fetchCommittedOffsets(groupId, asked, requireStable)
        .catch(async (error: unknown) => {
          if (error instanceof StreamsError) throw error;
          // UNSTABLE_OFFSET_COMMIT: a transaction holding offsets of these partitions is open.
          if (!requireStable || !findError(error, (e) => e.apiId === 'UNSTABLE_OFFSET_COMMIT')) {
            throw typedTopicError(error, topics.join(', '), this.brokers);
          }
          const waitedMs = Date.now() - started;
          if (waitedMs + UNSTABLE_RETRY_MS > timeoutMs) {
            throw new UnstableOffsetsError(groupId, topics, waitedMs, { cause: error });
          }
          await new Promise((resolve) => setTimeout(resolve, UNSTABLE_RETRY_MS));
          return undefined;
        });
    }
    const committed = answer.topics.flatMap((t) =>
      t.partitions
        .filter((p) => p.committedOffset >= 0n)
        .map((p) => ({
          topic: t.name,
          partition: p.partitionIndex,
          offset: Number(p.committedOffset),
        })),
    );
    const order = new Map(topics.map((t, i) => [t, i]));
    return committed.sort(
      (a, b) => order.get(a.topic)! - order.get(b.topic)! || a.partition - b.partition,
    );
  }

  async describeTopicConfigs(
    topics: readonly string[],
    configNames: readonly string[],
  ): Promise<TopicConfigs[]> {
    if (topics.length === 0) return [];
    const described = await this.admin
      .describeConfigs({
        resources: topics.map((name) => ({
          resourceType: ConfigResourceTypes.TOPIC,
          resourceName: name,
          configurationKeys: [...configNames],
        })),
        includeSynonyms: false,
        includeDocumentation: false,
      })
      .catch((error: unknown) => {
        throw typedTopicError(error, topics.join(', '), this.brokers);
      });
    const byTopic = new Map(described.map((r) => [r.resourceName, r.configs]));
    return topics.map((topic) => ({
      topic,
      configs: Object.fromEntries((byTopic.get(topic) ?? []).map((c) => [c.name, c.value ?? null])),
    }));
  }

  async describeGroup(groupId: string): Promise<DescribedGroup> {
    return describeClassicGroup(this.admin, groupId).catch((error: unknown) => {
      throw typedClusterError(error, this.brokers);
    });
  }

  async listGroups(): Promise<ConsumerGroupListing[]> {
    const groups = await this.admin.listGroups().catch((error: unknown) => {
      throw typedClusterError(error, this.brokers);
    });
    return [...groups.values()].map((g) => ({ groupId: g.id, protocolType: g.protocolType }));
  }

  async deleteGroups(groupIds: readonly string[]): Promise<void> {
    // One request per group: platformatic's answer does not say which group of a request failed.
    let first: unknown;
    for (const groupId of groupIds) {
      try {
        await this.admin.deleteGroups({ groups: [groupId] });
      } catch (error) {
        first ??= typedGroupDeletionError(error, groupId, this.brokers);
      }
    }
    if (first !== undefined) throw first;
  }
}
