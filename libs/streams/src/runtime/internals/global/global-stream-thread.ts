import { promises as fs } from 'node:fs';
import type {
  AssignedPartitionReader,
  FetchedPartition,
} from '../../../client/assigned-partition-reader';
import type { ClusterAdmin } from '../../../client/cluster-admin';
import { ChangelogRestoreError } from '../../../errors/changelog-restore.error';
import { PartitionOffsetOutOfRangeError } from '../../../errors/internals/partition-offset-out-of-range.error';
import { MissingSourceTopicError } from '../../../errors/missing-source-topic.error';
import { StreamsConfigError } from '../../../errors/streams-config.error';
import { UnknownTopicError } from '../../../errors/internals/unknown-topic.error';
import type { StreamsLogger } from '../../../logging/logger';
import { topicPartitionKey, type TopicPartition } from '../../../processor/topic-partition';
import type { Position } from '../../../query/position';
import { OffsetCheckpoint } from '../../../state/internals/offset-checkpoint';
import type { StateRestoreListener } from '../../state-restore-listener';
import type { ResolvedStreamsConfig } from '../../streams-config';
import type { GlobalStoreUpdater } from './global-store-updater';

/** One partition of a global topic and the offset its next fetch starts at. */
interface GlobalPartition {
  readonly topic: string;
  readonly partition: number;
  position: number;
}

/** What a {@link GlobalStreamThread} reads with. */
export interface GlobalStreamThreadOptions {
  readonly config: ResolvedStreamsConfig;
  readonly admin: ClusterAdmin;
  /** A reader by assignment, with headers; `undefined` when the client has none. */
  readonly reader: AssignedPartitionReader | undefined;
  readonly updater: GlobalStoreUpdater;
  /** `<stateDir>/<applicationId>/global`, where the stores and `.checkpoint` live. */
  readonly globalDir: string;
  readonly logger: StreamsLogger;
  /** Called once when keeping the stores up to date fails for good; the loop has stopped. */
  readonly onError: (error: Error) => void;
  /** How long to wait after a failed fetch; default 1 s. */
  readonly retryDelayMs?: number;
  /** The client's restore listener (`setGlobalStateRestoreListener`), read when a restore starts. */
  readonly restoreListener?: () => StateRestoreListener | undefined;
}

/**
 * Keeps the global stores whole on this instance (Kafka Streams' `GlobalStreamThread` and
 * `GlobalStateManagerImpl`): reads every partition of every global topic by assignment (no
 * consumer group; the topic is the stores' changelog), from the local checkpoint for
 * persistent stores (else the log start). {@link start} restores up to the ends the first
 * fetch reports (the last stable offset: read_committed) and returns; then a loop follows the topics while the client runs,
 * flushing the stores and writing `<globalDir>/.checkpoint` every `commit.interval.ms` and at
 * {@link stop}, so a restart resumes where the checkpoint says.
 *
 * Errors: {@link start} throws `MissingSourceTopicError` for a global topic that does not exist,
 * `StreamsConfigError` when the client cannot read by assignment, and, like the loop, what the
 * updater throws (a record the handler failed, a store failure). Fetch failures are retried
 * every `retryDelayMs` for up to `task.timeout.ms`, then fail; a position outside the log moves
 * to the log start with a warning. A loop failure goes to `onError` (the client then stops).
 */
export class GlobalStreamThread {
  private readonly partitions: GlobalPartition[] = [];
  private readonly checkpoint: OffsetCheckpoint;
  private stopped = false;
  private running: Promise<void> | undefined;
  private restoring: Promise<void> | undefined;
  private failingSince: number | undefined;
  private lastCheckpointAt = Date.now();
  private dirty = false;
  private restoredFlag = false;
  private failed = false;

  constructor(private readonly options: GlobalStreamThreadOptions) {
    this.checkpoint = new OffsetCheckpoint(`${options.globalDir}/.checkpoint`);
  }

  /** Whether the stores reached the ends {@link start} restored to (they are queryable). */
  get restored(): boolean {
    return this.restoredFlag;
  }

  /**
   * How far the stores have read their topics: per topic and partition, the offset of the last
   * record applied (Kafka Streams' `Position`; a partition not read yet is absent).
   */
  position(): Position {
    const position: Record<string, Record<string, number>> = {};
    for (const { topic, partition, position: next } of this.partitions) {
      if (next > 0) (position[topic] ??= {})[String(partition)] = next - 1;
    }
    return position;
  }

