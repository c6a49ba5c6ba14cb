import { decodeInfo, type AssignmentInfo } from '../../../cluster/internals/assignment-info';
import type {
  GroupAssignment,
  GroupConsumer,
  GroupFetchedBatch,
  GroupMetadata,
} from '../../../client/group-consumer';
import { CommitSchedule, MAX_EXACTLY_ONCE_HOLD_MS } from '../commit/commit-schedule';
import { InputPause, waitWithHeartbeats } from './input-pause';
import { ThreadTaskMap } from './thread-task-map';
import { closeLostTasks, handoverPending, lostTasks, openAssignedTasks } from './assignment-tasks';
import { ProbingRebalance } from './probing-rebalance';
import { MembershipWatch } from './membership-watch';
import { TaskInputFeed } from './task-input-feed';
import { closeMigratedTasks } from './migrated-tasks';
import { TaskMigration } from './task-migration';
import type { ActiveTaskEntry } from '../active-tasks/active-task-entry';
import { threadConsumerOptions, type StreamThreadOptions } from './stream-thread-options';
import {
  commitFailureAction,
  isRebalanceError,
  isRecoverableByTaskClose,
} from '../commit/commit-failure';

export type { StreamThreadListener, StreamThreadOptions } from './stream-thread-options';

/**
 * The processing loop: one group consumer in the application's group (with the streams
 * assignor), feeding fetched batches to their tasks, committing on `commit.interval.ms`, and
 * flushing and committing before the group rebalances (as soon as the loop sees the rebalance,
 * and in the consumer's `onRevoking`, before the member rejoins).
 *
 * Work is serialized: a batch, a commit, a punctuation or an assignment change never overlap.
 */
export class StreamThread {
  private consumer: GroupConsumer | undefined;
  private work: Promise<unknown> = Promise.resolve();
  private assignmentReady: Promise<void> = Promise.resolve();
  private memberId: string | undefined;
  private lastBatchAt = Date.now();
  private lastProgress = Date.now();
  private timer: NodeJS.Timeout | undefined;
  private stopping = false;
  private failed = false;
  private rebalancePending = false;
  private readonly inputPause = new InputPause();
  private readonly taskMap: ThreadTaskMap;
  private generationInfo: AssignmentInfo | undefined;
  private readonly probing = new ProbingRebalance(() => this.probe());
  private readonly migration = new TaskMigration({
    close: (error) =>
      closeMigratedTasks(
        error,
        this.options,
        (work) => this.serialized(work),
        () => this.taskMap.clear(),
      ),
    rejoin: () => this.rejoin(),
    stopping: () => this.stopping,
    failed: (error) => this.failHard(error),
  });
  /** The generation the tasks came in: KIP-447 commits name it, so late ones are refused. */
  private tasksGeneration: GroupMetadata | undefined;
  /** KIP-429: tasks that stay keep processing through a rebalance; only moving ones stop. */
  private readonly cooperative: boolean;
  private readonly schedule: CommitSchedule;
  private readonly membership: MembershipWatch;
  private readonly feed = new TaskInputFeed({
    consumer: () => this.consumer,
    now: () => Date.now(),
    queue: (work) => {
      if (this.stopping || this.failed || this.migration.active) return;
      void this.serialized(work).catch((error: unknown) => this.fail(error));
    },
    current: (entry) =>
      !this.migration.active && this.options.tasks.get(entry.task.id.toString()) === entry,
    afterSlice: (entry) => this.afterSlice(entry),
  });

  constructor(private readonly options: StreamThreadOptions) {
    const { sessionTimeoutMs } = options.config;
    this.membership = new MembershipWatch(sessionTimeoutMs, options.tasks, options.logger, () =>
      this.consumer?.confirmHeartbeatCoordinator
        ? this.consumer.confirmHeartbeatCoordinator()
        : Promise.resolve(),
    );
    this.cooperative = options.config.rebalanceProtocol === 'cooperative';
    this.schedule = new CommitSchedule(
      options.config.commitIntervalMs,
      this.cooperative,
      options.tasks.exactlyOnce ? MAX_EXACTLY_ONCE_HOLD_MS : undefined,
    );
    this.taskMap = new ThreadTaskMap(options.tasks);
  }

