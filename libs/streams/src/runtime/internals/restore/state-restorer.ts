import { ChangelogRestoreError } from '../../../errors/changelog-restore.error';
import { CorruptRecordBatchError } from '../../../errors/corrupt-record-batch.error';
import { topicPartitionKey } from '../../../processor/topic-partition';
import { consoleStateLogger, type StateLogger } from '../../../logging/logger';
import type { StateRestoreListener } from '../../state-restore-listener';
import { PartitionOffsetOutOfRangeError } from '../../../errors/internals/partition-offset-out-of-range.error';
import type { AssignedPartitionReaderFactory } from '../../../client/assigned-partition-reader';
import type { ClusterAdmin } from '../../../client/cluster-admin';
import { CORRUPT_BATCH_FETCHES, CorruptBatchFetches } from './corrupt-batch-fetches';
import { restoreByAssignment } from './restore-by-assignment';
import { RestoreProgress, type PartitionRestore } from './restore-progress';
import type { RestoreResult, RestoreTarget } from './restore-target';
import { restoreThroughGroup } from '../../../client/kafkajs/restore-through-group';
import {
  isTransientConsumerError,
  requireThrowawayGroupClient,
  type ThrowawayGroupClient,
} from '../../../client/kafkajs/throwaway-group-consumer';
import { KafkajsClusterAdmin } from '../../../client/kafkajs/kafkajs-cluster-admin';
import { KafkajsConfirmedReads } from '../../../client/kafkajs/kafkajs-confirmed-reads';
import { fetchTopicOffsetsSettled } from '../../../client/topic-admin';

/**
 * How many times one partition may leave its log (the broker deleting the records under its
 * position) in one restore before the restore fails: each time its store is wiped and read
 * again from the log start.
 */
const LOG_START_RESTARTS = 3;

/** Options of a {@link StateRestorer}. */
export interface StateRestorerOptions {
  /**
   * kafkajs only: the client of the fallbacks, a throwaway group's consumer when `readers`
   * gives no reader and an admin per restore when `admin` is not given. The engine gives
   * `admin` and, with @platformatic/kafka (whose reader always reads by assignment), no client.
   */
  readonly kafka?: ThrowawayGroupClient;
  /** An admin client to reuse (connected); one is created per restore otherwise (kafkajs). */
  readonly admin?: ClusterAdmin;
  /**
   * Reads changelogs by assignment (no consumer group); without it, or when it gives no
   * reader, each restore runs a consumer of a throwaway group.
   */
  readonly readers?: AssignedPartitionReaderFactory;
  /** Prefix of the restore consumer's throwaway group id, e.g. the application id. */
  readonly groupIdPrefix: string;
  readonly logger?: StateLogger;
  /** Fetch size per partition; default 10 MiB. */
  readonly maxBytesPerPartition?: number;
  /** How long a fetch waits for data; default 250 ms. */
  readonly maxWaitTimeInMs?: number;
  /** Fails the restore when no partition progresses for this long; default 60 s. */
  readonly stallTimeoutMs?: number;
}

/**
 * Restores stores from their changelogs, as Kafka Streams' restore consumer does: reads each
 * changelog partition from the checkpoint + 1 (or the log start) up to the log end offset
 * captured when the restore starts, and writes every polled batch to the store's engine as
 * one write batch, bypassing caching and logging.
 *
 * It reads by assignment, as Java's restore consumer does (`assign`, `seek`, `poll`; no
 * consumer group, so a restart waits for no group join), one fetch ahead of the store writes.
 * A client that cannot read by assignment reads through a consumer of a throwaway group whose
 * assigner gives it exactly the partitions to restore.
 *
 * Compacted changelogs have offset gaps and transactional ones end with commit markers that
 * are never delivered as records: a partition is done when the consumer's position (the last
 * offset the broker returned, markers included, + 1) reaches the end offset, not when a
 * record with offset `end - 1` arrives.
 */
export class StateRestorer {
  private readonly logger: StateLogger;

  constructor(private readonly options: StateRestorerOptions) {
    this.logger = options.logger ?? consoleStateLogger;
  }

