import { EventEmitter } from 'node:events';
import type { Admin } from 'kafkajs';
import { Kafka, logLevel } from './internals/kafkajs/kafkajs';
import { LATEST_OFFSET, type SubscriptionInfo } from '../cluster/internals/assignment-info';
import { MissingSourceTopicError } from '../errors/missing-source-topic.error';
import { StreamsConfigError } from '../errors/streams-config.error';
import type { Topology } from '../processor/topology';
import { RecordCache } from '../state/internals/record-cache';
import { chooseRocksDBEngine } from '../state/internals/rocksdb-engine-choice';
import type { ActiveTaskManager } from './internals/active-task-manager';
import {
  KafkaStreamsState,
  StreamThreadExceptionResponse,
  isValidTransition,
} from './kafka-streams-state';
import { StateDirectory } from './internals/state-directory';
import { consoleStateLogger, type StateLogger } from './state-logger';
import type { StateRestoreListener } from './state-restore-listener';
import type { StreamThread } from './internals/stream-thread';
import type { StandbyTaskManager } from './internals/standby-task-manager';
import { createStreamThread } from './internals/stream-thread-factory';
import { threadFailureAction } from './internals/thread-failure-policy';
import { KeyQueryMetadata, type KeyPartitioning } from '../query/key-query-metadata';
import { LocalStoreProvider, type LocalStore } from '../query/internals/local-store-provider';
import type { StoreQueryParameters } from '../query/store-query-parameters';
import { StreamsMetadataState } from '../query/internals/streams-metadata-state';
import type { LagInfo, StreamsMetadata } from '../query/streams-metadata';
import { TaskId } from '../processor/task-id';
import { executeStateQuery, type QueryableCopy } from '../query/internals/state-query-executor';
import type { StateQueryRequest, StateQueryResult } from '../query/state-query';
import {
  resolveStreamsConfig,
  type ResolvedStreamsConfig,
  type StreamsConfig,
} from './streams-config';
import { prepareInternalTopics } from './internals/internal-topics';
import { LocalTaskView } from './internals/local-task-view';
import { sumTaskMetrics } from './internals/task-metrics';
import type { ClientMetrics } from './client-metrics';
import { activeTaskMetadata, localStoreMetrics } from './internals/local-task-metadata';
import type { LocalStoreMetrics } from '../state/store-metrics-snapshot';
import type { TaskMetadata } from './task-metadata';
import { changelogEndOffsetSums, localTaskOffsetSums } from './internals/task-offset-sums';

/** Called on every state change. */
export type StateListener = (newState: KafkaStreamsState, oldState: KafkaStreamsState) => void;
/** Decides what an uncaught processing error does. */
export type StreamsUncaughtExceptionHandler = (error: Error) => StreamThreadExceptionResponse;

/** Options besides the Kafka Streams settings. */
export interface KafkaStreamsOptions {
  /** Where decisions and warnings go; default the console. */
  logger?: StateLogger;
}

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
 * a topology that cannot run; `start()` throws `MissingSourceTopicError` when an input topic
 * does not exist, `ChangelogTopicMismatchError` for an existing changelog with the wrong
 * partition count or cleanup policy, and `StateDirectoryLockedError` when another live process
 * holds the state directory. Processing errors go to the uncaught-exception handler.
 */
export class KafkaStreams {
  readonly config: ResolvedStreamsConfig;
  private readonly events = new EventEmitter();
  private readonly logger: StateLogger;
  private readonly kafka: Kafka;
  private readonly stateDirectory: StateDirectory;
  private readonly cache: RecordCache;
  private currentState = KafkaStreamsState.CREATED;
  private admin: Admin | undefined;
  private thread: StreamThread | undefined;
  private tasks: ActiveTaskManager | undefined;
  private standbys: StandbyTaskManager | undefined;
  private readonly metadataState: StreamsMetadataState;
  private readonly storeProvider: LocalStoreProvider;
  private localOffsetSums: Record<string, number> = {};
  private processId = '';
  private partitionsByTopic = new Map<string, number>();
  private exceptionHandler: StreamsUncaughtExceptionHandler = () =>
    StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
  private restoreListener: StateRestoreListener | undefined;
  private closing: Promise<void> | undefined;
  private shutdownRequested = false;
  private stopCleanup: (() => void) | undefined;
  /** When the current run of cluster-unreachable thread failures began (task.timeout.ms). */
  private unreachableSince: number | undefined;
  private readonly localView = new LocalTaskView(
    () => this.tasks,
    () => this.standbys,
  );

