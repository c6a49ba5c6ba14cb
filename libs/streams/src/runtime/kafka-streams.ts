import { EventEmitter } from 'node:events';
import { MissingSourceTopicError } from '../errors/missing-source-topic.error';
import { StreamsError } from '../errors/streams.error';
import { connectAdmin } from '../client/cluster-connection';
import type { ClusterAdmin } from '../client/cluster-admin';
import { createKafkaClientAdapters } from '../client/kafka-client';
import type { KafkaClientAdapters } from '../client/kafka-client-adapters';
import { missingApplicationServerWarning } from './internals/application-server-warning';
import { StreamsConfigError } from '../errors/streams-config.error';
import type { Topology } from '../processor/topology';
import { RecordCache } from '../state/internals/record-cache';
import type { ActiveTaskManager } from './internals/active-task-manager';
import {
  KafkaStreamsState,
  StreamThreadExceptionResponse,
  isValidTransition,
} from './kafka-streams-state';
import { StateDirectory } from './internals/state-directory';
import { heldByAnotherProcess, StartupWait, startFailureLine } from './internals/startup-wait';
import { completeStreamsLogger, consoleStreamsLogger, type StreamsLogger } from '../logging/logger';
import type { StateRestoreListener } from './state-restore-listener';
import type { StreamThread } from './internals/stream-thread';
import type { StandbyTaskManager } from './internals/standby-task-manager';
import { createStreamThread } from './internals/stream-thread-factory';
import { threadFailureAction } from './internals/thread-failure-policy';
import { TaskId } from '../processor/task-id';
import { ClientQueries } from './internals/client-queries';
import { KafkaStreamsQueries } from './kafka-streams-queries';
import {
  resolveStreamsConfig,
  type ResolvedStreamsConfig,
  type StreamsConfig,
} from './streams-config';
import { prepareInternalTopics } from './internals/internal-topics';
import { LocalTaskView } from './internals/local-task-view';
import { lastStableAssignment } from './internals/last-stable-assignment';
import { keepsTasks } from './internals/assignment-tasks';
import { sumTaskMetrics } from './internals/task-metrics';
import type { ClientMetrics } from './client-metrics';
import { changelogEndOffsetSums } from './internals/task-offset-sums';
import { ClientSubscription } from './internals/client-subscription';
import { checkBrokerCertificate, kafkaAuthenticationError } from '../client/kafka-trust';
import type {
  KafkaStreamsOptions,
  StateListener,
  StreamsUncaughtExceptionHandler,
} from './kafka-streams-options';

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
export class KafkaStreams extends KafkaStreamsQueries {
  readonly config: ResolvedStreamsConfig;
  private readonly events = new EventEmitter();
  private readonly logger: StreamsLogger;
  private readonly clients: KafkaClientAdapters;
  private readonly stateDirectory: StateDirectory;
  private readonly cache: RecordCache;
  private currentState = KafkaStreamsState.CREATED;
  protected admin: ClusterAdmin | undefined;
  private thread: StreamThread | undefined;
  private tasks: ActiveTaskManager | undefined;
  private standbys: StandbyTaskManager | undefined;
  protected readonly queries: ClientQueries;
  private readonly subscription: ClientSubscription;
  protected processId = '';
  private partitionsByTopic = new Map<string, number>();
  private exceptionHandler: StreamsUncaughtExceptionHandler = () =>
    StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
  private restoreListener: StateRestoreListener | undefined;
  private closing: Promise<void> | undefined;
  private shutdownRequested = false;
  private stopCleanup: (() => void) | undefined;
  private currentStartupProblem: StreamsError | undefined;
  private warnedNoApplicationServer = false;
  /** When the current run of cluster-unreachable thread failures began (task.timeout.ms). */
  private unreachableSince: number | undefined;
  protected readonly localView = new LocalTaskView(
    () => this.tasks,
    () => this.standbys,
  );

