import type { KeyPartitioning, KeyQueryMetadata } from '../query/key-query-metadata';
import type { StateQueryRequest, StateQueryResult } from '../query/state-query';
import type { StoreQueryParameters } from '../query/store-query-parameters';
import type { LagInfo, StreamsMetadata } from '../query/streams-metadata';
import type { StreamsError } from '../errors/streams.error';
import type { Topology } from '../processor/topology';
import type { LocalStoreMetrics } from '../state/store-metrics-snapshot';
import { completeStreamsLogger, consoleStreamsLogger } from '../logging/logger';
import type { ClientMetrics } from './client-metrics';
import type { StreamsMetric } from './streams-metric';
import type {
  KafkaStreamsOptions,
  StateListener,
  StreamsUncaughtExceptionHandler,
} from './kafka-streams-options';
import type { KafkaStreamsState } from './kafka-streams-state';
import type { StateRestoreListener } from './state-restore-listener';
import {
  resolveStreamsConfig,
  type ResolvedStreamsConfig,
  type StreamsConfig,
} from './streams-config';
import type { TaskMetadata } from './task-metadata';
import { ClientLifecycle } from './internals/lifecycle/client-lifecycle';
import type { ClientQueries } from './internals/queries/client-queries';

/**
 * A Kafka Streams client: runs a {@link Topology} as a member of the application's consumer
 * group, with state stores restored from their changelogs, and answers where every key lives.
 *
 * @example
 * const streams = new KafkaStreams(builder.build(), { applicationId: 'labs-streams-app', bootstrapServers: ['127.0.0.1:9092'] });
 * streams.onStateChange((now) => console.log(now));
 * await streams.start();
 * ...
 * await streams.close();
 *
 * Errors: the constructor throws `StreamsConfigError` for bad settings and `TopologyError` for
 * a topology that cannot run; `start()` throws what {@link KafkaStreams.start} lists; processing
 * errors go to the uncaught-exception handler.
 */
export class KafkaStreams {
  readonly config: ResolvedStreamsConfig;
  /** Its start, its stream thread and its shutdown, and the state they move it through. */
  private readonly lifecycle: ClientLifecycle;
  /** What it answers about where keys live and what this instance holds. */
  private readonly queries: ClientQueries;

  constructor(
    readonly topology: Topology,
    config: StreamsConfig,
    options: KafkaStreamsOptions = {},
  ) {
    this.config = resolveStreamsConfig(config);
    const logger = options.logger ? completeStreamsLogger(options.logger) : consoleStreamsLogger;
    topology.subtopologies();
    // No record cache (`statestore.cache.max.bytes` 0): the stores run without their caching
    // layer, as Kafka Streams rewrites the topology.
    topology.applyCacheSize(this.config.statestoreCacheMaxBytes);
    this.lifecycle = new ClientLifecycle({
      topology,
      config: this.config,
      logger,
      resolveTopic: (t) => this.resolveTopic(t),
    });
    this.queries = this.lifecycle.queries;
  }

  get state(): KafkaStreamsState {
    return this.lifecycle.state;
  }

  /** Registers a state listener; returns a function that removes it. */
  onStateChange(listener: StateListener): () => void {
    return this.lifecycle.onStateChange(listener);
  }

  /** Sets what an uncaught processing error does; default `defaultUncaughtExceptionHandler`. */
  setUncaughtExceptionHandler(handler: StreamsUncaughtExceptionHandler): void {
    this.lifecycle.exceptionHandler = handler;
  }

  /**
   * Sets the listener of restores (start, batch, end): the tasks' stores from their changelogs,
   * and the global stores from their topics (as Kafka Streams tells it of both; for a global
   * store, `onBatchRestored`'s offset is the partition's position after the batch, as there).
   * Set before `start()`.
   */
  setGlobalStateRestoreListener(listener: StateRestoreListener): void {
    this.lifecycle.restoreListener = listener;
  }

  /** The physical name of a topology topic (internal topics get the application id prefix). */
  resolveTopic(logical: string): string {
    return this.topology.internalTopicDefs().has(logical)
      ? `${this.config.applicationId}-${logical}`
      : logical;
  }