  constructor(
    readonly topology: Topology,
    config: StreamsConfig,
    options: KafkaStreamsOptions = {},
  ) {
    this.config = resolveStreamsConfig(config);
    this.logger = options.logger ?? consoleStateLogger;
    topology.subtopologies();
    this.kafka = new Kafka({
      logLevel: logLevel.ERROR,
      ...this.config.kafka,
      clientId: this.config.clientId,
      brokers: this.config.bootstrapServers,
    });
    this.stateDirectory = new StateDirectory({
      stateDir: this.config.stateDir,
      applicationId: this.config.applicationId,
      cleanupDelayMs: this.config.stateCleanupDelayMs,
    });
    this.cache = new RecordCache(this.config.statestoreCacheMaxBytes);
    this.metadataState = new StreamsMetadataState(
      () => this.topology.subtopologies(),
      (sub) => sub.sourceTopics.map((t) => this.resolveTopic(t)),
      (topic) => this.partitionsByTopic.get(topic),
    );
    this.storeProvider = new LocalStoreProvider({
      state: () => this.currentState,
      subtopologyOf: (name) => this.topology.subtopologies().find((s) => s.stores.includes(name)),
      partitionCount: (name) => this.storePartitionCount(name),
      localStores: (name) => this.localStores(name),
    });
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
    this.storeProvider.storeSet(params);
    return params.queryableStoreType.create(params.storeName, () =>
      this.storeProvider.storeSet(params),
    );
  }

  /**
   * Which instance holds `key` of `storeName` (active and standbys) and in which partition,
   * from the latest assignment — also while REBALANCING, as Kafka Streams answers (a read
   * routed there while the task moves gets a retriable error, never a wrong answer).
   * `KeyQueryMetadata.NOT_AVAILABLE` before the first assignment, when no instance runs the
   * key's task, and once the client stopped.
   *
   * @throws UnknownStateStoreError for a store the topology does not have.
   */
  queryMetadataForKey<K>(
    storeName: string,
    key: K,
    partitioning: KeyPartitioning<K>,
  ): KeyQueryMetadata {
    this.metadataState.subtopologyOf(storeName);
    if (!this.isActive()) return KeyQueryMetadata.NOT_AVAILABLE;
    return this.metadataState.keyQueryMetadata(storeName, key, partitioning);
  }

  /**
   * Interactive query API v2: answers `request` from this instance's copies, per partition,
   * with failures as data (NOT_ACTIVE, NOT_UP_TO_BOUND, NOT_PRESENT, DOES_NOT_EXIST,
   * STORE_EXCEPTION, UNKNOWN_QUERY_TYPE) and each copy's position for read-your-writes.
   * Never throws for a store or partition problem; the caller (or the remote transport)
   * routes NOT_PRESENT partitions to their owners.
   */
  async query<K>(request: StateQueryRequest<K>): Promise<StateQueryResult<unknown>> {
    const exists = this.topology.subtopologies().some((s) => s.stores.includes(request.storeName));
    const queryable =
      this.currentState === KafkaStreamsState.RUNNING ||
      this.currentState === KafkaStreamsState.REBALANCING;
    const copies: QueryableCopy[] =
      !exists || !queryable
        ? []
        : this.localStores(request.storeName).map((c) => ({
            ...c,
            position: () => this.localView.position(c.taskId),
          }));
    return executeStateQuery(request, exists, copies);
  }

  /** Every instance of the application, from the latest assignment. */
  metadataForAllStreamsClients(): StreamsMetadata[] {
    return this.metadataState.all();
  }

