import { EventEmitter } from 'node:events';
import { connectAdmin } from '../../../client/cluster-connection';
import type { ClusterAdmin } from '../../../client/cluster-admin';
import { createKafkaClientAdapters } from '../../../client/kafka-client';
import type { KafkaClientAdapters } from '../../../client/kafka-client-adapters';
import { checkBrokerCertificate, kafkaAuthenticationError } from '../../../client/kafka-trust';
import { MissingSourceTopicError } from '../../../errors/missing-source-topic.error';
import { StreamsConfigError } from '../../../errors/streams-config.error';
import { StreamsError } from '../../../errors/streams.error';
import type { StreamsLogger } from '../../../logging/logger';
import { TaskId } from '../../../processor/task-id';
import type { Topology } from '../../../processor/topology';
import { RecordCache } from '../../../state/internals/record-cache';
import type { ClientMetrics } from '../../client-metrics';
import {
  defaultUncaughtExceptionHandler,
  type StateListener,
  type StreamsUncaughtExceptionHandler,
} from '../../kafka-streams-options';
import { KafkaStreamsState, isValidTransition } from '../../kafka-streams-state';
import type { StateRestoreListener } from '../../state-restore-listener';
import type { ResolvedStreamsConfig } from '../../streams-config';
import type { ActiveTaskManager } from '../active-tasks/active-task-manager';
import { missingApplicationServerWarning } from '../assignment/application-server-warning';
import { ClientSubscription } from '../assignment/client-subscription';
import { lastStableAssignment } from '../assignment/last-stable-assignment';
import { changelogEndOffsetSums } from '../assignment/task-offset-sums';
import { GlobalStores } from '../global/global-stores';
import { ClientQueries } from '../queries/client-queries';
import type { StandbyTaskManager } from '../standby/standby-task-manager';
import { sumTaskMetrics } from '../task/task-metrics';
import { StateDirectory } from '../task-state/state-directory';
import { StreamsRunningError } from '../../../errors/streams-running.error';
import { keepsTasks } from '../thread/assignment-tasks';
import type { StreamThread } from '../thread/stream-thread';
import { createStreamThread } from '../thread/stream-thread-factory';
import { prepareInternalTopics } from '../topics/internal-topics';
import { heldByAnotherProcess, StartupWait, startFailureLine } from './startup-wait';
import { ThreadMetrics } from '../metrics/thread-metrics';
import { threadFailureAction } from './thread-failure-policy';

/** What a client's lifecycle is made of (what `KafkaStreams` resolved). */
export interface ClientLifecycleOptions {
  readonly topology: Topology;
  readonly config: ResolvedStreamsConfig;
  readonly logger: StreamsLogger;
  /** The physical name of a topology topic. */
  resolveTopic(logical: string): string;
}

/**
 * A Kafka Streams client's life, which `KafkaStreams` delegates to (the documentation of each
 * step is there): its state and the listeners of its changes; its start (state directory,
 * cluster, topics, the group's host map, the stream thread); its stream thread's events and
 * failures (Kafka Streams' policy, {@link threadFailureAction}: replace the thread, or stop the
 * application or this client); its shutdown. It holds the client's query surface
 * ({@link ClientQueries}), which reads its state, topics and tasks.
 */
export class ClientLifecycle {
  readonly queries: ClientQueries;
  /** What an uncaught processing error does; default `defaultUncaughtExceptionHandler`. */
  exceptionHandler: StreamsUncaughtExceptionHandler = defaultUncaughtExceptionHandler;
  /** The listener of restores (changelogs and global topics), read when a restore starts. */
  restoreListener: StateRestoreListener | undefined;
  private readonly events = new EventEmitter();
  private readonly clients: KafkaClientAdapters;
  private readonly stateDirectory: StateDirectory;
  private readonly cache: RecordCache;
  private readonly subscription: ClientSubscription;
  private currentState = KafkaStreamsState.CREATED;
  private admin: ClusterAdmin | undefined;
  private thread: StreamThread | undefined;
  /** The current thread's sensors; threads running (0 or 1) and failed (metrics). */
  private threadMetrics: ThreadMetrics | undefined;
  private readonly threadCounts = { alive: 0, failed: 0 };
  private tasks: ActiveTaskManager | undefined;
  private standbys: StandbyTaskManager | undefined;
  /** The global stores, when the topology has any. */
  private globals: GlobalStores | undefined;
  private processId = '';
  private partitionsByTopic = new Map<string, number>();
  private closing: Promise<void> | undefined;
  private shutdownRequested = false;
  private stopCleanup: (() => void) | undefined;
  private currentStartupProblem: StreamsError | undefined;
  private warnedNoApplicationServer = false;
  /** When the current run of cluster-unreachable thread failures began (task.timeout.ms). */
  private unreachableSince: number | undefined;

