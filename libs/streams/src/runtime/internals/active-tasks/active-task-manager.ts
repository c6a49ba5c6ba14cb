import type { ClusterAdmin } from '../../../client/cluster-admin';
import type { GroupConsumer } from '../../../client/group-consumer';
import { TaskId } from '../../../processor/task-id';
import type { Topology } from '../../../processor/topology';
import type { RecordCache } from '../../../state/internals/record-cache';
import type { RecordProducerFactory } from '../../../client/record-producer';
import type { StateDirectory } from '../task-state/state-directory';
import type { StateLogger } from '../../../logging/logger';
import type { StateRestoreListener } from '../../state-restore-listener';
import type { StateRestorer } from '../restore/state-restorer';
import { StreamTask } from '../task/stream-task';
import type { TaskTopics } from '../task/task-topics';
import type { ResolvedStreamsConfig } from '../../streams-config';
import { TaskStateManager } from '../task-state/task-state-manager';
import { commitTasks } from '../commit/commit-protocol';
import { TaskProducers } from '../commit/task-producers';
import { TaskEngines } from '../../../state/internals/task-engines';
import { TaskCreations } from './task-creations';
import type { ActiveTaskEntry } from './active-task-entry';
import { TaskRestoreMetrics } from '../metrics/task-restore-metrics';
import type { ThreadMetrics } from '../metrics/thread-metrics';

/** What the task manager needs from the client that hosts it. */
export interface ActiveTaskManagerOptions extends TaskTopics {
  readonly topology: Topology;
  readonly config: ResolvedStreamsConfig;
  /** Creates the shared idempotent producer and the tasks' transactional producers. */
  readonly producers: RecordProducerFactory;
  /**
   * The transactional id of the thread's producer under exactly-once with KIP-447
   * (`<applicationId>-<processId>-<thread>`), read when the thread starts.
   */
  threadTransactionalId(): string;
  /** Reads committed offsets when a task is created (see {@link ActiveTaskManager.create}). */
  readonly admin: ClusterAdmin;
  readonly stateDirectory: StateDirectory;
  readonly restorer: StateRestorer;
  readonly cache: RecordCache;
  readonly logger: StateLogger;
  restoreListener(): StateRestoreListener | undefined;
  /** The sensors of the thread it belongs to (commits, tasks created and closed). */
  readonly threadMetrics?: ThreadMetrics;
}

/**
 * Creates, restores, commits and closes the active tasks of one stream thread. The tasks write
 * through the thread's {@link TaskProducers} (which producers, under which guarantee), and
 * commit by the commit protocol (`commit-protocol.ts`: what is flushed, checkpointed and
 * committed in which order, and when a write is durable).
 */
export class ActiveTaskManager {
  private readonly entries = new Map<string, ActiveTaskEntry>();
  private readonly producers: TaskProducers;
  /** Tasks the latest eager assignment took away, still open (see suspendQueries). */
  private givenUp = new Set<string>();
  private membershipInDoubt = false;
  private readonly creations = new TaskCreations();
  /** Commits completed (a commit of several tasks counts once). */
  commits = 0;
  /** Time the completed commits took, in ms (Kafka Streams' commit latency, summed). */
  commitTimeMs = 0;

  constructor(private readonly options: ActiveTaskManagerOptions) {
    this.producers = new TaskProducers(options);
  }

  get exactlyOnce(): boolean {
    return this.producers.exactlyOnce;
  }

  /** The tasks in task order (sub-topology, then partition), however they were created. */
  tasks(): ActiveTaskEntry[] {
    return [...this.entries.values()].sort((a, b) => a.task.id.compareTo(b.task.id));
  }

  taskIds(): string[] {
    return this.tasks().map((e) => e.task.id.toString());
  }

  get(taskId: string): ActiveTaskEntry | undefined {
    return this.entries.get(taskId);
  }

  /**
   * Eager rebalancing: the latest assignment took `taskIds` away (those of an earlier one that
   * it gives back answer again). They stay open until the assignment is applied (their work
   * committed, then closed), but their new owner may process them from now on: queries read
   * them no more (a retriable error, or a standby copy), never a copy another instance has
   * moved past. Closing a task ends its suspension.
   */
  suspendQueries(taskIds: readonly string[]): void {
    this.givenUp = new Set(taskIds.filter((id) => this.entries.has(id)));
  }