  /** The instances holding `storeName` (active or standby). */
  streamsMetadataForStore(storeName: string): StreamsMetadata[] {
    return this.metadataState.forStore(storeName);
  }

  /** This instance's metadata, when it advertises `application.server`. */
  localMetadata(): StreamsMetadata | undefined {
    return this.metadataState.all().find((m) => m.processId === this.processId);
  }

  /**
   * Consumer lag of this instance's active tasks, per input partition: records fetched from
   * the broker but not processed yet are not counted as processed (position = next offset to
   * process). Asks the broker for end offsets; empty before `start()`.
   */
  async inputLags(): Promise<
    { topic: string; partition: number; position: number; endOffset: number; lag: number }[]
  > {
    return this.admin ? this.localView.inputLags(this.admin) : [];
  }

  /**
   * How far each local store copy is behind its changelog, per store and partition (Kafka
   * Streams' `allLocalStorePartitionLags`): active copies report 0 once restored; standby
   * copies report their distance to the changelog end.
   */
  async allLocalStorePartitionLags(): Promise<Map<string, Map<number, LagInfo>>> {
    return this.localView.lags(this.config.applicationId);
  }

  get state(): KafkaStreamsState {
    return this.currentState;
  }

  /** Registers a state listener; returns a function that removes it. */
  onStateChange(listener: StateListener): () => void {
    this.events.on('state', listener);
    return () => this.events.off('state', listener);
  }

  /** Sets what an uncaught processing error does; default SHUTDOWN_CLIENT. */
  setUncaughtExceptionHandler(handler: StreamsUncaughtExceptionHandler): void {
    this.exceptionHandler = handler;
  }

  /** Sets the listener of changelog restores (start, batch, end). Set before `start()`. */
  setGlobalStateRestoreListener(listener: StateRestoreListener): void {
    this.restoreListener = listener;
  }

  /** The physical name of a topology topic (internal topics get the application id prefix). */
  resolveTopic(logical: string): string {
    return this.topology.internalTopicDefs().has(logical)
      ? `${this.config.applicationId}-${logical}`
      : logical;
  }

  /**
   * Starts processing: locks the state directory, creates the internal topics (repartition
   * and changelog) with Kafka Streams' configs, and joins the group. Resolves once the client
   * joined the group's first rebalance started (state REBALANCING); RUNNING follows when the
   * assigned tasks are restored.
   */
  async start(): Promise<void> {
    if (this.currentState !== KafkaStreamsState.CREATED) {
      throw new StreamsConfigError(
        `start() can only be called once, in state CREATED (now ${this.currentState})`,
      );
    }
    this.setState(KafkaStreamsState.REBALANCING);
    try {
      // The RocksDB engine of the process, chosen (and a fallback logged) before a store opens.
      if (this.hasPersistentStores()) chooseRocksDBEngine(this.logger);
      await this.stateDirectory.lock();
      this.processId = await this.stateDirectory.processId();
      this.admin = this.kafka.admin();
      await this.admin.connect();
      await this.prepareTopics(this.admin);
      await this.refreshLocalOffsetSums();
      this.startThread();
      await this.thread!.start();
      // Removes task directories no longer assigned here after state.cleanup.delay.ms.
      this.stopCleanup = this.stateDirectory.scheduleCleanup(
        () =>
          [...(this.tasks?.taskIds() ?? []), ...(this.standbys?.taskIds() ?? [])].map((t) =>
            TaskId.parse(t),
          ),
        this.logger,
      );
    } catch (error) {
      await this.shutdown(KafkaStreamsState.PENDING_ERROR);
      throw error;
    }
  }

  private hasPersistentStores(): boolean {
    return [...this.topology.stores().values()].some(
      (builder) => (builder as { supplier?: { persistent?: boolean } }).supplier?.persistent,
    );
  }

  /** Stops processing cleanly (commit, checkpoint, leave the group). Idempotent. */
  async close(): Promise<void> {
    if (this.currentState === KafkaStreamsState.NOT_RUNNING) return;
    this.closing ??= this.shutdown(KafkaStreamsState.PENDING_SHUTDOWN);
    await this.closing;
  }