  constructor(private readonly options: ClientLifecycleOptions) {
    const { topology, config, logger } = options;
    this.clients = createKafkaClientAdapters(config, logger);
    this.stateDirectory = new StateDirectory({
      stateDir: config.stateDir,
      applicationId: config.applicationId,
      cleanupDelayMs: config.stateCleanupDelayMs,
    });
    this.cache = new RecordCache(config.statestoreCacheMaxBytes);
    this.queries = new ClientQueries({
      topology,
      applicationId: config.applicationId,
      state: () => this.currentState,
      resolveTopic: (t) => options.resolveTopic(t),
      partitionCount: (topic) => this.partitionsByTopic.get(topic),
      processId: () => this.processId,
      admin: () => this.admin,
      activeTasks: () => this.tasks,
      standbyTasks: () => this.standbys,
      globalStore: (name) => this.globals?.queryable(name),
      clientId: config.clientId,
      metricsRecordingLevel: config.metricsRecordingLevel,
      threadMetrics: () => this.threadMetrics,
      threadCounts: () => this.threadCounts,
      applicationServer: config.applicationServer,
    });
    this.subscription = new ClientSubscription({
      stateDirectory: this.stateDirectory,
      logger,
      applicationServer: config.applicationServer,
      queryEndpoint: config.queryEndpoint,
      processId: () => this.processId,
      activeTaskIds: () => this.tasks?.taskIds() ?? [],
      standbys: () => this.standbys?.all() ?? [],
      shutdownRequested: () => this.shutdownRequested,
    });
  }

  get state(): KafkaStreamsState {
    return this.currentState;
  }

  onStateChange(listener: StateListener): () => void {
    this.events.on('state', listener);
    return () => this.events.off('state', listener);
  }

  async start(): Promise<void> {
    const { topology, config, logger } = this.options;
    if (this.currentState !== KafkaStreamsState.CREATED) {
      throw new StreamsConfigError(
        `start() can only be called once, in state CREATED (now ${this.currentState})`,
      );
    }
    this.setState(KafkaStreamsState.REBALANCING);
    const waits = {
      taskTimeoutMs: config.taskTimeoutMs,
      logger,
      onProblem: (problem?: StreamsError) => (this.currentStartupProblem = problem),
      stopped: () => this.closing !== undefined,
    };
    const wait = new StartupWait(waits);
    try {
      await wait.retry(() => this.stateDirectory.lock(), heldByAnotherProcess);
      this.processId = await this.stateDirectory.processId();
      await checkBrokerCertificate(config);
      this.admin = this.clients.clusterAdmin();
      await connectAdmin(this.admin, { ...waits, brokers: config.bootstrapServers });
      this.partitionsByTopic = await wait.retry(
        () =>
          prepareInternalTopics(this.admin!, topology, config, (t) => this.options.resolveTopic(t)),
        (error) => error instanceof MissingSourceTopicError,
      );
      await this.subscription.refreshLocalOffsetSums();
      // Route queries by the group's current host map until this client's own first assignment.
      this.queries.borrow(await lastStableAssignment(this.admin, config, logger));
      // Global stores restored before the stream thread: the client is RUNNING with them whole.
      this.globals = GlobalStores.of({
        ...this.options,
        clients: this.clients,
        admin: this.admin,
        cache: this.cache,
        onError: () => (this.closing ??= this.shutdown(KafkaStreamsState.PENDING_ERROR)),
        restoreListener: () => this.restoreListener,
      });
      await this.globals?.start();
      this.startThread();
      await this.thread!.start();
      // Removes task directories no longer assigned here after state.cleanup.delay.ms.
      this.stopCleanup = this.stateDirectory.scheduleCleanup(
        () =>
          [...(this.tasks?.taskIds() ?? []), ...(this.standbys?.taskIds() ?? [])].map((t) =>
            TaskId.parse(t),
          ),
        logger,
      );
    } catch (error) {
      // Refused credentials or an untrusted broker certificate: one typed error, logged and
      // thrown (the connection's own BrokerAuthenticationError is its cause).
      const failure = kafkaAuthenticationError(error, config) ?? error;
      this.currentStartupProblem =
        !this.closing && failure instanceof StreamsError ? failure : undefined;
      if (this.closing) {
        logger.debug(`start() ended by close(): ${startFailureLine(failure)}`);
        throw failure;
      }
      logger.error(`could not start: ${startFailureLine(failure)}`);
      await this.shutdown(KafkaStreamsState.PENDING_ERROR);
      throw failure;
    }
  }

  get startupProblem(): StreamsError | undefined {
    return this.currentStartupProblem;
  }

  /**
   * Deletes this application's local state (every task directory) before `start()` or after
   * `close()`; the next start restores the stores from their changelogs.
   *
   * @throws StreamsRunningError while the client is started; StateDirectoryLockedError when
   *   another instance holds the state directory.
   */
  async cleanUp(): Promise<void> {
    const state = this.currentState;
    if (
      state !== KafkaStreamsState.CREATED &&
      state !== KafkaStreamsState.NOT_RUNNING &&
      state !== KafkaStreamsState.ERROR
    ) {
      throw new StreamsRunningError('cleanUp()', state);
    }
    await this.stateDirectory.cleanUp();
  }