  /**
   * The member's group has not answered it for longer than the session timeout (`true`), or has
   * again (`false`): it may have been dropped and its tasks given to others without knowing it
   * yet, so while in doubt no task is read as an active copy (see {@link answersQueries}).
   */
  setMembershipInDoubt(inDoubt: boolean): void {
    this.membershipInDoubt = inDoubt;
  }

  /**
   * Whether queries may read task `taskId` as an active copy: not one the latest eager
   * assignment took away ({@link suspendQueries}), nor any while the membership is in doubt.
   */
  answersQueries(taskId: string): boolean {
    return !this.membershipInDoubt && !this.givenUp.has(taskId);
  }

  /** Whether the tasks share one transaction per thread (exactly-once with KIP-447). */
  get transactionPerThread(): boolean {
    return this.producers.transactionPerThread;
  }

  /** Connects the thread's shared producer (see {@link TaskProducers.start}). */
  start(): Promise<void> {
    return this.producers.start();
  }

  /** Replaces the thread's producer (see {@link TaskProducers.resetThreadProducer}). */
  resetThreadProducer(): Promise<void> {
    return this.producers.resetThreadProducer();
  }

  /**
   * Creates a task: opens its stores, loads its checkpoint, restores from the changelogs and
   * initializes its processors. Throws what the state manager or restorer throws; the caller
   * closes the task dirty and retries on the next assignment. {@link cancelCreations} stops it:
   * the task then closes, its checkpoint holding what the restore wrote, and the creation rejects
   * with a TaskCreationCancelledError (not a failure).
   */
  create(taskIdText: string): Promise<ActiveTaskEntry> {
    return this.creations.run(
      taskIdText,
      (signal) => this.open(taskIdText, signal),
      async () => {
        const entry = this.entries.get(taskIdText);
        // Opened before the cancellation reached it: it processed nothing, an ordinary close.
        if (entry?.restored) return this.close(taskIdText, true);
        // What the restore wrote is kept: a later creation of the task here reads the rest.
        await entry?.stateManager
          .checkpointRestoreProgress()
          .catch((e: unknown) => this.options.logger.warn(`task ${taskIdText}: ${String(e)}`));
        await this.close(taskIdText, false);
      },
    );
  }

  /** Cancels the running creations of tasks not in `keep`, and waits for them (see create). */
  cancelCreations(keep: ReadonlySet<string> = new Set()): Promise<void> {
    return this.creations.cancel(this.creations.taskIds().filter((id) => !keep.has(id)));
  }

  /** Task `taskId`'s creation while it runs (an assignment keeping the task waits for it). */
  creationOf(taskId: string): Promise<unknown> | undefined {
    return this.creations.pending(taskId);
  }

  private async open(taskIdText: string, signal: AbortSignal): Promise<ActiveTaskEntry> {
    const {
      topology,
      config,
      stateDirectory,
      restorer,
      cache,
      resolveTopic,
      partitionsFor,
      logger,
    } = this.options;
    const taskId = TaskId.parse(taskIdText);
    if (this.options.threadMetrics) this.options.threadMetrics.tasksCreated++;
    const subtopology = topology.subtopology(taskId.subtopologyId);
    const { collector, eosProducer } = await this.producers.forTask(taskIdText);
    const engines = new TaskEngines(
      config.statestoreUncommittedMaxBytes,
      config.rocksDBMemory.writeBehind,
    );
    const task = new StreamTask({
      id: taskId,
      topology,
      subtopology,
      config: engines.attachTo(config),
      taskDir: await stateDirectory.taskDir(taskId),
      recordCollector: collector,
      cache,
      resolveTopic,
      partitionsFor,
      log: (m) => logger.warn(m),
      threadMetrics: this.options.threadMetrics,
    });
    const registrations = await task.initializeStores();
    const stateManager = new TaskStateManager({
      taskId,
      stateDirectory,
      registrations,
      recordCollector: collector,
      exactlyOnce: this.exactlyOnce,
      engines,
      logger,
    });
    const entry: ActiveTaskEntry = {
      task,
      stateManager,
      collector,
      eosProducer,
      engines,
      partitions: subtopology.sourceTopics.map((t) => ({
        topic: resolveTopic(t),
        partition: taskId.partition,
      })),
      restored: false,
      restoreMetrics: new TaskRestoreMetrics(),
    };
    this.entries.set(taskIdText, entry);
    const inputTopics = [...new Set(subtopology.sourceTopics.map((t) => resolveTopic(t)))];
    // One transaction per thread: the previous owner is not fenced by a producer of the task's
    // id, so wait for a transaction of it that holds this task's offsets (KIP-447's stable
    // read) before the restore: once it ended, its changelog records are committed or aborted
    // (the restore then reads them or skips them), and its offsets match.
    const stable = this.producers.transactionPerThread
      ? await this.options.admin.fetchCommittedOffsets(config.applicationId, inputTopics, {
          requireStable: true,
        })
      : undefined;
    await stateManager.initialize();
    const listener = entry.restoreMetrics!.listener(this.options.restoreListener());
    await stateManager.restore(restorer, { listener, signal });
    signal.throwIfAborted();
    // One transaction per task: the group consumer may have read the committed offsets before
    // the previous owner's transaction completed (kafkajs has no require_stable). Now that this
    // task's producer fenced it (and the restore read its committed changelog), read them
    // again. Either way, records below them are already in the restored state: skipped.
    const committed =
      stable ?? (await this.options.admin.fetchCommittedOffsets(config.applicationId, inputTopics));
    task.seedInputPositions(committed.filter((c) => c.partition === taskId.partition));
    task.initializeTopology();
    // From now on (not during the restore), store writes wait for their transaction.
    if (this.exactlyOnce) await engines.startTransactions();
    entry.restored = true;
    return entry;
  }