  /** When the thread last made progress (epoch ms): a fetch completed or a batch processed. */
  get lastProgressAt(): number {
    return this.lastProgress;
  }

  /** The member's current assignment (its tasks and the host map), once joined. */
  get assignment(): AssignmentInfo | undefined {
    return this.generationInfo;
  }

  async start(): Promise<void> {
    const { config, sourceTopics } = this.options;
    const consumer = this.options.groupConsumers(
      threadConsumerOptions(this.options, () => this.tasksGeneration),
    );
    this.consumer = consumer;
    await this.options.tasks.start();
    await consumer.start({
      topics: sourceTopics,
      handleBatch: (batch) => this.feed.handing(batch, () => this.onBatch(batch)),
      listener: {
        onRebalancing: () => {
          if (this.stopping) return;
          this.membership.joiningGroup();
          // Eager: commit at once, the tasks stop until the assignment. Cooperative: they go on.
          if (this.cooperative) this.schedule.rebalancing();
          else this.rebalancePending = true;
          this.options.listener.onRebalancing();
        },
        onRevoking: () => this.onRevoking(),
        onAssigned: (assignment) => this.onAssigned(assignment),
        onLost: () => {
          this.membership.joiningGroup();
          return this.migration.start(new Error('the member lost its group membership'), false);
        },
        onHeartbeat: () => this.membership.heartbeatAnswered(),
        // The poll loop is alive (even an empty fetch); it may bring lags a waiting task needs.
        onFetch: () => {
          this.lastProgress = this.options.threadMetrics?.polled() ?? Date.now();
          this.feed.fetched();
        },
        onFailed: (error) => {
          if (!this.stopping) this.fail(error);
        },
      },
    });
    const tick = Math.max(10, Math.min(1000, config.commitIntervalMs));
    this.timer = setInterval(() => void this.onTick(), tick);
    this.timer.unref();
  }