  async close(): Promise<void> {
    if (this.currentState === KafkaStreamsState.NOT_RUNNING) return;
    this.closing ??= this.shutdown(KafkaStreamsState.PENDING_SHUTDOWN);
    await this.closing;
  }

  lastProgressAt(): number | undefined {
    return this.thread?.lastProgressAt;
  }

  metrics(): ClientMetrics {
    return sumTaskMetrics(
      (this.tasks?.tasks() ?? []).map((entry) => entry.task.metrics),
      this.tasks?.commits ?? 0,
      this.tasks?.commitTimeMs ?? 0,
    );
  }

  private startThread(): void {
    const { topology, config, logger } = this.options;
    // Kafka Streams' thread name; a replacement takes its predecessor's (REPLACE_THREAD).
    this.threadMetrics = new ThreadMetrics(`${config.clientId}-StreamThread-1`, Date.now());
    this.threadCounts.alive = 1;
    const parts = createStreamThread({
      threadMetrics: this.threadMetrics,
      topology,
      config: this.globals?.taskConfig(config) ?? config,
      clients: this.clients,
      admin: this.admin!,
      stateDirectory: this.stateDirectory,
      cache: this.cache,
      logger,
      processId: () => this.processId,
      resolveTopic: (t) => this.options.resolveTopic(t),
      partitionsFor: (topic) => this.partitionsFor(topic),
      restoreListener: () => this.restoreListener,
      subscription: () => this.subscription.info(),
      taskEndOffsetSums: () => this.taskEndOffsetSums(),
      listener: {
        onRebalancing: () => this.setState(KafkaStreamsState.REBALANCING),
        onAssignment: (info) => {
          this.queries.update(info);
          const warning = missingApplicationServerWarning(
            info.hosts.length,
            config.applicationId,
            config.applicationServer,
          );
          if (warning && !this.warnedNoApplicationServer) logger.warn(warning);
          this.warnedNoApplicationServer ||= warning !== undefined;
          // A new host map for the tasks it runs (streams protocol) is no rebalance.
          const kept = this.state === 'RUNNING' && keepsTasks(info, this.queries.localTaskIds());
          if (!kept) this.setState(KafkaStreamsState.REBALANCING);
          this.queries.assignedWarmups(info.warmup);
        },
        onRunning: () => {
          this.unreachableSince = undefined;
          this.setState(KafkaStreamsState.RUNNING);
          void this.subscription.refreshLocalOffsetSums();
        },
        onError: (error) => void this.handleThreadError(error),
        onShutdownRequested: () => {
          logger.warn('an instance asked the application to shut down (SHUTDOWN_APPLICATION)');
          this.closing ??= this.shutdown(KafkaStreamsState.PENDING_ERROR);
        },
      },
    });
    this.thread = parts.thread;
    this.tasks = parts.tasks;
    this.standbys = parts.standbys;
  }

  private async taskEndOffsetSums(): Promise<Record<string, number>> {
    const { topology, config } = this.options;
    return this.admin ? changelogEndOffsetSums(this.admin, topology, config.applicationId) : {};
  }

  /** Applies {@link threadFailureAction} to a failed stream thread. */
  private async handleThreadError(failure: Error): Promise<void> {
    const { config, logger } = this.options;
    this.threadCounts.alive = 0;
    this.threadCounts.failed++;
    // Credentials revoked or a broker certificate replaced while running: a typed error.
    const error = kafkaAuthenticationError(failure, config) ?? failure;
    const { action, unreachableSince } = threadFailureAction(error, {
      active: this.isActive(),
      unreachableSince: this.unreachableSince,
      now: Date.now(),
      taskTimeoutMs: config.taskTimeoutMs,
      handler: this.exceptionHandler,
    });
    this.unreachableSince = unreachableSince;
    logger.warn(action.reason);
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
        const deadline = Date.now() + Math.max(30_000, config.sessionTimeoutMs);
        while (!this.closing && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      } catch (rejoinError) {
        logger.warn(`could not ask the application to shut down: ${String(rejoinError)}`);
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
    this.threadCounts.alive = 0;
    this.stopCleanup?.();
    try {
      await this.thread?.stop();
    } finally {
      await this.globals?.stop();
      await this.admin?.disconnect().catch(() => undefined);
      await this.stateDirectory.unlock().catch(() => undefined);
      this.setState(
        pending === KafkaStreamsState.PENDING_ERROR
          ? KafkaStreamsState.ERROR
          : KafkaStreamsState.NOT_RUNNING,
      );
    }
  }

  private partitionsFor(topic: string): number {
    const count = this.partitionsByTopic.get(topic);
    if (count === undefined) throw new MissingSourceTopicError([topic]);
    return count;
  }

  private setState(next: KafkaStreamsState): void {
    const previous = this.currentState;
    if (previous === next) return;
    if (!isValidTransition(previous, next)) {
      this.options.logger.debug(`ignoring state transition ${previous} -> ${next}`);
      return;
    }
    this.currentState = next;
    this.events.emit('state', next, previous);
  }
}