  constructor(
    readonly topology: Topology,
    config: StreamsConfig,
    options: KafkaStreamsOptions = {},
  ) {
    super();
    this.config = resolveStreamsConfig(config);
    this.logger = options.logger ? completeStreamsLogger(options.logger) : consoleStreamsLogger;
    topology.subtopologies();
    this.clients = createKafkaClientAdapters(this.config, this.logger);
    this.stateDirectory = new StateDirectory({
      stateDir: this.config.stateDir,
      applicationId: this.config.applicationId,
      cleanupDelayMs: this.config.stateCleanupDelayMs,
    });
    this.cache = new RecordCache(this.config.statestoreCacheMaxBytes);
    this.queries = new ClientQueries({
      topology,
      localView: this.localView,
      state: () => this.currentState,
      resolveTopic: (t) => this.resolveTopic(t),
      partitionCount: (topic) => this.partitionsByTopic.get(topic),
    });
    this.subscription = new ClientSubscription({
      stateDirectory: this.stateDirectory,
      logger: this.logger,
      applicationServer: this.config.applicationServer,
      queryEndpoint: this.config.queryEndpoint,
      processId: () => this.processId,
      activeTaskIds: () => this.tasks?.taskIds() ?? [],
      standbys: () => this.standbys?.all() ?? [],
      shutdownRequested: () => this.shutdownRequested,
    });
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
    if (this.currentState !== KafkaStreamsState.CREATED) {
      throw new StreamsConfigError(
        `start() can only be called once, in state CREATED (now ${this.currentState})`,
      );
    }
    this.setState(KafkaStreamsState.REBALANCING);
    const waits = {
      taskTimeoutMs: this.config.taskTimeoutMs,
      logger: this.logger,
      onProblem: (problem?: StreamsError) => (this.currentStartupProblem = problem),
      stopped: () => this.closing !== undefined,
    };
    const wait = new StartupWait(waits);
    try {
      await wait.retry(() => this.stateDirectory.lock(), heldByAnotherProcess);
      this.processId = await this.stateDirectory.processId();
      await checkBrokerCertificate(this.config);
      this.admin = this.clients.clusterAdmin();
      await connectAdmin(this.admin, { ...waits, brokers: this.config.bootstrapServers });
      this.partitionsByTopic = await wait.retry(
        () =>
          prepareInternalTopics(this.admin!, this.topology, this.config, (t) =>
            this.resolveTopic(t),
          ),
        (error) => error instanceof MissingSourceTopicError,
      );
      await this.subscription.refreshLocalOffsetSums();
      // Route queries by the group's current host map until this client's own first assignment.
      this.queries.borrow(await lastStableAssignment(this.admin, this.config, this.logger));
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
      // Refused credentials or an untrusted broker certificate: one typed error, logged and
      // thrown (the connection's own BrokerAuthenticationError is its cause).
      const failure = kafkaAuthenticationError(error, this.config) ?? error;
      this.currentStartupProblem =
        !this.closing && failure instanceof StreamsError ? failure : undefined;
      if (this.closing) {
        this.logger.debug(`start() ended by close(): ${startFailureLine(failure)}`);
        throw failure;
      }
      this.logger.error(`could not start: ${startFailureLine(failure)}`);
      await this.shutdown(KafkaStreamsState.PENDING_ERROR);
      throw failure;
    }
  }

  /**
   * While `start()` waits on a cause that may resolve itself, that cause (e.g. a
   * `BrokersUnreachableError` naming the brokers); after a failed start (ERROR), the error that
   * failed it; otherwise `undefined`. What a readiness probe reports while the client starts.
   */
  get startupProblem(): StreamsError | undefined {
    return this.currentStartupProblem;
  }

  /** Stops processing cleanly (commit, checkpoint, leave the group). Idempotent. */
  async close(): Promise<void> {
    if (this.currentState === KafkaStreamsState.NOT_RUNNING) return;
    this.closing ??= this.shutdown(KafkaStreamsState.PENDING_SHUTDOWN);
    await this.closing;
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
      this.tasks?.commitTimeMs ?? 0,
    );
  }

  private startThread(): void {
    const parts = createStreamThread({
      topology: this.topology,
      config: this.config,
      clients: this.clients,
      admin: this.admin!,
      stateDirectory: this.stateDirectory,
      cache: this.cache,
      logger: this.logger,
      processId: () => this.processId,
      resolveTopic: (t) => this.resolveTopic(t),
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
            this.config.applicationId,
            this.config.applicationServer,
          );
          if (warning && !this.warnedNoApplicationServer) this.logger.warn(warning);
          this.warnedNoApplicationServer ||= warning !== undefined;
          // A new host map for the tasks it runs (streams protocol) is no rebalance.
          const kept = this.state === 'RUNNING' && keepsTasks(info, this.localView.taskIds());
          if (!kept) this.setState(KafkaStreamsState.REBALANCING);
          this.localView.assigned(info.warmup);
        },
        onRunning: () => {
          this.unreachableSince = undefined;
          this.setState(KafkaStreamsState.RUNNING);
          void this.subscription.refreshLocalOffsetSums();
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

  private async taskEndOffsetSums(): Promise<Record<string, number>> {
    return this.admin
      ? changelogEndOffsetSums(this.admin, this.topology, this.config.applicationId)
      : {};
  }

  /** Applies {@link threadFailureAction} to a failed stream thread. */
  private async handleThreadError(failure: Error): Promise<void> {
    // Credentials revoked or a broker certificate replaced while running: a typed error.
    const error = kafkaAuthenticationError(failure, this.config) ?? failure;
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

  private partitionsFor(topic: string): number {
    const count = this.partitionsByTopic.get(topic);
    if (count === undefined) throw new MissingSourceTopicError([topic]);
    return count;
  }

  private setState(next: KafkaStreamsState): void {
    const previous = this.currentState;
    if (previous === next) return;
    if (!isValidTransition(previous, next)) {
      this.logger.debug(`ignoring state transition ${previous} -> ${next}`);
      return;
    }
    this.currentState = next;
    this.events.emit('state', next, previous);
  }
}
