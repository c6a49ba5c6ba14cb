import type {
  ClusterAdmin,
  CommittedOffset,
  ConsumerGroupListing,
  DescribedGroup,
  FetchCommittedOffsetsOptions,
  FetchTopicOffsetsOptions,
  NewTopic,
  PartitionOffsets,
  TopicConfigs,
  TopicMetadata,
} from '../cluster-admin';
import { UnknownTopicError } from '../../errors/internals/unknown-topic.error';
import type { ClusterRetry } from './cluster-retry';
import { UNKNOWN_TOPIC_FAULT, type FaultClassifier } from './transient-fault';

/** A {@link ClusterAdmin} adapter that can drop the metadata it caches (leaders, brokers). */
export interface RefreshableClusterAdmin extends ClusterAdmin {
  /** Forgets the cached metadata: the next call asks the cluster again. Never throws. */
  forgetMetadata(): Promise<void>;
}

/**
 * A {@link ClusterAdmin} whose calls go through the engine's retry policy ({@link ClusterRetry},
 * bound `default.api.timeout.ms`, or the caller's `timeoutMs` for the offsets of a topic): a
 * transient cluster fault (a moved leader or coordinator, a refused connection, a timeout) makes
 * the adapter forget its metadata and the call is attempted again after a back-off. `connect`
 * keeps its own policy (`connectAdmin`: `task.timeout.ms`, refused credentials at once);
 * `disconnect` stops every call still retrying (it throws its last error).
 *
 * Errors: those of the wrapped adapter, as it types them, once they are not transient; a fault
 * that outlasts the bound is a `ClusterFaultTimeoutError` (retriable).
 */
export class RetryingClusterAdmin implements ClusterAdmin {
  private closed = false;

  /**
   * @param admin the client's adapter, whose calls are retried.
   * @param retry the client's retry policy.
   */
  constructor(
    readonly admin: RefreshableClusterAdmin,
    private readonly retry: ClusterRetry,
  ) {}

  get supportsRequireStable(): boolean {
    return this.admin.supportsRequireStable;
  }

  connect(): Promise<void> {
    this.closed = false;
    return this.admin.connect();
  }

  disconnect(): Promise<void> {
    this.closed = true;
    return this.admin.disconnect();
  }

  createTopics(topics: readonly NewTopic[]): Promise<void> {
    // A topic created by an attempt that seemed to fail exists at the next: not an error.
    return this.call(`CreateTopics of ${names(topics.map((t) => t.topic))}`, () =>
      this.admin.createTopics(topics),
    );
  }

  listTopics(): Promise<string[]> {
    return this.call('listing the topics', () => this.admin.listTopics());
  }

  /**
   * The adapter's metadata; a topic the cluster lists but the answering broker does not know
   * yet (another instance created it a moment ago, and that broker's metadata cache lags: it
   * answers UNKNOWN_TOPIC_OR_PARTITION) is asked again, as a transient fault. A topic the
   * cluster does not list is an `UnknownTopicError` at once.
   */
  fetchTopicMetadata(topics: readonly string[]): Promise<TopicMetadata[]> {
    return this.call(
      `Metadata of ${names(topics)}`,
      async () => {
        try {
          return await this.admin.fetchTopicMetadata(topics);
        } catch (error) {
          if (!(error instanceof UnknownTopicError)) throw error;
          const listed = new Set(await this.admin.listTopics());
          throw topics.every((t) => listed.has(t)) ? new LaggingMetadataError(error) : error;
        }
      },
      undefined,
      (error) => (error instanceof LaggingMetadataError ? UNKNOWN_TOPIC_FAULT : undefined),
    );
  }

  fetchTopicOffsets(
    topic: string,
    options?: FetchTopicOffsetsOptions,
  ): Promise<PartitionOffsets[]> {
    return this.call(
      `ListOffsets of ${topic}`,
      () => this.admin.fetchTopicOffsets(topic),
      options?.timeoutMs,
    );
  }

  fetchCommittedOffsets(
    groupId: string,
    topics: readonly string[],
    options?: FetchCommittedOffsetsOptions,
  ): Promise<CommittedOffset[]> {
    return this.call(`OffsetFetch of group ${groupId}`, () =>
      this.admin.fetchCommittedOffsets(groupId, topics, options),
    );
  }

  describeTopicConfigs(
    topics: readonly string[],
    configNames: readonly string[],
  ): Promise<TopicConfigs[]> {
    return this.call(`DescribeConfigs of ${names(topics)}`, () =>
      this.admin.describeTopicConfigs(topics, configNames),
    );
  }

  describeGroup(groupId: string): Promise<DescribedGroup> {
    return this.call(`DescribeGroups of ${groupId}`, () => this.admin.describeGroup(groupId));
  }

  listGroups(): Promise<ConsumerGroupListing[]> {
    return this.call('listing the groups', () => this.admin.listGroups());
  }

  deleteGroups(groupIds: readonly string[]): Promise<void> {
    return this.call(`DeleteGroups of ${names(groupIds)}`, () => this.admin.deleteGroups(groupIds));
  }

  private call<T>(
    name: string,
    attempt: () => Promise<T>,
    timeoutMs?: number,
    alsoRetry?: FaultClassifier,
  ): Promise<T> {
    return this.retry.run({
      name,
      bound: 'api',
      ...(timeoutMs !== undefined ? { boundMs: timeoutMs } : {}),
      ...(alsoRetry ? { alsoRetry } : {}),
      attempt,
      onFault: () => this.admin.forgetMetadata(),
      stopped: () => this.closed,
    });
  }
}

/** A list of names for a log line, cut after three. */
function names(list: readonly string[]): string {
  return list.length <= 3
    ? list.join(', ')
    : `${list.slice(0, 3).join(', ')} and ${list.length - 3} more`;
}

/** A listed topic's metadata lagging on the broker asked: retried (its cause, the adapter's error). */
class LaggingMetadataError extends Error {
  constructor(readonly unknown: UnknownTopicError) {
    super(`${unknown.message}, though the cluster lists it: its metadata lags`, { cause: unknown });
  }
}