  /**
   * Restores every target, all partitions in one reader, and resolves when each reached its
   * end offset.
   *
   * A reader that fails because the cluster is unreachable or not ready is replaced by one
   * that resumes from the positions reached, for as long as `stallTimeoutMs` allows. A
   * partition whose position left its log (the broker deleted the records before it) has its
   * store wiped and restored again from the log start; the result says `wiped`.
   *
   * @throws ChangelogRestoreError when the consumer crashes for another reason, or keeps
   *   failing for `stallTimeoutMs`, a record batch is corrupt in every fetch of it (its cause
   *   a `CorruptRecordBatchError`), a store write or a listener throws, no progress is made for
   *   `stallTimeoutMs`, or `signal` aborts: the stores hold a
   *   partial restore; restart it (from the same checkpoints) or close the task dirty.
   */
  async restore(
    targets: readonly RestoreTarget[],
    options: { listener?: StateRestoreListener; signal?: AbortSignal } = {},
  ): Promise<RestoreResult[]> {
    if (targets.length === 0) return [];
    const listener = options.listener ?? {};
    const restores = await this.plan(targets);
    const pending = restores.filter((r) => !r.done);
    for (const r of pending) {
      const { topic, partition, storeName } = r.target;
      listener.onRestoreStart?.({ topic, partition }, storeName, r.start, r.end);
    }
    if (pending.length > 0) await this.consumeResuming(pending, listener, options.signal);
    return restores.map((r) => ({
      storeName: r.target.storeName,
      topic: r.target.topic,
      partition: r.target.partition,
      startOffset: r.start,
      endOffset: r.end,
      restored: r.restored,
      lastOffset: r.end > 0 ? r.end - 1 : undefined,
      wiped: r.wiped,
    }));
  }

  /** Captures start and end offsets; wipes stores whose checkpoint is outside the log. */
  private async plan(targets: readonly RestoreTarget[]): Promise<PartitionRestore[]> {
    const bounds = await this.bounds(targets.map((t) => t.topic));
    const restores: PartitionRestore[] = [];
    for (const target of targets) {
      const key = topicPartitionKey(target.topic, target.partition);
      const bound = bounds.get(key);
      if (!bound) {
        throw new ChangelogRestoreError(
          target.topic,
          target.partition,
          'the partition does not exist',
        );
      }
      let start = target.startOffset ?? bound.low;
      let wiped = false;
      if (target.startOffset !== undefined && (start < bound.low || start > bound.high)) {
        this.logger.warn(
          `store ${target.storeName}: checkpointed position ${start} is outside ${key} [${bound.low}, ${bound.high}]; wiping the store and restoring it from the log start`,
        );
        await target.wipe();
        start = bound.low;
        wiped = true;
      }
      restores.push({
        target,
        key,
        start,
        end: bound.high,
        wiped,
        position: start,
        restored: 0,
        done: start >= bound.high,
      });
    }
    return restores;
  }

  /** Each partition's log start and end (exclusive) of `topics`, keyed `topic-partition`. */
  private async bounds(
    topics: readonly string[],
  ): Promise<Map<string, { low: number; high: number }>> {
    const admin = this.options.admin ?? this.ownAdmin();
    const ownAdmin = this.options.admin === undefined;
    try {
      if (ownAdmin) await admin.connect();
      const bounds = new Map<string, { low: number; high: number }>();
      for (const topic of new Set(topics)) {
        for (const { partition, low, high } of await fetchTopicOffsetsSettled(admin, topic)) {
          bounds.set(topicPartitionKey(topic, partition), { low, high });
        }
      }
      return bounds;
    } finally {
      if (ownAdmin) await admin.disconnect();
    }
  }

  /**
   * Runs the restore consumer and, when it fails because the cluster is unreachable or not
   * ready (a group coordinator still loading after a broker start, a broker restart), starts a
   * new one from the positions reached, until `stallTimeoutMs` passes without progress. A
   * fetch that found a corrupt record batch (its CRC) is retried the same way, at most
   * {@link CORRUPT_BATCH_FETCHES} fetches of that batch in all; then the restore fails with a
   * `ChangelogRestoreError` naming the batch (nothing of it was written).
   */
  private async consumeResuming(
    pending: readonly PartitionRestore[],
    listener: StateRestoreListener,
    signal: AbortSignal | undefined,
  ): Promise<void> {
    const stallMs = this.options.stallTimeoutMs ?? 60_000;
    const positions = (): number => pending.reduce((sum, r) => sum + r.position, 0);
    let progressAt = Date.now();
    const corrupt = new CorruptBatchFetches();
    const restarts = new Map<PartitionRestore, number>();
    for (let attempt = 1; ; attempt++) {
      const before = positions();
      try {
        await this.consume(
          pending.filter((r) => !r.done),
          listener,
          signal,
        );
        return;
      } catch (error) {
        if (error instanceof PartitionOffsetOutOfRangeError && !signal?.aborted) {
          await this.restartFromLogStart(pending, error, restarts);
          progressAt = Date.now();
          continue;
        }
        if (positions() > before) progressAt = Date.now();
        const backoffMs = Math.min(200 * 2 ** (attempt - 1), 5_000);
        const corruptFetches = corrupt.count(error);
        const retry =
          !signal?.aborted &&
          (isTransientConsumerError(error) ||
            (corruptFetches > 0 && corruptFetches < CORRUPT_BATCH_FETCHES)) &&
          Date.now() + backoffMs - progressAt < stallMs;
        if (!retry && error instanceof CorruptRecordBatchError) {
          throw new ChangelogRestoreError(
            error.topic,
            error.partition,
            `${error.message}; ${corruptFetches} fetch(es) of it found it corrupt, and none of its records was written (corrupt in every fetch: corrupt in the partition's log on the broker)`,
            { cause: error },
          );
        }
        if (!retry) throw error;
        this.logger.warn(
          `restore of ${pending.length} changelog partition(s) interrupted (${describe(error)}); resuming from the positions reached in ${backoffMs} ms`,
        );
        await new Promise((resolve) => setTimeout(resolve, backoffMs));
      }
    }
  }