  /**
   * Starts processing: locks the state directory, connects to the cluster, checks the source
   * topics, creates the internal topics (repartition and changelog) with Kafka Streams' configs,
   * and joins the group. A cause that may resolve itself (another process holding the state
   * directory, unreachable brokers, a missing source topic) is waited for until
   * `task.timeout.ms`, logged once and reported as {@link startupProblem}. Resolves once the
   * client joined the group's first rebalance (REBALANCING); RUNNING follows once restored.
   *
   * @throws StateDirectoryLockedError, BrokersUnreachableError, MissingSourceTopicError (each
   *   after `task.timeout.ms`), KafkaAuthenticationError (refused credentials, an untrusted
   *   certificate: at once), ChangelogTopicMismatchError: logged, the client goes to ERROR.
   */
  async start(): Promise<void> {
    return this.lifecycle.start();
  }

  /**
   * While `start()` waits on a cause that may resolve itself, that cause (e.g. a
   * `BrokersUnreachableError` naming the brokers); after a failed start (ERROR), the error that
   * failed it; otherwise `undefined`. What a readiness probe reports while the client starts.
   */
  get startupProblem(): StreamsError | undefined {
    return this.lifecycle.startupProblem;
  }

  /**
   * Deletes this application's local state: every task directory under
   * `<state.dir>/<application.id>` (Kafka Streams' `cleanUp()`). Call it before {@link start}
   * (or after {@link close}); the next start restores every store from its changelog. With
   * `nest-streams reset`, what replays an application from a chosen point.
   *
   * @throws StreamsRunningError while the client is started (call it before `start()` or after
   *   `close()`); StateDirectoryLockedError when another instance holds the state directory.
   */
  async cleanUp(): Promise<void> {
    return this.lifecycle.cleanUp();
  }

  /** Stops processing cleanly (commit, checkpoint, leave the group). Idempotent. */
  async close(): Promise<void> {
    return this.lifecycle.close();
  }

  /**
   * When the stream thread last made progress (epoch ms: a fetch completed, or fetched records
   * were processed), or `undefined` before `start()`. A RUNNING client with active tasks whose
   * thread stopped moving this for minutes is stuck: what a liveness probe should report.
   */
  lastProgressAt(): number | undefined {
    return this.lifecycle.lastProgressAt();
  }

  /** Processing counters summed over the client's active tasks, and the commits. */
  metrics(): ClientMetrics {
    return this.lifecycle.metrics();
  }

  /**
   * Every metric of this client as Kafka Streams names it (its `metrics()`): group, name, tags
   * and value, for the client, its stream thread, its active tasks, their processor nodes,
   * state stores (RocksDB's figures included) and record caches, and its standby tasks, at
   * `metricsRecordingLevel` (DEBUG adds per-node and per-store figures; see
   * `STREAMS_METRIC_DEFINITIONS` for each metric's level). Rates, means and maxima cover the
   * last 30 to 60 s. Cheap enough for every metrics scrape; never throws.
   */
  allMetrics(): StreamsMetric[] {
    return this.queries.allMetrics();
  }

  /**
   * A read-only view of a store over this instance's local copies (Kafka Streams' `store()`).
   * The view looks its stores up on every call, so it can be kept.
   *
   * @throws StreamsNotStartedError, StateStoreNotAvailableError (rebalancing/restoring: retry),
   *   StateStoreMigratedError (rediscover the owner), UnknownStateStoreError,
   *   InvalidStateStorePartitionError — all `InvalidStateStoreError`s with `code` and `retriable`.
   */
  store<T>(params: StoreQueryParameters<T>): T {
    return this.queries.store(params);
  }

  /**
   * Which instance holds `key` of `storeName` (active and standbys) and in which partition,
   * from the latest assignment — also while REBALANCING, as Kafka Streams answers (a read
   * routed there while the task moves gets a retriable error, never a wrong answer).
   * `KeyQueryMetadata.NOT_AVAILABLE` when no instance runs the key's task, once the client
   * stopped, and before the first assignment — unless the application's classic group was
   * stable when this client started: then its host map answers until this client's own
   * assignment (a restarted instance routes at once instead of waiting for its old member's
   * session to expire). A key of a global store lives on this instance (`application.server`;
   * the first instance of the metadata without one), with no standbys and partition
   * `KeyQueryMetadata.UNKNOWN_PARTITION` (-1): every instance holds the store whole, so a
   * router answers it here, as Kafka Streams' metadata says.
   *
   * @throws UnknownStateStoreError for a store the topology does not have.
   */
  queryMetadataForKey<K>(
    storeName: string,
    key: K,
    partitioning: KeyPartitioning<K>,
  ): KeyQueryMetadata {
    return this.queries.queryMetadataForKey(storeName, key, partitioning);
  }