  /** Local task ids: active and standby. */
  localTaskIds(): { active: string[]; standby: string[] } {
    return { active: this.tasks?.taskIds() ?? [], standby: this.standbys?.taskIds() ?? [] };
  }

  /**
   * When the stream thread last made progress (epoch ms: a fetch completed, or fetched records
   * were processed), or `undefined` before `start()`. A RUNNING client with active tasks whose
   * thread stopped moving this for minutes is stuck: what a liveness probe should report.
   */
  lastProgressAt(): number | undefined {
    return this.thread?.lastProgressAt;
  }

  /** Processing counters summed over the client's active tasks, and the commits. */
  metrics(): ClientMetrics {
    return sumTaskMetrics(
      (this.tasks?.tasks() ?? []).map((entry) => entry.task.metrics),
      this.tasks?.commits ?? 0,
    );
  }

  /**
   * The active tasks this client runs now: id, input partitions, stores, and whether they are
   * restored (Kafka Streams' `metadataForLocalThreads().activeTasks()`). Empty before the first
   * assignment and after `close()`.
   */
  activeTaskMetadata(): TaskMetadata[] {
    return activeTaskMetadata(this.tasks?.tasks() ?? []);
  }

  /**
   * Metrics of every state store of the active tasks, one entry per store and task: operation
   * counts, rates and sampled latencies, the record cache's hit ratio, and RocksDB's memory
   * and size figures where the engine has them. Cheap enough for every metrics scrape.
   */
  storeMetrics(): LocalStoreMetrics[] {
    return localStoreMetrics(this.tasks?.tasks() ?? []);
  }

  private startThread(): void {
    const parts = createStreamThread({
      topology: this.topology,
      config: this.config,
      kafka: this.kafka,
      admin: this.admin!,
      stateDirectory: this.stateDirectory,
      cache: this.cache,
      logger: this.logger,
      resolveTopic: (t) => this.resolveTopic(t),
      partitionsFor: (topic) => this.partitionsFor(topic),
      restoreListener: () => this.restoreListener,
      subscription: () => this.subscription(),
      taskEndOffsetSums: () => this.taskEndOffsetSums(),
      listener: {
        onRebalancing: () => this.setState(KafkaStreamsState.REBALANCING),
        onAssignment: (info) => {
          this.metadataState.update(info);
          this.setState(KafkaStreamsState.REBALANCING);
        },
        onRunning: () => {
          this.unreachableSince = undefined;
          this.setState(KafkaStreamsState.RUNNING);
          void this.refreshLocalOffsetSums();
        },
        onError: (error) => void this.handleThreadError(error),
        onShutdownRequested: () => {
          this.logger.warn('an instance asked the application to shut down (SHUTDOWN_APPLICATION)');
          this.closing ??= this.shutdown(KafkaStreamsState.PENDING_ERROR);
        },
      },
    });
    this.thread = parts.thread;
    this.tasks = parts.tasks;
    this.standbys = parts.standbys;
  }

  private subscription(): SubscriptionInfo {
    const active = this.tasks?.taskIds() ?? [];
    const sums: Record<string, number> = { ...this.localOffsetSums };
    for (const standby of this.standbys?.all() ?? [])
      sums[standby.id.toString()] = standby.offsetSum();
    for (const task of active) sums[task] = LATEST_OFFSET;
    return {
      version: 1,
      processId: this.processId,
      endpoint: this.config.applicationServer,
      queryEndpoint: this.config.queryEndpoint,
      taskOffsetSums: sums,
      previousActive: active,
      shutdownRequested: this.shutdownRequested || undefined,
    };
  }

  private async refreshLocalOffsetSums(): Promise<void> {
    try {
      this.localOffsetSums = await localTaskOffsetSums(this.stateDirectory);
    } catch (error) {
      this.logger.info(`could not read local checkpoints: ${String(error)}`);
    }
  }

