// The engine's port for the cluster's administrative operations: topics, their metadata,
// offsets and configs, and consumer groups. Client adapters implement it (kafkajs:
// ./kafkajs/kafkajs-cluster-admin.ts; @platformatic/kafka:
// ./platformatic/platformatic-cluster-admin.ts); the engine never sees a client's own types.

/** A topic to create. */
export interface NewTopic {
  readonly topic: string;
  /** Number of partitions. */
  readonly partitions: number;
  /** Replicas per partition; -1 for the broker's `default.replication.factor`. */
  readonly replicationFactor: number;
  /** Topic configs (`cleanup.policy`, `retention.ms`, ...); the broker's defaults for the rest. */
  readonly configs: Readonly<Record<string, string>>;
}

/** One partition of a topic's metadata. */
export interface PartitionMetadata {
  readonly partition: number;
  /** The leader's broker id; -1 while the partition has no leader. */
  readonly leader: number;
  /** Broker ids of the replicas. */
  readonly replicas: readonly number[];
  /** Broker ids of the in-sync replicas. */
  readonly isr: readonly number[];
}

/** A topic's metadata: its partitions in partition order. */
export interface TopicMetadata {
  readonly name: string;
  readonly partitions: readonly PartitionMetadata[];
}

/** The bounds of one partition's log. */
export interface PartitionOffsets {
  readonly partition: number;
  /** The log start offset: the first offset still in the log. */
  readonly low: number;
  /**
   * The high watermark: one past the last replicated record (read_uncommitted, so records of
   * open transactions and transaction markers count).
   */
  readonly high: number;
}

/** How {@link ClusterAdmin.fetchCommittedOffsets} reads. */
export interface FetchCommittedOffsetsOptions {
  /** Wait for offsets of open transactions to be committed or aborted (KIP-447). */
  readonly requireStable?: boolean;
  /** How long to wait for stable offsets; default 60,000 ms. */
  readonly timeoutMs?: number;
}

/** How {@link ClusterAdmin.fetchTopicOffsets} reads. */
export interface FetchTopicOffsetsOptions {
  /**
   * How long a transient cluster fault is retried, in ms, instead of `default.api.timeout.ms`
   * (a lag read behind a health check or a query waits less).
   */
  readonly timeoutMs?: number;
}

/** One member of a classic consumer group, as DescribeGroups tells it. */
export interface DescribedGroupMember {
  readonly memberId: string;
  /** The member's `group.instance.id` (static membership), or null. */
  readonly groupInstanceId: string | null;
  /** The user data of the member's assignment (the consumer protocol's `userData`). */
  readonly assignmentUserData: Buffer;
}

/** A classic consumer group, as DescribeGroups tells it. */
export interface DescribedGroup {
  /** `Stable`, `PreparingRebalance`, `CompletingRebalance`, `Empty` or `Dead`. */
  readonly state: string;
  /**
   * The members with their assignments: only of a `Stable` group of protocol type `consumer`
   * (the broker sends assignments of a stable group only); empty otherwise.
   */
  readonly members: readonly DescribedGroupMember[];
}

/**
 * A {@link DescribedGroup} from a DescribeGroups answer: the members (each made by `member`)
 * only of a `Stable` group of protocol type `consumer`, none otherwise.
 */
export function describedGroup<M>(
  state: string,
  protocolType: string,
  members: readonly M[],
  member: (m: M) => DescribedGroupMember,
): DescribedGroup {
  const withAssignments = state === 'Stable' && protocolType === 'consumer';
  return { state, members: withAssignments ? members.map(member) : [] };
}

/** An offset a consumer group committed: the next offset it will read. */
export interface CommittedOffset {
  readonly topic: string;
  readonly partition: number;
  readonly offset: number;
}

/** A topic's values of the configs asked for. */
export interface TopicConfigs {
  readonly topic: string;
  /**
   * Config name to its effective value (the topic's own, else the broker's default); `null` for a
   * sensitive value the broker does not reveal. Names the broker does not know are absent.
   */
  readonly configs: Readonly<Record<string, string | null>>;
}

/** A consumer group the cluster knows. */
export interface ConsumerGroupListing {
  readonly groupId: string;
  /** `consumer` for groups of Kafka consumers; empty for a group with no protocol yet. */
  readonly protocolType: string;
}

/**
 * The cluster administration the engine needs, in the engine's own types (Java's `Admin`, cut
 * to what Kafka Streams uses). Offsets are plain numbers: a partition reaches 2^53 records
 * long after anything else breaks.
 *
 * Errors: each method names the typed errors (from `errors/`) that callers act on. Any other
 * error is the client's own, thrown as the client reports it, the operation not done: a
 * cluster that cannot be reached is either the client's error or a
 * `BrokersUnreachableError`, and the engine tells both apart from other failures with
 * `isClusterUnreachableError` (retried until `task.timeout.ms`); an authorization failure is
 * a configuration error the user fixes.
 */