  /**
   * Which queryable copy of partition `partition` of `storeName` this instance holds now:
   * `'active'` (an active task, restored), `'standby'` (a standby copy whose lag is known), or
   * `undefined`. What a router checks before answering as the key's named owner: while a task
   * restores, or moves here and is still held back (cooperative rebalancing), the metadata
   * names this instance but no active copy answers yet — a standby copy may. A global store
   * is `'active'` for any partition once restored (it is whole here).
   */
  localCopyOf(storeName: string, partition: number): 'active' | 'standby' | undefined {
    return this.queries.localCopyOf(storeName, partition);
  }

  /**
   * How many partitions `storeName` has: its sub-topology's task count (the largest partition
   * count of its source topics), known once `start()` prepared the topics; `undefined` before,
   * and for a store the topology does not have. What a scatter-gather query checks its answers
   * against: a partition the metadata names no instance for is missing, not empty (while the
   * group rebalances, or under the streams protocol before every member reported its
   * endpoint, the host map may not list every task).
   */
  storePartitionCount(storeName: string): number | undefined {
    return this.queries.storePartitionCount(storeName);
  }

  /**
   * Interactive query API v2: answers `request` from this instance's copies, per partition,
   * with failures as data (NOT_ACTIVE, NOT_UP_TO_BOUND, NOT_PRESENT, DOES_NOT_EXIST,
   * STORE_EXCEPTION, UNKNOWN_QUERY_TYPE) and each copy's position for read-your-writes.
   * Never throws for a store or partition problem; the caller (or the remote transport)
   * routes NOT_PRESENT partitions to their owners. A global store answers in `globalResult`
   * from this instance's whole copy, whatever partitions were asked (NOT_PRESENT while it
   * restores: retry); Kafka Streams 4.x refuses IQv2 on global stores (UNKNOWN_QUERY_TYPE).
   */
  query<K>(request: StateQueryRequest<K>): Promise<StateQueryResult<unknown>> {
    return this.queries.query(request);
  }

  /** Every instance of the application, from the latest assignment. */
  metadataForAllStreamsClients(): StreamsMetadata[] {
    return this.queries.metadataForAllStreamsClients();
  }

  /** The instances holding `storeName` (active or standby; every instance for a global store). */
  streamsMetadataForStore(storeName: string): StreamsMetadata[] {
    return this.queries.streamsMetadataForStore(storeName);
  }

  /** This instance's metadata, when it advertises `application.server`. */
  localMetadata(): StreamsMetadata | undefined {
    return this.queries.localMetadata();
  }

  /**
   * Consumer lag of this instance's active tasks, per input partition: records fetched from
   * the broker but not processed yet are not counted as processed (position = next offset to
   * process). Asks the broker for end offsets; empty before `start()`.
   */
  async inputLags(): Promise<
    { topic: string; partition: number; position: number; endOffset: number; lag: number }[]
  > {
    return this.queries.inputLags();
  }

  /**
   * How far each local store copy is behind its changelog, per store and partition (Kafka
   * Streams' `allLocalStorePartitionLags`): active copies report 0 once restored; standby
   * copies report their distance to the changelog end.
   */
  async allLocalStorePartitionLags(): Promise<Map<string, Map<number, LagInfo>>> {
    return this.queries.allLocalStorePartitionLags();
  }

  /**
   * Local task ids: active and standby, and which of the standbys are warm-up replicas (placed
   * on the task's intended owner until it catches up: a probing rebalance then moves the task).
   */
  localTaskIds(): { active: string[]; standby: string[]; warmup: string[] } {
    return this.queries.localTaskIds();
  }

  /**
   * The active tasks this client runs now: id, input partitions, stores, and whether they are
   * restored (Kafka Streams' `metadataForLocalThreads().activeTasks()`). Empty before the first
   * assignment and after `close()`.
   */
  activeTaskMetadata(): TaskMetadata[] {
    return this.queries.activeTaskMetadata();
  }

  /**
   * Metrics of every state store of the active tasks, one entry per store and task: operation
   * counts, rates and sampled latencies, the record cache's hit ratio, and RocksDB's memory
   * and size figures where the engine has them. Cheap enough for every metrics scrape.
   */
  storeMetrics(): LocalStoreMetrics[] {
    return this.queries.storeMetrics();
  }
}
