// The engine's port for its consumer-group member: the stream thread's consumer. It joins the
// application's group with the engine's own assignor (through hooks), fetches the assigned
// input for processing, pauses, resumes and seeks partitions, commits offsets in its
// generation and rejoins on request. Client adapters implement it (kafkajs:
// ./kafkajs/kafkajs-group-consumer.ts; @platformatic/kafka:
// ./platformatic/platformatic-group-consumer.ts); the engine never sees a client's own types.
import type { ConsumedRecord } from './consumed-record';

/** Partitions of one topic. */
export interface TopicPartitions {
  readonly topic: string;
  readonly partitions: readonly number[];
}

/** An offset of one partition: for a commit, the next offset to read. */
export interface TopicPartitionOffset {
  readonly topic: string;
  readonly partition: number;
  readonly offset: number;
}

/** One member's subscription, as the group's leader sees it in {@link GroupAssignor.assign}. */
export interface GroupMemberSubscription {
  readonly memberId: string;
  /** Topics the member subscribed to. */
  readonly topics: readonly string[];
  /** What the member's {@link GroupAssignor.subscriptionUserData} returned when it joined. */
  readonly userData: Buffer;
}

/** What the leader gives one member. */
export interface GroupMemberAssignment {
  readonly memberId: string;
  readonly partitions: readonly TopicPartitions[];
  /** Delivered to that member, byte for byte, as {@link GroupAssignment.userData}. */
  readonly userData: Buffer;
}

/** What the leader's assignor is given. */
export interface GroupAssignRequest {
  /** Every member of the generation, the leader included, in the coordinator's order. */
  readonly members: readonly GroupMemberSubscription[];
  /**
   * The partition count of every topic some member subscribed to, read from fresh metadata;
   * a topic the cluster does not know is absent.
   */
  readonly partitionCounts: ReadonlyMap<string, number>;
}

/**
 * The engine's assignor, run by the adapter inside the client's group protocol (Java's
 * `ConsumerPartitionAssignor`). Every member of a group must use the same `name`.
 */
export interface GroupAssignor {
  /** The protocol name members agree on; a member with another name cannot join. */
  readonly name: string;
  /** This member's subscription user data, asked for at every join. */
  subscriptionUserData(): Buffer;
  /**
   * Runs on the leader only, with every member's subscription; returns one assignment per
   * member (a member left out gets no partitions and empty user data). It may take its time
   * (the group waits for it, up to the rebalance timeout).
   *
   * @throws any error to fail the assignment: the adapter reports it through
   *   {@link GroupConsumerListener.onFailed} (kafkajs retries the join first, as it does for
   *   its own assigners).
   */
  assign(request: GroupAssignRequest): Promise<GroupMemberAssignment[]>;
}

/** This member's share of a generation. */
export interface GroupAssignment {
  readonly memberId: string;
  readonly generationId: number;
  /** The member's partitions. They are fetched from their committed offsets (else the earliest). */
  readonly partitions: readonly TopicPartitions[];
  /**
   * The user data the leader's assignor gave this member. A promise because a client may have
   * to read it back from the group (kafkajs drops it; its adapter reads it with a group
   * description).
   *
   * @throws Error when the adapter cannot read it back: the engine fails the thread.
   */
  userData(): Promise<Buffer>;
}

/** The group identity a transactional producer sends with offsets (KIP-447). */
export interface GroupMetadata {
  readonly groupId: string;
  readonly memberId: string;
  readonly generationId: number;
  /** The static member id (`group.instance.id`), `null` for a dynamic member. */
  readonly groupInstanceId: string | null;
}

/** Records of one partition fetched for processing, in offset order. */
export interface GroupFetchedBatch {
  readonly topic: string;
  readonly partition: number;
  /** Never empty. */
  readonly records: readonly ConsumedRecord[];
  /**
   * The position after the batch: past its last record and any transaction markers or aborted
   * records behind it. Where the next fetch of the partition starts once the batch is consumed.
   */
  readonly nextOffset: number;
  /** False once the batch's generation is over (a rebalance began): its records must be dropped. */
  isCurrent(): boolean;
  /**
   * Tells the group the member is alive while a batch takes long.
   *
   * @throws RebalanceInProgressError when the group is rebalancing: finish quickly (commit if
   *   possible) and return from the batch handler so the member rejoins.
   */
  heartbeat(): Promise<void>;
}

/**
 * Handles one fetched batch. Resolves `true` when the batch was consumed (the partition's
 * position moves to its `nextOffset`), `false` to leave the position where it was (the same
 * records are fetched again, e.g. a stale batch). Batches are delivered one at a time.
 * A rejection stops the consumer: the adapter reports it through
 * {@link GroupConsumerListener.onFailed} unless it is a rebalance error (the member rejoins).
 */
export type GroupBatchHandler = (batch: GroupFetchedBatch) => Promise<boolean>;