  private async consume(
    pending: PartitionRestore[],
    listener: StateRestoreListener,
    signal: AbortSignal | undefined,
  ): Promise<void> {
    const stallMs = this.options.stallTimeoutMs ?? 60_000;
    const progress = (onDone?: (topic: string, partition: number) => void): RestoreProgress =>
      new RestoreProgress(pending, listener, stallMs, signal, (r) =>
        onDone?.(r.target.topic, r.target.partition),
      );
    const reader = this.options.readers?.({
      maxWaitTimeMs: this.options.maxWaitTimeInMs ?? 250,
      maxBytesPerPartition: this.options.maxBytesPerPartition ?? 10_485_760,
    });
    if (reader === undefined) {
      return restoreThroughGroup(
        {
          kafka: requireThrowawayGroupClient(this.options.kafka, 'the restore through a group'),
          groupIdPrefix: this.options.groupIdPrefix,
          logger: this.logger,
          maxWaitTimeInMs: this.options.maxWaitTimeInMs ?? 250,
          maxBytesPerPartition: this.options.maxBytesPerPartition ?? 10_485_760,
          deleteGroup: (groupId) => this.deleteGroup(groupId),
        },
        progress,
      );
    }
    const pass = progress();
    try {
      await restoreByAssignment(reader, pass);
    } finally {
      pass.dispose();
      await reader.close();
    }
  }

  /**
   * A partition whose position left its log: the broker deleted the records before it (time
   * or size retention of a windowed store's changelog, `kafka-delete-records`) or the topic
   * was recreated. As Kafka Streams does with a task it finds corrupted, the store is wiped
   * and restored again from the log start, here within the same restore; the other
   * partitions resume where they were. Nothing was being written when the reader failed.
   *
   * @throws ChangelogRestoreError when the same partition left its log
   *   {@link LOG_START_RESTARTS} times in this restore (its log start moves faster than it is
   *   read), or the error's partition is not one of this restore's.
   */
  private async restartFromLogStart(
    pending: readonly PartitionRestore[],
    error: PartitionOffsetOutOfRangeError,
    restarts: Map<PartitionRestore, number>,
  ): Promise<void> {
    const r = pending.find(
      (p) => p.target.topic === error.topic && p.target.partition === error.partition,
    );
    const count = r === undefined ? 0 : (restarts.get(r) ?? 0) + 1;
    if (r === undefined || count > LOG_START_RESTARTS) {
      throw new ChangelogRestoreError(
        error.topic,
        error.partition,
        `position ${r?.position ?? error.offset} is no longer in the log${r === undefined ? '' : `, for the ${count}th time in this restore`}: the broker deletes its records faster than they are restored`,
        { cause: error },
      );
    }
    restarts.set(r, count);
    const bound = (await this.bounds([error.topic])).get(r.key);
    if (bound === undefined) {
      throw new ChangelogRestoreError(
        error.topic,
        error.partition,
        'the partition does not exist',
        {
          cause: error,
        },
      );
    }
    const low = bound.low;
    this.logger.warn(
      `store ${r.target.storeName}: restore position ${r.position} is no longer in ${r.key}: the broker deleted the records before ${low} (retention, or DeleteRecords); wiping the store and restoring it again from the log start`,
    );
    await r.target.wipe();
    r.wiped = true;
    r.start = low;
    r.position = low;
    r.restored = 0;
    r.done = low >= r.end;
  }

  /** A kafkajs admin of the fallback client, for a restorer given no `admin`. */
  private ownAdmin(): ClusterAdmin {
    const kafka = requireThrowawayGroupClient(this.options.kafka, 'a restorer with no admin');
    return new KafkajsClusterAdmin(
      kafka.admin(),
      undefined,
      undefined,
      KafkajsConfirmedReads.of(kafka),
    );
  }

  /** Removes the throwaway group (it never committed, so this is only tidiness). */
  private async deleteGroup(groupId: string): Promise<void> {
    const admin = this.options.admin ?? this.ownAdmin();
    const ownAdmin = this.options.admin === undefined;
    try {
      if (ownAdmin) await admin.connect();
      await admin.deleteGroups([groupId]);
    } catch {
      // An empty group without offsets expires on its own.
    } finally {
      if (ownAdmin) await admin.disconnect().catch(() => undefined);
    }
  }
}

function describe(error: unknown): string {
  const cause = error instanceof Error ? (error.cause ?? error) : error;
  return cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause);
}
