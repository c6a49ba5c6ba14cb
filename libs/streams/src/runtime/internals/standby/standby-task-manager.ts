import { randomUUID } from 'node:crypto';
import type { ClusterAdmin } from '../../../client/cluster-admin';
import type { Topology } from '../../../processor/topology';
import type { ChangelogRecord } from '../../../processor/state-store-context';
import type { LagInfo } from '../../../query/streams-metadata';
import type { StateDirectory } from '../task-state/state-directory';
import type { StateLogger } from '../../../logging/logger';
import type { AssignedPartitionReaderFactory } from '../../../client/assigned-partition-reader';
import { StandbyFetchLoop } from './standby-fetch-loop';
// The fallback consumer (a throwaway group's, when the reader by assignment cannot be made) is
// kafkajs only: @platformatic/kafka always reads by assignment.
import {
  StandbyGroupConsumer,
  type StandbyGroupBatch,
} from '../../../client/kafkajs/standby-group-consumer';
import {
  requireThrowawayGroupClient,
  type ThrowawayGroupClient,
} from '../../../client/kafkajs/throwaway-group-consumer';
import { StandbyTask, type StandbyPartition } from './standby-task';
import type { ResolvedStreamsConfig } from '../../streams-config';
import { fetchTopicOffsetsSettled } from '../../../client/topic-admin';

/** How long a crashed standby consumer waits before it is replaced. */
const RESTART_DELAY_MS = 1000;

/** Options of a {@link StandbyTaskManager}. */
export interface StandbyTaskManagerOptions {
  readonly topology: Topology;
  readonly config: ResolvedStreamsConfig;
  /**
   * kafkajs only: the client of the fallback consumer, taken when `readers` gives no reader.
   * With @platformatic/kafka (whose reader always reads by assignment) there is none.
   */
  readonly kafka?: ThrowawayGroupClient;
  readonly admin: ClusterAdmin;
  /** Reads the changelogs by assignment; without it (or no reader), a throwaway group's consumer. */
  readonly readers?: AssignedPartitionReaderFactory;
  readonly stateDirectory: StateDirectory;
  readonly logger: StateLogger;
  /** Called after each applied batch (for standby-update listeners and metrics). */
  readonly onApplied?: (taskId: string, store: string, partition: number, records: number) => void;
}

/**
 * Runs this instance's standby tasks: one reader by assignment (no consumer group; where the
 * client cannot, a consumer in a group of its own that never commits) follows every standby
 * changelog partition from its checkpoint, applies each fetched batch as
 * one write batch, checkpoints on the commit interval, and tracks each partition's lag against
 * the changelog end offset. A new set of standby tasks restarts the consumer, and so does a
 * crash kafkajs would not recover from by itself (after a second, from the standbys' positions).
 */
export class StandbyTaskManager {
  private readonly tasks = new Map<string, StandbyTask>();
  private consumer: StandbyGroupConsumer | undefined;
  private fetchLoop: StandbyFetchLoop | undefined;
  private groupId: string | undefined;
  private readonly byPartition = new Map<
    string,
    { task: StandbyTask; partition: StandbyPartition }
  >();
  private readonly endOffsets = new Map<string, number>();
  private checkpointTimer: NodeJS.Timeout | undefined;
  private lifecycle: Promise<unknown> = Promise.resolve();
  private closed = false;
  private lagTimer: NodeJS.Timeout | undefined;

  constructor(private readonly options: StandbyTaskManagerOptions) {}

  taskIds(): string[] {
    return [...this.tasks.keys()];
  }

  get(taskId: string): StandbyTask | undefined {
    return this.tasks.get(taskId);
  }

  all(): StandbyTask[] {
    return [...this.tasks.values()];
  }

  /**
   * Makes `taskIds` the standby tasks: closes the others (checkpointed, kept on disk), opens
   * new ones, and restarts the changelog consumer when the set changed.
   */
  async assign(taskIds: readonly string[]): Promise<void> {
    return this.serialized(() => this.doAssign(taskIds));
  }