  /**
   * Opens the stores, restores them to the topics' ends and starts following the topics.
   * Throws as the class says; the caller then {@link stop}s it.
   */
  async start(): Promise<void> {
    const { updater, reader, admin, logger } = this.options;
    if (reader === undefined) {
      throw new StreamsConfigError(
        'global stores need a reader by assignment, which this Kafka client does not give (kafkajs internals other than 2.2.4): use kafkajs 2.2.4 or @platformatic/kafka',
      );
    }
    await fs.mkdir(this.options.globalDir, { recursive: true });
    await updater.open();
    const checkpointed = await this.checkpoint.read().catch((error: unknown) => {
      logger.warn(`global checkpoint unreadable (${String(error)}): restoring from the start`);
      return new Map<string, { offset: number }>();
    });
    for (const topic of updater.topics()) {
      const offsets = await admin.fetchTopicOffsets(topic).catch((error: unknown) => {
        throw error instanceof UnknownTopicError ? new MissingSourceTopicError([topic]) : error;
      });
      for (const { partition, low, high } of offsets) {
        const saved = updater.persistent(topic)
          ? checkpointed.get(topicPartitionKey(topic, partition))?.offset
          : undefined;
        const resume = saved === undefined ? low : saved + 1;
        const outside = resume < low || resume > high;
        if (outside) {
          logger.warn(
            `global checkpoint of ${topic}-${partition} (${resume}) is outside its log [${low}, ${high}]: reading it from ${low}`,
          );
        }
        this.partitions.push({ topic, partition, position: outside ? low : resume });
      }
    }
    this.restoring = this.restore(reader);
    await this.restoring;
    if (this.stopped) return;
    this.restoredFlag = true;
    this.running = this.follow(reader);
  }