/** What a group consumer tells the engine. Callbacks must not throw. */
export interface GroupConsumerListener {
  /** The group started rebalancing (this member learned of it). */
  onRebalancing(): void;
  /**
   * The member is about to send a JoinGroup while its generation may still commit. Eager: it
   * gives up every partition (Kafka's eager `onPartitionsRevoked`: commit what was processed).
   * Cooperative: it keeps them; only a commit in flight should finish first. The adapter waits
   * for the promise (at most half the session timeout) before it rejoins; a rejection is ignored.
   */
  onRevoking(): Promise<void>;
  /**
   * The member joined a generation. Called before the first fetch of the generation's
   * partitions, so {@link GroupConsumer.pause} called from here holds them back. Resolves once
   * the partitions the member no longer has are given up (their work committed, their tasks
   * closed): a cooperative adapter rejoins only then, so their next owner gets them in the
   * follow-up rebalance (KIP-429). Never rejects.
   */
  onAssigned(assignment: GroupAssignment): Promise<void>;
  /**
   * The member lost its membership (its session expired or it was fenced; either protocol), so
   * its partitions may have other owners already (Kafka's `onPartitionsLost`): drop every task
   * without committing, and answer no query from them. The adapter waits for the promise before
   * it joins again. Never rejects.
   */
  onLost(): Promise<void>;
  /** A fetch completed, even an empty one: the fetch loop is alive. */
  onFetch(): void;
  /**
   * The group coordinator answered a heartbeat of the member's generation without an error:
   * the member still holds its assignment. (A member that hears none for `session.timeout.ms`
   * may have been dropped, and its partitions given to others, without knowing it yet.)
   */
  onHeartbeat?(): void;
  /** The consumer stopped for good (it will not rejoin by itself): the engine fails the thread. */
  onFailed(error: Error): void;
}

/**
 * The processing consumer's `max.partition.fetch.bytes` unless set: 1 MiB, the Java consumer's
 * default. Small enough that one fetch interleaves every assigned partition in small batches, so
 * the tasks advance together (one fetched batch is processed before the next partition's).
 */
export const DEFAULT_MAX_PARTITION_FETCH_BYTES = 1_048_576;

/** What a group consumer is created with. */
export interface GroupConsumerOptions {
  readonly groupId: string;
  readonly assignor: GroupAssignor;
  readonly sessionTimeoutMs: number;
  readonly heartbeatIntervalMs: number;
  readonly rebalanceTimeoutMs: number;
  /** The longest a fetch waits for records. */
  readonly maxWaitTimeMs: number;
  /**
   * The most bytes one fetch returns of one partition (`max.partition.fetch.bytes`); default
   * {@link DEFAULT_MAX_PARTITION_FETCH_BYTES}. A record batch larger than this is still returned
   * whole when it is the partition's first, as Kafka's fetch does.
   */
  readonly maxBytesPerPartition?: number;
  /**
   * `cooperative` (KIP-429): the member keeps its partitions and fetching through a rebalance,
   * gives up only those the new assignment takes away, and then rejoins; `eager`: it stops
   * every partition until the new assignment. An adapter whose client has no cooperative
   * protocol supports only `eager` (the configuration refuses the other).
   */
  readonly rebalanceProtocol: 'cooperative' | 'eager';
  /**
   * The static member id (`group.instance.id`, KIP-345), for adapters whose client has static
   * membership (the config refuses it on the others). A static member sends it with every
   * JoinGroup, SyncGroup, Heartbeat and OffsetCommit, reports it in {@link GroupMetadata},
   * and closes without leaving the group. Once another process took the id, the member's calls
   * fail with `FencedInstanceIdError` and its consumer stops (`onFailed`).
   */
  readonly groupInstanceId?: string;
  /**
   * Set under `groupProtocol: 'streams'` (KIP-1071): the member joins a streams group, whose
   * coordinator assigns the tasks. `assignor.assign` is then not used; `assignor`'s
   * subscription user data still tells the adapter the member's process id, endpoints, task
   * offsets and shutdown request.
   */
  readonly streamsGroup?: StreamsGroupSpec;
}

/** A sub-topology as a streams group's coordinator sees it; topic names are physical. */
export interface StreamsGroupSubtopology {
  /** The engine's sub-topology id: tasks are `<id>_<partition>`. */
  readonly id: string;
  /** Every topic it reads, repartition topics included. */
  readonly sourceTopics: readonly string[];
  /** The repartition topics among its sources, with their partition counts. */
  readonly repartitionSourceTopics: readonly { name: string; partitions: number }[];
  /** The repartition topics it writes. */
  readonly repartitionSinkTopics: readonly string[];
  /** The changelog topics of its stores, with their topic configs. */
  readonly changelogTopics: readonly { name: string; configs: Readonly<Record<string, string>> }[];
  /** Groups of its source topics that must have equal partition counts. */
  readonly copartitionGroups: readonly (readonly string[])[];
}

/** What a member of a streams group (KIP-1071) needs from the engine. */
export interface StreamsGroupSpec {
  /** The topology, sent when the member joins (read once the internal topics are prepared). */
  subtopologies(): readonly StreamsGroupSubtopology[];
  /** Changelog end-offset sums per task (reported to the coordinator); best effort. */
  taskEndOffsetSums(): Promise<Record<string, number>>;
}