  private async doAssign(taskIds: readonly string[]): Promise<void> {
    this.closed = false;
    const wanted = new Set(taskIds);
    const current = new Set(this.tasks.keys());
    const same = wanted.size === current.size && [...wanted].every((t) => current.has(t));
    if (same) return;
    await this.stopConsumer();
    for (const [id, task] of this.tasks) {
      if (!wanted.has(id)) {
        await task
          .close()
          .catch((e: unknown) =>
            this.options.logger.warn(`standby ${id}: close failed: ${String(e)}`),
          );
        this.tasks.delete(id);
      }
    }
    for (const id of wanted) {
      if (this.tasks.has(id)) continue;
      const task = new StandbyTask(
        id,
        this.options.topology,
        this.options.config,
        this.options.stateDirectory,
        this.options.logger,
      );
      await task.initialize();
      this.tasks.set(id, task);
    }
    await this.startConsumer();
  }

  /**
   * Releases a standby task so the active task of the same id can open its stores: flushes,
   * checkpoints and closes it (the active restores only the tail after the checkpoint).
   */
  async release(taskId: string): Promise<void> {
    return this.serialized(() => this.doRelease(taskId));
  }

  private async doRelease(taskId: string): Promise<void> {
    const task = this.tasks.get(taskId);
    if (!task) return;
    await this.stopConsumer();
    this.tasks.delete(taskId);
    await task.close();
    await this.startConsumer();
  }

  /**
   * Lag per store and partition of every standby partition (positions vs. end offsets). A
   * partition whose changelog end has not been fetched yet is left out: its lag is unknown.
   */
  lags(): Map<string, Map<number, LagInfo>> {
    const result = new Map<string, Map<number, LagInfo>>();
    for (const task of this.tasks.values()) {
      for (const p of task.partitions) {
        const lag = this.lagInfo(p);
        if (lag === undefined) continue;
        let perStore = result.get(p.storeName);
        if (!perStore) result.set(p.storeName, (perStore = new Map()));
        perStore.set(p.partition, lag);
      }
    }
    return result;
  }

  /**
   * How many records the standby copy of `storeName` in `task` is behind its changelog's end
   * (as last fetched), or `undefined` while that end is unknown: such a copy must not answer
   * queries, since it could not say how stale its answer is.
   */
  storeLag(task: StandbyTask, storeName: string): number | undefined {
    const partition = task.partitions.find((p) => p.storeName === storeName);
    if (!partition) return undefined; // no changelog: nothing keeps this copy up to date
    return this.lagInfo(partition)?.offsetLag;
  }

  private lagInfo(p: StandbyPartition): LagInfo | undefined {
    const known = this.endOffsets.get(`${p.topic}:${p.partition}`);
    if (known === undefined) return undefined;
    const end = Math.max(known, p.position);
    return {
      currentOffsetPosition: p.position,
      endOffsetPosition: end,
      offsetLag: end - p.position,
    };
  }

  /** Fetches the changelogs' end offsets now (lags are otherwise refreshed every second). */
  async refreshEndOffsets(): Promise<void> {
    const topics = new Set(this.all().flatMap((t) => t.partitions.map((p) => p.topic)));
    for (const topic of topics) {
      const offsets = await fetchTopicOffsetsSettled(this.options.admin, topic);
      for (const o of offsets) this.endOffsets.set(`${topic}:${o.partition}`, o.high);
    }
  }

  /** Checkpoints and closes every standby task and stops the consumer. */
  async closeAll(): Promise<void> {
    return this.serialized(() => this.doCloseAll());
  }

  private async doCloseAll(): Promise<void> {
    this.closed = true;
    await this.stopConsumer();
    for (const [id, task] of this.tasks) {
      await task
        .close()
        .catch((e: unknown) =>
          this.options.logger.warn(`standby ${id}: close failed: ${String(e)}`),
        );
    }
    this.tasks.clear();
  }