  /**
   * Commits every task that processed something (or all, with `force`), by the commit protocol
   * (`commitTasks`). Returns how many it committed.
   *
   * @throws the producer's or the consumer's errors (a refused offset commit is a
   *   CommitFailedError): under exactly-once the caller closes the tasks dirty (a
   *   CommitFailedError or a ProducerFencedError: they migrated; rejoin), and retries the
   *   commit under at-least-once.
   */
  async commit(
    consumer: Pick<GroupConsumer, 'commitOffsets' | 'groupMetadata'>,
    force = false,
  ): Promise<number> {
    const due = this.tasks().filter((e) => e.restored && (force || e.task.commitNeeded()));
    if (due.length === 0) return 0;
    const started = performance.now();
    await commitTasks(due, this.producers, () => this.tasks().filter((e) => e.restored), consumer);
    const elapsedMs = performance.now() - started;
    this.commits++;
    this.commitTimeMs += elapsedMs;
    this.options.threadMetrics?.commit.record(elapsedMs);
    return due.length;
  }

  /**
   * Closes a task. Clean: flush, then checkpoint (the caller committed its offsets first).
   * Dirty: no flush, no checkpoint; under exactly-once its transaction is aborted and its
   * uncommitted writes dropped (the state keeps what committed transactions wrote, so the next
   * owner restores the tail after its checkpoint; stores of its own suppliers are wiped). A task
   * still restoring keeps its state and checkpoint either way (it processed nothing).
   */
  async close(taskIdText: string, clean: boolean): Promise<void> {
    const entry = this.entries.get(taskIdText);
    this.givenUp.delete(taskIdText);
    if (!entry) return;
    this.entries.delete(taskIdText);
    if (this.options.threadMetrics) this.options.threadMetrics.tasksClosed++;
    try {
      await entry.task.close(clean);
      if (clean) await entry.collector.flush();
    } catch (error) {
      if (clean) {
        this.options.logger.warn(
          `task ${taskIdText}: clean close failed (${String(error)}); closing dirty`,
        );
        clean = false;
      }
    }
    if (!clean) await entry.eosProducer?.abort();
    // The thread's transaction holds the other tasks' uncommitted work too: when aborting it
    // dropped some, those tasks close dirty as well (Kafka Streams revives every task of an
    // exactly-once-v2 thread when one is corrupted); an assignment creates them again.
    // (A task not yet restored has written nothing in it.)
    const aborted = !clean && entry.restored && (await this.producers.abortThreadTransaction());
    await entry.stateManager.close(entry.restored ? clean : 'restoring').catch((error: unknown) => {
      this.options.logger.warn(`task ${taskIdText}: ${String(error)}`);
    });
    await entry.eosProducer?.disconnect().catch(() => undefined);
    if (aborted) {
      const others = this.taskIds();
      if (others.length > 0) {
        this.options.logger.warn(
          `task ${taskIdText} closed dirty: the thread's transaction was aborted, so tasks ${others.join(', ')} close dirty too`,
        );
      }
      for (const id of others) await this.close(id, false);
      // Sends of the aborted transaction (and their errors) stay behind with the old collector.
      this.producers.dropAbortedSends();
    }
  }

  /** Closes every task and the shared producer. */
  async closeAll(clean: boolean): Promise<void> {
    for (const id of this.taskIds()) await this.close(id, clean);
    await this.producers.close(clean);
  }
}