export interface ClusterAdmin {
  /**
   * Connects to the cluster (or checks that it answers), before any other call.
   *
   * @throws BrokersUnreachableError (retriable) when no broker answers: the caller retries until
   *   `task.timeout.ms` (see `connectAdmin`); BrokerAuthenticationError (not retriable) when the
   *   brokers refuse the credentials: fix the `kafka.sasl` setting.
   */
  connect(): Promise<void>;

  /** Closes the connections; calls in flight fail. Never throws for a closed client. */
  disconnect(): Promise<void>;

  /**
   * Creates topics, each with its own configs. A topic that already exists (created before, or
   * meanwhile by another instance) is not an error and is left as it is: the caller validates
   * existing topics itself. Resolves once the controller accepted them; their leaders may not
   * be elected yet (see `createTopicsAndWait`).
   *
   * @throws the client's error when the controller refuses a topic (an invalid config, a
   *   replication factor above the broker count, authorization): a startup error.
   */
  createTopics(topics: readonly NewTopic[]): Promise<void>;

  /** Names of the cluster's topics (internal topics such as `__consumer_offsets` may be among them). */
  listTopics(): Promise<string[]>;

  /**
   * Metadata of the given topics, in the order asked.
   *
   * @throws UnknownTopicError (retriable) when a topic does not exist (or has not reached the
   *   answering broker's metadata yet): a caller that just created it retries.
   */
  fetchTopicMetadata(topics: readonly string[]): Promise<TopicMetadata[]>;

  /**
   * The log start offset and high watermark of each partition of a topic, in partition order.
   * The engine's adapters answer only what each partition's current leader gave: an answer of a
   * broker that, by another broker asked once it came, no longer leads (a broker hung while its
   * leaderships moved answers queued requests from before the hang) is refused
   * (`answer-confirmation.ts`).
   *
   * @throws UnknownTopicError (retriable) when the topic does not exist or is not yet known;
   *   PartitionLeaderNotAvailableError (retriable) while a partition's leadership moves, or when
   *   an answer was refused (`LEADER_MOVED_WHILE_ASKED`) or could not be confirmed. The engine
   *   retries these for a bounded time (`fetchTopicOffsetsSettled`, the cluster retry).
   */
  fetchTopicOffsets(topic: string, options?: FetchTopicOffsetsOptions): Promise<PartitionOffsets[]>;

  /**
   * Whether {@link fetchCommittedOffsets} can wait for stable offsets (KIP-447's
   * `require_stable`, OffsetFetch v7+).
   */
  readonly supportsRequireStable: boolean;

  /**
   * The offsets a consumer group committed for the partitions of the given topics, in topic and
   * partition order; partitions without a committed offset are left out, and a group that
   * never committed (or does not exist) has none.
   *
   * By default read without KIP-447's `require_stable`: an offset of a transaction still open
   * is not waited for. With `requireStable` (only where {@link supportsRequireStable}) the read
   * waits until no transaction holding offsets of these partitions for the group is open, so
   * the answer includes or excludes a pending transaction's offsets as it ends. The engine's
   * adapters answer only what the group's coordinator gave, as another broker confirms once it
   * came (see {@link fetchTopicOffsets}).
   *
   * @throws GroupCoordinatorUnconfirmedError (retriable) when no other broker confirmed the
   *   broker that answered as the group's coordinator: ask again (the cluster retry does);
   *   UnknownTopicError when a topic does not exist; UnstableOffsetsError (retriable)
   *   when offsets stayed unstable for `timeoutMs` (a producer's transaction still open: it
   *   ends by its commit, its abort or the coordinator's transaction timeout); an `Error`
   *   when `requireStable` is asked of an adapter without it (a bug of the caller).
   */
  fetchCommittedOffsets(
    groupId: string,
    topics: readonly string[],
    options?: FetchCommittedOffsetsOptions,
  ): Promise<CommittedOffset[]>;

  /**
   * The values of the named configs of each topic, in the order asked (synonyms and docs left
   * out).
   *
   * @throws UnknownTopicError when a topic does not exist.
   */
  describeTopicConfigs(
    topics: readonly string[],
    configNames: readonly string[],
  ): Promise<TopicConfigs[]>;

  /**
   * Describes a classic consumer group: its state and, while it is stable, each member's
   * assignment user data (DescribeGroups on the group coordinator). A group the coordinator does
   * not know is `Dead` with no members.
   *
   * @throws BrokersUnreachableError when no broker answers; the client's error otherwise
   *   (callers that only borrow information from it go on without).
   */
  describeGroup(groupId: string): Promise<DescribedGroup>;

  /** The consumer groups the cluster knows (of every broker), in no particular order. */
  listGroups(): Promise<ConsumerGroupListing[]>;

  /**
   * Deletes consumer groups and their committed offsets.
   *
   * @throws GroupNotDeletedError (the first group that failed) when a group still has members
   *   or is not known; the others were deleted. The engine's callers ignore it (tidiness only).
   */
  deleteGroups(groupIds: readonly string[]): Promise<void>;
}