  /**
   * Stops following, then (when nothing failed) flushes the stores and writes the checkpoint,
   * and closes the stores. Idempotent.
   */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    await this.options.reader?.close().catch(() => undefined);
    // A restore still running (stop during start) ends at its next fetch; then the loop's.
    await this.restoring?.catch(() => undefined);
    await this.running;
    if (!this.failed && this.restoredFlag) {
      await this.writeCheckpoint().catch((error: unknown) =>
        this.options.logger.warn(`global checkpoint not written at close: ${String(error)}`),
      );
    }
    await this.options.updater.close();
  }

  /**
   * Reads until every partition reached the end its first fetch reported, telling the restore
   * listener as Kafka Streams' `GlobalStateManagerImpl` does: `onRestoreStart` with the start
   * and end offsets, `onBatchRestored` per applied batch with the partition's position after it
   * (the next offset to read, Kafka's argument here) and the records processed, and
   * `onRestoreEnd` with their total.
   *
   * @throws ChangelogRestoreError when a listener callback throws (the start fails).
   */
  private async restore(reader: AssignedPartitionReader): Promise<void> {
    const ends = new Map<GlobalPartition, number>();
    const totals = new Map<GlobalPartition, number>();
    const pending = (p: GlobalPartition) => !ends.has(p) || p.position < ends.get(p)!;
    const listener = this.options.restoreListener?.() ?? {};
    const tell = (p: GlobalPartition, call: (tp: TopicPartition, store: string) => void) => {
      try {
        call({ topic: p.topic, partition: p.partition }, this.options.updater.storeOf(p.topic));
      } catch (error) {
        throw new ChangelogRestoreError(p.topic, p.partition, 'the restore listener threw', {
          cause: error,
        });
      }
    };
    const started = Date.now();
    while (!this.stopped && this.partitions.some(pending)) {
      const fetched = await this.fetch(reader, this.partitions.filter(pending));
      for (const f of fetched) {
        const p = this.partitionOf(f);
        if (p !== undefined && !ends.has(p)) {
          const end = f.lastStableOffset >= 0 ? f.lastStableOffset : f.highWatermark;
          ends.set(p, end);
          totals.set(p, 0);
          tell(p, (tp, store) => listener.onRestoreStart?.(tp, store, p.position, end));
        }
      }
      await this.apply(fetched, (p, processed) => {
        totals.set(p, (totals.get(p) ?? 0) + processed);
        tell(p, (tp, store) => listener.onBatchRestored?.(tp, store, p.position, processed));
      });
      for (const [p, total] of totals) {
        if (pending(p)) continue;
        totals.delete(p);
        tell(p, (tp, store) => listener.onRestoreEnd?.(tp, store, total));
      }
    }
    if (this.stopped) return;
    await this.writeCheckpoint();
    this.options.logger.info(
      `global stores restored (${this.options.updater.topics().join(', ')}) in ${Date.now() - started} ms`,
    );
  }

  /**
   * Follows every partition until {@link stop}; checkpoints every `commit.interval.ms`. Never
   * rejects: a failure goes to `onError`.
   */
  private async follow(reader: AssignedPartitionReader): Promise<void> {
    try {
      while (!this.stopped) {
        await this.apply(await this.fetch(reader, this.partitions));
        if (
          this.dirty &&
          Date.now() - this.lastCheckpointAt >= this.options.config.commitIntervalMs
        ) {
          await this.writeCheckpoint();
        }
      }
    } catch (error) {
      if (this.stopped) return;
      this.failed = true;
      const failure = error instanceof Error ? error : new Error(String(error));
      this.options.logger.error(`global stores stopped updating: ${failure.message}`);
      this.options.onError(failure);
    }
  }

  /**
   * One fetch of `partitions`; `[]` after a failure that is retried (a wait first), a position
   * outside the log moved to the log start.
   *
   * @throws the fetch's error once fetches failed for longer than `task.timeout.ms`.
   */
  private async fetch(
    reader: AssignedPartitionReader,
    partitions: readonly GlobalPartition[],
  ): Promise<FetchedPartition[]> {
    try {
      const fetched = await reader.fetch(
        partitions.map(({ topic, partition, position }) => ({
          topic,
          partition,
          offset: position,
        })),
      );
      this.failingSince = undefined;
      return fetched;
    } catch (error) {
      if (this.stopped) return [];
      if (error instanceof PartitionOffsetOutOfRangeError) {
        const p = this.partitionOf(error);
        const offsets = await this.options.admin.fetchTopicOffsets(error.topic);
        const low = offsets.find((o) => o.partition === error.partition)?.low ?? 0;
        this.options.logger.warn(
          `${error.message}; reading the global topic from its log start, ${low}`,
        );
        if (p !== undefined) p.position = low;
        return [];
      }
      const now = Date.now();
      this.failingSince ??= now;
      if (now - this.failingSince >= this.options.config.taskTimeoutMs) throw error;
      const delay = this.options.retryDelayMs ?? 1000;
      this.options.logger.warn(
        `global topic read failed (${String(error)}); retrying in ${delay} ms`,
      );
      await new Promise((resolve) => setTimeout(resolve, delay));
      return [];
    }
  }

  /**
   * Hands each fetched partition's records to the updater and moves its position; then
   * `applied` with the number of records the updater processed.
   */
  private async apply(
    fetched: readonly FetchedPartition[],
    applied?: (p: GlobalPartition, processed: number) => void,
  ): Promise<void> {
    for (const f of fetched) {
      const p = this.partitionOf(f);
      if (p === undefined || f.nextOffset <= p.position) continue;
      const records = f.records.filter((r) => r.offset >= p.position);
      const processed = await this.options.updater.update(f.topic, f.partition, records);
      p.position = f.nextOffset;
      this.dirty = true;
      applied?.(p, processed);
    }
  }

  /**
   * Flushes the stores, then writes the last applied offset of every partition whose store is
   * persistent (an in-memory store restores whole at the next start).
   */
  private async writeCheckpoint(): Promise<void> {
    const { updater } = this.options;
    await updater.flush();
    await this.checkpoint.write(
      this.partitions
        .filter(({ topic }) => updater.persistent(topic))
        .map(({ topic, partition, position }) => ({ topic, partition, offset: position - 1 })),
    );
    this.lastCheckpointAt = Date.now();
    this.dirty = false;
  }

  private partitionOf(at: { topic: string; partition: number }): GlobalPartition | undefined {
    return this.partitions.find((p) => p.topic === at.topic && p.partition === at.partition);
  }
}
