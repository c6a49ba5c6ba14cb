import type { ClusterAdmin } from './cluster-admin';
import type { GroupConsumer } from './group-consumer';
import { KafkaRecordCollector } from '../../processor/internals/kafka-record-collector';
import type { RecordCollector } from '../../processor/internals/record-collector';
import { TaskId } from '../../processor/task-id';
import type { Topology } from '../../processor/topology';
import type { RecordCache } from '../../state/internals/record-cache';
import { EosTaskProducer } from './eos-task-producer';
import type { RecordProducer, RecordProducerFactory } from './record-producer';
import type { StateDirectory } from './state-directory';
import type { StateLogger } from '../state-logger';
import type { StateRestoreListener } from '../state-restore-listener';
import type { StateRestorer } from './state-restorer';
import { StreamTask } from './stream-task';
import type { ResolvedStreamsConfig } from '../streams-config';
import { TaskStateManager } from './task-state-manager';
import { commitPhase } from './commit-phases';
import { TaskEngines } from '../../state/internals/task-engines';

/** The coordinator's timeout of a task's open transaction (kept from the kafkajs producer's). */
const EOS_TRANSACTION_TIMEOUT_MS = 60_000;

/** One running active task and what it owns. */
export interface ActiveTaskEntry {
  readonly task: StreamTask;
  readonly stateManager: TaskStateManager;
  readonly collector: RecordCollector;
  readonly eosProducer?: EosTaskProducer;
  /**
   * The task's persistent engines (its stores find them in their configs): flushed before
   * checkpoints and, under exactly-once, committed with the task's transactions.
   */
  readonly engines: TaskEngines;
  /** Input partitions of the task (physical topics). */
  readonly partitions: readonly { topic: string; partition: number }[];
  restored: boolean;
}

/** What the task manager needs from the client that hosts it. */
export interface ActiveTaskManagerOptions {
  readonly topology: Topology;
  readonly config: ResolvedStreamsConfig;
  /** Creates the shared idempotent producer and the tasks' transactional producers. */
  readonly producers: RecordProducerFactory;
  /** Reads committed offsets when a task is created (see {@link ActiveTaskManager.create}). */
  readonly admin: ClusterAdmin;
  readonly stateDirectory: StateDirectory;
  readonly restorer: StateRestorer;
  readonly cache: RecordCache;
  readonly resolveTopic: (logical: string) => string;
  readonly partitionsFor: (topic: string) => number;
  readonly logger: StateLogger;
  restoreListener(): StateRestoreListener | undefined;
}

/**
 * Creates, restores, commits and closes the active tasks of one stream thread, following
 * Kafka Streams' commit order: flush caches, flush the producer (every changelog and output
 * record acknowledged), write checkpoints when due (the engines' memtables flushed first),
 * then commit input offsets — or, under exactly-once, commit output, changelog records and
 * offsets in one transaction per task, and only then write the transaction's store writes to
 * RocksDB (they waited in the engines' pending batches), so that RocksDB only ever holds
 * committed state and a crash costs only the tail after the last checkpoint.
 */
export class ActiveTaskManager {
  private readonly entries = new Map<string, ActiveTaskEntry>();
  private sharedProducer: RecordProducer | undefined;
  private sharedCollector: KafkaRecordCollector | undefined;
  /** Commits completed (a commit of several tasks counts once). */
  commits = 0;
  /** Time the completed commits took, in ms (Kafka Streams' commit latency, summed). */
  commitTimeMs = 0;

  constructor(private readonly options: ActiveTaskManagerOptions) {}

  get exactlyOnce(): boolean {
    return this.options.config.processingGuarantee === 'exactly_once_v2';
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

  /** Connects the shared (at-least-once) producer. */
  async start(): Promise<void> {
    if (this.exactlyOnce) return;
    this.sharedProducer = this.options.producers.idempotent();
    await this.sharedProducer.connect();
    this.sharedCollector = new KafkaRecordCollector({ sender: this.sharedProducer });
  }

  /**
   * Creates a task: opens its stores, loads its checkpoint, restores from the changelogs and
   * initializes its processors. Throws what the state manager or restorer throws; the caller
   * closes the task dirty and retries on the next assignment.
   */
  async create(taskIdText: string): Promise<ActiveTaskEntry> {
    const {
      topology,
      config,
      producers,
      stateDirectory,
      restorer,
      cache,
      resolveTopic,
      partitionsFor,
      logger,
    } = this.options;
    const taskId = TaskId.parse(taskIdText);
    const subtopology = topology.subtopologies()[taskId.subtopologyId];
    let eosProducer: EosTaskProducer | undefined;
    let collector: RecordCollector;
    if (this.exactlyOnce) {
      eosProducer = new EosTaskProducer(
        producers.transactional(
          `${config.applicationId}-${taskIdText}`,
          EOS_TRANSACTION_TIMEOUT_MS,
        ),
      );
      await eosProducer.connect();
      collector = new KafkaRecordCollector({ sender: eosProducer });
    } else {
      collector = this.sharedCollector!;
    }
    const engines = new TaskEngines(config.statestoreUncommittedMaxBytes);
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
    };
    this.entries.set(taskIdText, entry);
    await stateManager.initialize();
    await stateManager.restore(restorer, { listener: this.options.restoreListener() });
    // kafkajs fetches committed offsets without KIP-447's require_stable, possibly before the
    // previous owner's transaction completed. Now that this task's producer fenced it (and the
    // restore read its committed changelog), read the committed offsets again: records below
    // them are already in the restored state and are skipped.
    const committed = await this.options.admin.fetchCommittedOffsets(config.applicationId, [
      ...new Set(subtopology.sourceTopics.map((t) => resolveTopic(t))),
    ]);
    task.seedInputPositions(committed.filter((c) => c.partition === taskId.partition));
    task.initializeTopology();
    // From now on (not during the restore), store writes wait for their transaction.
    if (this.exactlyOnce) engines.startTransactions();
    entry.restored = true;
    return entry;
  }