  private async startConsumer(): Promise<void> {
    this.byPartition.clear();
    const assignment: Record<string, number[]> = {};
    const seeks: { topic: string; partition: number; offset: number }[] = [];
    for (const task of this.tasks.values()) {
      for (const p of task.partitions) {
        this.byPartition.set(`${p.topic}:${p.partition}`, { task, partition: p });
        (assignment[p.topic] ??= []).push(p.partition);
        seeks.push({ topic: p.topic, partition: p.partition, offset: p.position });
      }
    }
    if (seeks.length === 0) return;
    const { kafka, config } = this.options;
    const reader = this.options.readers?.({ maxWaitTimeMs: 250 });
    if (reader) {
      this.fetchLoop = new StandbyFetchLoop({
        reader,
        partitions: this.byPartition,
        logger: this.options.logger,
        retryDelayMs: RESTART_DELAY_MS,
        onApplied: (entry, records) =>
          this.options.onApplied?.(
            entry.task.id.toString(),
            entry.partition.storeName,
            entry.partition.partition,
            records,
          ),
        logStart: async (topic, partition) => {
          const offsets = await fetchTopicOffsetsSettled(this.options.admin, topic);
          const found = offsets.find((o) => o.partition === partition);
          if (!found) throw new Error(`${topic}-${partition} does not exist`);
          return found.low;
        },
      });
      this.startTimers();
      return;
    }
    this.groupId = `${config.applicationId}-standby-${randomUUID()}`;
    const consumer = new StandbyGroupConsumer(
      requireThrowawayGroupClient(kafka, 'the standby fallback consumer'),
      {
        groupId: this.groupId,
        assignment,
        onBatch: (batch) => this.onBatch(batch),
        onCrash: (error) => {
          this.options.logger.warn(
            `standby changelog consumer crashed (${String(error)}); restarting it in ${RESTART_DELAY_MS} ms`,
          );
          setTimeout(() => void this.restartConsumer(consumer), RESTART_DELAY_MS).unref();
        },
      },
    );
    this.consumer = consumer;
    await consumer.start(seeks);
    this.startTimers();
  }

  /** Checkpoints on the commit interval (at least a second apart) and refreshes lags every second. */
  private startTimers(): void {
    const { config } = this.options;
    this.checkpointTimer = setInterval(
      () => void this.checkpointAll(),
      Math.max(1000, Math.min(config.commitIntervalMs, 30_000)),
    );
    this.checkpointTimer.unref();
    this.lagTimer = setInterval(() => void this.refreshEndOffsets().catch(() => undefined), 1000);
    this.lagTimer.unref();
  }

  /**
   * Replaces the consumer `crashed` (`undefined`: starts one where none runs), unless it was
   * replaced or the manager closed meanwhile. A start that fails is stopped again (no
   * half-started consumer stays behind) and retried after {@link RESTART_DELAY_MS}.
   */
  private restartConsumer(crashed: StandbyGroupConsumer | undefined): Promise<void> {
    return this.serialized(async () => {
      if (this.closed || this.consumer !== crashed) return;
      await this.stopConsumer();
      try {
        await this.startConsumer();
      } catch (error) {
        this.options.logger.warn(`standby changelog consumer restart failed: ${String(error)}`);
        await this.stopConsumer();
        setTimeout(() => void this.restartConsumer(undefined), RESTART_DELAY_MS).unref();
      }
    }).catch((error: unknown) => {
      this.options.logger.warn(`standby changelog consumer restart failed: ${String(error)}`);
    });
  }

  /** Runs lifecycle changes (assign, release, restart, close) one after another. */
  private serialized<T>(work: () => Promise<T>): Promise<T> {
    const result = this.lifecycle.then(work);
    this.lifecycle = result.catch(() => undefined);
    return result;
  }

  private async stopConsumer(): Promise<void> {
    if (this.checkpointTimer) clearInterval(this.checkpointTimer);
    if (this.lagTimer) clearInterval(this.lagTimer);
    this.checkpointTimer = undefined;
    this.lagTimer = undefined;
    const loop = this.fetchLoop;
    this.fetchLoop = undefined;
    await loop?.stop();
    const consumer = this.consumer;
    this.consumer = undefined;
    if (consumer) {
      await consumer.disconnect();
      if (this.groupId)
        await this.options.admin.deleteGroups([this.groupId]).catch(() => undefined);
    }
    await this.checkpointAll();
  }

  private async checkpointAll(): Promise<void> {
    for (const task of this.tasks.values()) {
      await task
        .checkpoint()
        .catch((e: unknown) =>
          this.options.logger.warn(
            `standby ${task.id.toString()}: checkpoint failed: ${String(e)}`,
          ),
        );
    }
  }

  private async onBatch(batch: StandbyGroupBatch): Promise<void> {
    const entry = this.byPartition.get(`${batch.topic}:${batch.partition}`);
    if (!entry) return;
    const records: ChangelogRecord[] = [];
    for (const message of batch.messages) {
      if (Number(message.offset) < entry.partition.position || message.key === null) continue;
      records.push(message as ChangelogRecord);
    }
    await entry.task.apply(entry.partition, records, batch.lastOffset);
    this.options.onApplied?.(
      entry.task.id.toString(),
      entry.partition.storeName,
      entry.partition.partition,
      records.length,
    );
  }
}