  private async taskEndOffsetSums(): Promise<Record<string, number>> {
    return this.admin
      ? changelogEndOffsetSums(this.admin, this.topology, this.config.applicationId)
      : {};
  }

  private storePartitionCount(storeName: string): number | undefined {
    const sub = this.topology.subtopologies().find((s) => s.stores.includes(storeName));
    if (!sub) return undefined;
    const counts = sub.sourceTopics.map(
      (t) => this.partitionsByTopic.get(this.resolveTopic(t)) ?? 0,
    );
    return Math.max(0, ...counts) || undefined;
  }

  private localStores(storeName: string): LocalStore[] {
    return this.localView.stores(storeName);
  }

  /** Applies {@link threadFailureAction} to a failed stream thread. */
  private async handleThreadError(error: Error): Promise<void> {
    const { action, unreachableSince } = threadFailureAction(error, {
      active: this.isActive(),
      unreachableSince: this.unreachableSince,
      now: Date.now(),
      taskTimeoutMs: this.config.taskTimeoutMs,
      handler: this.exceptionHandler,
    });
    this.unreachableSince = unreachableSince;
    this.logger.warn(action.reason);
    if (action.kind === 'replace') {
      await this.replaceThread(action.delayMs);
      return;
    }
    if (action.kind === 'shutdown-application') {
      // Ask every instance to stop: rejoin with the request in the subscription; the leader
      // answers every member with SHUTDOWN_APPLICATION. Stop this client anyway if that fails.
      this.shutdownRequested = true;
      try {
        await this.thread?.rejoin();
        const deadline = Date.now() + Math.max(30_000, this.config.sessionTimeoutMs);
        while (!this.closing && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      } catch (rejoinError) {
        this.logger.warn(`could not ask the application to shut down: ${String(rejoinError)}`);
      }
    }
    this.closing ??= this.shutdown(KafkaStreamsState.PENDING_ERROR);
    await this.closing;
  }

  /** Stops the failed thread (its tasks close dirty) and starts a new one after `delayMs`. */
  private async replaceThread(delayMs: number): Promise<void> {
    await this.thread?.stop();
    if (!this.isActive()) return;
    this.setState(KafkaStreamsState.REBALANCING);
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
    if (!this.isActive()) return;
    this.startThread();
    await this.thread!.start().catch((e: unknown) =>
      this.handleThreadError(e instanceof Error ? e : new Error(String(e))),
    );
  }

  private isActive(): boolean {
    return (
      this.currentState === KafkaStreamsState.RUNNING ||
      this.currentState === KafkaStreamsState.REBALANCING
    );
  }

  private async shutdown(
    pending: KafkaStreamsState.PENDING_SHUTDOWN | KafkaStreamsState.PENDING_ERROR,
  ): Promise<void> {
    this.setState(pending);
    this.stopCleanup?.();
    try {
      await this.thread?.stop();
    } finally {
      await this.admin?.disconnect().catch(() => undefined);
      await this.stateDirectory.unlock().catch(() => undefined);
      this.setState(
        pending === KafkaStreamsState.PENDING_ERROR
          ? KafkaStreamsState.ERROR
          : KafkaStreamsState.NOT_RUNNING,
      );
    }
  }

  private async prepareTopics(admin: Admin): Promise<void> {
    this.partitionsByTopic = await prepareInternalTopics(admin, this.topology, this.config, (t) =>
      this.resolveTopic(t),
    );
  }

  private partitionsFor(topic: string): number {
    const count = this.partitionsByTopic.get(topic);
    if (count === undefined) throw new MissingSourceTopicError([topic]);
    return count;
  }

  private setState(next: KafkaStreamsState): void {
    const previous = this.currentState;
    if (previous === next && next !== KafkaStreamsState.REBALANCING) return;
    if (previous === next) return;
    if (!isValidTransition(previous, next)) {
      this.logger.info(`ignoring state transition ${previous} -> ${next}`);
      return;
    }
    this.currentState = next;
    this.events.emit('state', next, previous);
  }
}