/** What starting a group consumer subscribes it to. */
export interface GroupConsumerStart {
  readonly topics: readonly string[];
  readonly listener: GroupConsumerListener;
  readonly handleBatch: GroupBatchHandler;
}

/**
 * A member of a consumer group that fetches its assigned partitions for processing (Java's
 * `KafkaConsumer` as a stream thread uses it). Reads are read_committed, offsets are plain
 * numbers, and auto-commit is off: the engine commits.
 *
 * Errors: each method names the typed errors (from `errors/internals`) the engine branches on;
 * anything else is the client's own error, the operation not done.
 */
export interface GroupConsumer {
  readonly groupId: string;

  /**
   * Connects, subscribes to `topics` and joins the group; resolves once the fetch loop runs
   * (the first assignment may come later, through `onAssigned`).
   *
   * @throws the client's error when the cluster cannot be reached: the engine fails the thread.
   */
  start(start: GroupConsumerStart): Promise<void>;

  /** Stops fetching the partitions (a fetch in flight may still deliver one batch each). */
  pause(partitions: readonly TopicPartitions[]): void;

  /** Fetches paused partitions again, from their positions. */
  resume(partitions: readonly TopicPartitions[]): void;

  /** Moves a partition's position: its next fetch starts at `offset`. */
  seek(topic: string, partition: number, offset: number): void;

  /**
   * Java's `Consumer.currentLag`: how many offsets of an assigned partition the broker held
   * beyond the records handed to the engine, as of the partition's latest fetch (its last stable
   * offset, the end a read_committed reader reaches, minus its position); `undefined` while
   * unknown (no fetch of the partition answered since it was assigned or sought). A task with
   * several input partitions waits for an empty one while its lag is unknown or above 0
   * (`max.task.idle.ms`, KIP-695). Never throws. An adapter without it makes every empty
   * partition count as caught up (the task waits `max.task.idle.ms` at most).
   */
  currentLag?(topic: string, partition: number): number | undefined;

  /**
   * Checks that the broker that answered the member's latest heartbeat coordinates the group,
   * by asking the other brokers (the first answer counts). A broker that hung while the group's
   * coordination moved to another answers the heartbeats queued at it, the moment it resumes,
   * from the group as it was before the hang: "still a member" of a group that may have dropped
   * the member and given its partitions to others since. The engine asks only after the member
   * heard nothing for longer than `session.timeout.ms`. An adapter without it makes every
   * answered heartbeat count.
   *
   * @throws GroupCoordinatorUnconfirmedError (retriable) when another broker names another
   *   coordinator (`COORDINATOR_MOVED_WHILE_ASKED`: the answer is refused), none answered, or no
   *   heartbeat was answered yet: the member stays in doubt and the next answered heartbeat is
   *   checked again; the client's errors (a connection error, a timeout) likewise.
   */
  confirmHeartbeatCoordinator?(): Promise<void>;

  /**
   * Commits offsets (the next offsets to read) in the member's current generation.
   *
   * @throws CommitFailedError when the group refused the commit because it moved on (cause:
   *   RebalanceInProgressError, MemberFencedError or UnknownMemberError): nothing was
   *   committed; see the error for what to do.
   * @throws FencedInstanceIdError when another process took this static member's id: fatal.
   *   Other errors (an unreachable coordinator) are the client's: the engine treats the commit
   *   as failed.
   */
  commitOffsets(offsets: readonly TopicPartitionOffset[]): Promise<void>;

  /**
   * The member's group identity in its current generation; `undefined` until it joined.
   * Cooperative: the generation of the member's latest JoinGroup, which it holds its
   * partitions in from that moment (nobody else gets them before it gives them up).
   */
  groupMetadata(): GroupMetadata | undefined;

  /**
   * Kafka's `enforceRebalance()`: rejoins as the same member, without leaving, so the group
   * waits for every member (a probing rebalance). The coordinator rebalances when the leader
   * rejoins or a member's subscription changed. Resolves once asked (the rejoin follows).
   * Never throws: a rejoin that fails is reported as the join failures are.
   */
  enforceRebalance(): Promise<void>;

  /**
   * Leaves the group and joins again as a new member, so the leader reads a new subscription
   * whatever it holds (e.g. a shutdown request). Works after a failure of the fetch loop too.
   * The leave is best effort (a coordinator that moved or hangs drops the member after
   * `session.timeout.ms`); a join that meets a transient cluster fault is retried.
   *
   * @throws `ClusterFaultTimeoutError` when the fault outlasts `default.api.timeout.ms`, or the
   *   client's error when the member cannot rejoin for another reason: the engine fails the
   *   thread (the default uncaught-exception handler replaces it for the former).
   */
  rejoin(): Promise<void>;

  /**
   * Leaves the group and disconnects; a static member disconnects without leaving (its
   * assignment waits `sessionTimeoutMs` for a successor with the same id). Never throws.
   */
  close(): Promise<void>;
}

/** Creates a group consumer (not started). */
export type GroupConsumerFactory = (options: GroupConsumerOptions) => GroupConsumer;