  /**
   * Commits every task that processed something (or all, with `force`). Under at-least-once
   * the consumer commits the input offsets after the checkpoints; under exactly-once each
   * task's transaction carries them.
   *
   * @throws the producer's or the consumer's errors (a refused offset commit is a
   *   CommitFailedError): the caller treats the tasks as corrupted (closes them dirty) under
   *   exactly-once, and retries the commit under at-least-once.
   */
  async commit(consumer: Pick<GroupConsumer, 'commitOffsets'>, force = false): Promise<number> {
    const due = this.tasks().filter((e) => e.restored && (force || e.task.commitNeeded()));
    if (due.length === 0) return 0;
    const started = performance.now();
    for (const entry of due) {
      await entry.task.flushState();
      commitPhase('caches-flushed', entry.task.id.toString());
    }
    if (this.exactlyOnce) {
      // Every task commits its own transaction with its own producer: independent, so all at
      // once (the commit costs one task's round trips, not one per task). A failure is thrown
      // after the others settled; the tasks that committed are marked so. A task whose
      // transaction did not commit keeps its writes pending: it is closed dirty, which drops
      // them.
      const results = await Promise.allSettled(
        due.map(async (entry) => {
          const taskId = entry.task.id.toString();
          await entry.collector.flush();
          commitPhase('producer-flushed', taskId);
          await entry.eosProducer!.commit(
            this.options.config.applicationId,
            entry.task.offsetsToCommit(),
          );
          commitPhase('transaction-committed', taskId);
          await entry.engines.commit();
          entry.stateManager.recordCommitted();
          commitPhase('state-committed', taskId);
          entry.task.markCommitted();
          entry.stateManager.checkpointIfNeeded();
        }),
      );
      const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (failed !== undefined) throw failed.reason;
      this.commits++;
      this.commitTimeMs += performance.now() - started;
      return due.length;
    }
    await this.sharedCollector!.flush();
    for (const entry of due) {
      commitPhase('producer-flushed', entry.task.id.toString());
      entry.stateManager.checkpointIfNeeded();
    }
    const offsets = due.flatMap((e) => e.task.offsetsToCommit());
    if (offsets.length > 0) {
      // Grouped by topic, in the order of each topic's first partition.
      const topics = new Map<string, { topic: string; partition: number; offset: number }[]>();
      for (const { topic, partition, offset } of offsets) {
        let list = topics.get(topic);
        if (!list) topics.set(topic, (list = []));
        list.push({ topic, partition, offset });
      }
      await consumer.commitOffsets([...topics.values()].flat());
    }
    for (const entry of due) {
      entry.task.markCommitted();
      commitPhase('offsets-committed', entry.task.id.toString());
    }
    this.commits++;
    this.commitTimeMs += performance.now() - started;
    return due.length;
  }

  /**
   * Closes a task. Clean: flush, then checkpoint (the caller committed its offsets first).
   * Dirty: no flush, no checkpoint; under exactly-once its transaction is aborted and its
   * uncommitted writes dropped (the state keeps what committed transactions wrote, so the next
   * owner restores the tail after its checkpoint; stores of its own suppliers are wiped).
   */
  async close(taskIdText: string, clean: boolean): Promise<void> {
    const entry = this.entries.get(taskIdText);
    if (!entry) return;
    this.entries.delete(taskIdText);
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
    await entry.stateManager.close(clean).catch((error: unknown) => {
      this.options.logger.warn(`task ${taskIdText}: ${String(error)}`);
    });
    await entry.eosProducer?.disconnect().catch(() => undefined);
  }

  /** Closes every task and the shared producer. */
  async closeAll(clean: boolean): Promise<void> {
    for (const id of this.taskIds()) await this.close(id, clean);
    if (this.sharedCollector && clean) await this.sharedCollector.flush().catch(() => undefined);
    await this.sharedProducer?.disconnect().catch(() => undefined);
    this.sharedProducer = undefined;
    this.sharedCollector = undefined;
  }
}