  /** Commits, closes every task cleanly (checkpoints), and leaves the group. */
  async stop(): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    if (this.timer) clearInterval(this.timer);
    this.feed.stop();
    this.probing.cancel();
    const consumer = this.consumer;
    if (!consumer) return;
    // A restore under way stops now (eager: it holds the queue); later batches are ignored.
    void this.options.tasks.cancelCreations();
    await this.serialized(async () => {
      if (!this.failed) {
        try {
          await this.options.tasks.commit(this.committer(), true);
        } catch (error) {
          this.options.logger.warn(`final commit failed: ${String(error)}`);
        }
      }
      await this.options.tasks.cancelCreations();
      await this.options.tasks.closeAll(!this.failed);
      await this.options.standbys.closeAll();
    });
    await consumer.close();
  }

  /**
   * The member joined a generation: hold its new input back and apply the assignment. Resolves
   * once the tasks it lost are committed and closed (see GroupConsumerListener.onAssigned).
   */
  private onAssigned(assignment: GroupAssignment): Promise<void> {
    if (this.stopping) return Promise.resolve();
    this.rebalancePending = false;
    this.membership.confirmed();
    this.schedule.assigned();
    this.feed.assigned(this.cooperative ? assignment.partitions : []);
    this.memberId = assignment.memberId;
    // Eager: a task taken away may have its new owner already (cooperative: not before it closed).
    if (!this.cooperative)
      this.options.tasks.suspendQueries(lostTasks(this.options.tasks, assignment));
    // Cooperative: the partitions it keeps go on being fetched; only new ones wait.
    const held = this.cooperative
      ? this.taskMap.unmapped(assignment.partitions)
      : assignment.partitions;
    const resume = this.inputPause.pause(this.consumer!, held, assignment.partitions);
    let revoked!: () => void;
    const lostClosed = new Promise<void>((resolve) => (revoked = resolve));
    this.assignmentReady = this.serialized(() => this.applyAssignment(assignment, resume, revoked));
    this.assignmentReady.catch((error: unknown) => this.assignmentFailed(error));
    return Promise.race([
      lostClosed,
      this.assignmentReady.then(
        () => undefined,
        () => undefined,
      ),
    ]);
  }

  /**
   * Before the member sends a JoinGroup, while its generation may still commit. Eager: it
   * commits what was processed (under exactly-once a failed commit leaves a transaction that
   * cannot commit: the tasks close dirty; the member is rejoining already). Cooperative: it
   * keeps its tasks; only the work in progress (a commit in flight, named with the generation
   * ending now) finishes first.
   */
  private async onRevoking(): Promise<void> {
    if (this.stopping || this.failed) return;
    if (this.cooperative) {
      this.schedule.rebalancing();
      await this.serialized(() => Promise.resolve());
      return;
    }
    await this.serialized(() => this.commit()).catch(async (e: unknown) => {
      this.options.logger.warn(`commit before rebalance failed: ${String(e)}`);
      if (this.options.tasks.exactlyOnce) await this.migration.start(e, false);
    });
  }

  /** Processes one fetched batch; true once its records are processed (the position moves). */
  private async onBatch(batch: GroupFetchedBatch): Promise<boolean> {
    await waitWithHeartbeats(this.assignmentReady, this.options.config.heartbeatIntervalMs, () =>
      batch.heartbeat(),
    );
    if (!batch.isCurrent() || this.stopping || this.failed || this.migration.active) return false;
    const taskId = this.taskMap.taskOf(batch.topic, batch.partition);
    const entry = taskId === undefined ? undefined : this.options.tasks.get(taskId);
    if (!entry) return false;
    let consumed = false;
    const processed = this.serialized(async () => {
      // Closed while the batch waited (migrated, or reassigned): dropped; its next owner refetches.
      if (this.failed || this.stopping || this.migration.active) return;
      if (this.options.tasks.get(taskId!) !== entry) return;
      // Into the task's input; processed in slices (like Kafka Streams' max.poll.records) as
      // far as the task may (max.task.idle.ms), committing when due between them.
      await this.feed.deliver(entry, batch);
      consumed = true;
    }).catch((error: unknown) => this.fail(error));
    // Heartbeats while the batch waits and is processed: a commit held by a hung broker must
    // not let the session expire (Java's consumer heartbeats from its own thread; #38).
    await waitWithHeartbeats(processed, this.options.config.heartbeatIntervalMs, () =>
      batch.heartbeat(),
    );
    this.lastBatchAt = Date.now();
    this.lastProgress = this.lastBatchAt;
    return consumed && !this.failed;
  }

  private async onTick(): Promise<void> {
    if (this.stopping || this.failed || this.migration.active || !this.consumer) return;
    // Outside the serialized work: a batch stuck on a hung broker must not hide the silence.
    this.membership.check(this.options.tasks.taskIds().length > 0);
    await this.serialized(async () => {
      if (this.migration.active) return;
      for (const entry of this.options.tasks.tasks()) {
        if (entry.restored) entry.task.punctuateWallClock();
      }
      // Idle for a second: commit now, so a rebalance while idle moves no uncommitted work.
      const idle =
        Date.now() - this.lastBatchAt >= Math.min(1000, this.options.config.commitIntervalMs);
      const pending = this.options.tasks.tasks().some((e) => e.restored && e.task.commitNeeded());
      if (this.schedule.due() || this.rebalancePending || (idle && pending)) await this.commit();
    }).catch((error: unknown) => this.fail(error));
  }

  /**
   * After each slice of a task's records: commits when due, or when a processor called
   * `context.commit()` or the task's uncommitted writes grew too big; waits for RocksDB when
   * it is behind.
   */
  private async afterSlice({ task, engines }: ActiveTaskEntry): Promise<void> {
    const requested = task.commitRequestedByProcessor() || engines.overUncommittedLimit();
    if (this.rebalancePending || this.schedule.due() || requested) await this.commit();
    // At-least-once: RocksDB is behind by more than the bound; let it catch up first.
    if (engines.overWriteBehindLimit()) await engines.writeHeld();
  }

  private async commit(): Promise<void> {
    if (this.schedule.holds()) return;
    this.schedule.committing();
    try {
      await this.options.tasks.commit(this.committer());
    } catch (error) {
      if (commitFailureAction(error, this.options.tasks.exactlyOnce) === 'fatal') throw error;
      // Rebalanced: offsets pending until it rejoined; a dropped member answers no query meanwhile.
      this.options.logger.warn(`commit refused by a rebalance, rejoining: ${String(error)}`);
      this.membership.refused(error);
    }
  }

  /**
   * The consumer's offset commits, and the generation for their transactions: eager, the one
   * the tasks were assigned in; cooperative, the member's latest (it holds its tasks in it).
   */
  private committer(): Pick<GroupConsumer, 'commitOffsets' | 'groupMetadata'> {
    const consumer = this.consumer!;
    return {
      commitOffsets: (offsets) => consumer.commitOffsets(offsets),
      groupMetadata: () => (this.cooperative ? consumer.groupMetadata() : this.tasksGeneration),
    };
  }

  private async applyAssignment(
    assignment: GroupAssignment,
    resumeInput: () => void,
    lostClosed: () => void,
  ): Promise<void> {
    const info = decodeInfo<AssignmentInfo>(await assignment.userData());
    if (info.error === 'SHUTDOWN_APPLICATION') {
      this.options.listener.onShutdownRequested();
      return;
    }
    this.generationInfo = info;
    this.options.listener.onAssignment(info);
    const changes = { ...this.options, cooperative: this.cooperative, committer: this.committer() };
    await closeLostTasks(changes, info);
    lostClosed();
    this.taskMap.clear();
    this.tasksGeneration = this.consumer!.groupMetadata();
    const started = () => {
      if (this.stopping) return;
      this.taskMap.map(info.active);
      this.probing.schedule(info.probingRebalanceAtMs);
      resumeInput();
      // Cooperative: RUNNING once the tasks held back for this client came.
      if (!handoverPending(info)) this.options.listener.onRunning();
    };
    // Cooperative: kept tasks process on while new ones restore (their input paused till then).
    if (this.cooperative) this.taskMap.map(info.active);
    await openAssignedTasks(changes, info, {
      started,
      queued: (fn) => this.serialized(fn),
      current: () => !this.stopping && !this.failed && this.generationInfo === info,
      failed: (error) => this.assignmentFailed(error),
    });
  }

  private assignmentFailed(error: unknown): void {
    // A superseded generation (a later join of this member): the next assignment applies.
    if (isRebalanceError(error)) this.options.logger.warn(`assignment dropped: ${String(error)}`);
    else this.fail(error);
  }

  /**
   * Rejoins the group (leave, then join again) so the leader reads this member's new
   * subscription, e.g. a shutdown request. Works after a processing failure too.
   */
  async rejoin(): Promise<void> {
    const consumer = this.consumer;
    if (!consumer || this.stopping) return;
    await consumer.rejoin();
  }

  /**
   * The probing rebalance (Kafka Streams' `enforceRebalance()`): rejoins as the same member, so
   * the group waits for every member. Leaving instead lets a generation form without this member
   * (or with only the first member back), whose tasks then go to clients with no state for them.
   */
  private async probe(): Promise<void> {
    const consumer = this.consumer;
    if (!consumer || this.stopping || this.failed) return;
    this.options.logger.info('probing rebalance: rejoining the group so warmed-up tasks can move');
    // Under exactly-once a failed commit leaves a transaction that cannot commit: as any.
    await this.serialized(() => this.commit()).catch((error: unknown) => {
      if (this.options.tasks.exactlyOnce) this.fail(error);
    });
    if (this.stopping || this.failed || this.migration.active || !this.memberId) return;
    await consumer.enforceRebalance();
  }

  private serialized<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.work.then(fn, fn);
    this.work = run.catch(() => undefined);
    return run;
  }

  private fail(error: unknown): void {
    if (this.failed || this.stopping) return;
    // Migrated tasks, or a transaction the broker aborted: close them dirty, rejoin, restore.
    if (this.options.tasks.exactlyOnce && isRecoverableByTaskClose(error)) {
      void this.migration.start(error, true);
      return;
    }
    this.failHard(error);
  }

  private failHard(error: unknown): void {
    if (this.failed || this.stopping) return;
    this.failed = true;
    const err = error instanceof Error ? error : new Error(String(error));
    this.options.logger.warn(`stream thread failed: ${err.message}`);
    this.options.listener.onError(err);
  }
}
