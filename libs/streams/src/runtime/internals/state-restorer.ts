import { randomUUID } from 'node:crypto';
import type { Admin, EachBatchPayload, Kafka } from 'kafkajs';
import { ChangelogRestoreError } from '../../errors/changelog-restore.error';
import { topicPartitionKey } from '../../processor/topic-partition';
import type { ChangelogRecord } from '../../processor/state-store-context';
import { consoleStateLogger, type StateLogger } from '../state-logger';
import type { StateRestoreListener } from '../state-restore-listener';
import { fixedAssigner, isTransientConsumerError } from './throwaway-group-consumer';
import { fetchTopicOffsetsSettled } from './topic-admin';

/** One store's changelog partition to restore. */
export interface RestoreTarget {
  readonly storeName: string;
  readonly topic: string;
  readonly partition: number;
  /** The first offset to read (checkpoint + 1); undefined reads from the log start. */
  readonly startOffset: number | undefined;
  /** Writes one polled batch to the engine as one write batch (no caching, no logging). */
  restoreBatch(records: readonly ChangelogRecord[]): void | Promise<void>;
  /** Empties the store (when its checkpoint is outside the log: a full restore follows). */
  wipe(): Promise<void>;
}

/** How one partition's restore went. */
export interface RestoreResult {
  readonly storeName: string;
  readonly topic: string;
  readonly partition: number;
  /** The first offset read. */
  readonly startOffset: number;
  /** The log end offset captured at the start (exclusive). */
  readonly endOffset: number;
  /** Records written to the store. */
  readonly restored: number;
  /**
   * The offset the store is now consistent with (`endOffset - 1`), for the checkpoint;
   * undefined when the changelog has never had a record.
   */
  readonly lastOffset: number | undefined;
  /** The store was wiped first (its checkpoint was outside the log). */
  readonly wiped: boolean;
}

/** Options of a {@link StateRestorer}. */
export interface StateRestorerOptions {
  readonly kafka: Kafka;
  /** An admin client to reuse (connected); one is created per restore otherwise. */
  readonly admin?: Admin;
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

interface PartitionRestore {
  readonly target: RestoreTarget;
  readonly key: string;
  readonly start: number;
  readonly end: number;
  readonly wiped: boolean;
  position: number;
  restored: number;
  done: boolean;
}

/**
 * Restores stores from their changelogs, as Kafka Streams' restore consumer does: reads each
 * changelog partition from the checkpoint + 1 (or the log start) up to the log end offset
 * captured when the restore starts, and writes every polled batch to the store's engine as
 * one write batch, bypassing caching and logging.
 *
 * kafkajs has no manual partition assignment (`assign`) and a consumer always belongs to a
 * group, so each restore runs one consumer in a throwaway group of its own (never committing,
 * deleted afterwards) whose assigner gives it exactly the partitions to restore; it seeks to
 * each start offset and pauses each partition once done.
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
   * Restores every target, all partitions in one consumer, and resolves when each reached its
   * end offset.
   *
   * A consumer that fails because the cluster is unreachable or not ready is replaced by one
   * that resumes from the positions reached, for as long as `stallTimeoutMs` allows.
   *
   * @throws ChangelogRestoreError when the consumer crashes for another reason, or keeps
   *   failing for `stallTimeoutMs`, a store write or a listener throws, no progress is made for
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
    const admin = this.options.admin ?? this.options.kafka.admin();
    const ownAdmin = this.options.admin === undefined;
    try {
      if (ownAdmin) await admin.connect();
      const bounds = new Map<string, { low: number; high: number }>();
      for (const topic of new Set(targets.map((t) => t.topic))) {
        for (const { partition, low, high } of await fetchTopicOffsetsSettled(admin, topic)) {
          bounds.set(topicPartitionKey(topic, partition), { low: Number(low), high: Number(high) });
        }
      }
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
    } finally {
      if (ownAdmin) await admin.disconnect();
    }
  }

  /**
   * Runs the restore consumer and, when it fails because the cluster is unreachable or not
   * ready (a group coordinator still loading after a broker start, a broker restart), starts a
   * new one from the positions reached, until `stallTimeoutMs` passes without progress.
   */
  private async consumeResuming(
    pending: readonly PartitionRestore[],
    listener: StateRestoreListener,
    signal: AbortSignal | undefined,
  ): Promise<void> {
    const stallMs = this.options.stallTimeoutMs ?? 60_000;
    const positions = (): number => pending.reduce((sum, r) => sum + r.position, 0);
    let progressAt = Date.now();
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
        if (positions() > before) progressAt = Date.now();
        const backoffMs = Math.min(200 * 2 ** (attempt - 1), 5_000);
        const retry =
          !signal?.aborted &&
          isTransientConsumerError(error) &&
          Date.now() + backoffMs - progressAt < stallMs;
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
    const { kafka } = this.options;
    const groupId = `${this.options.groupIdPrefix}-restore-${randomUUID()}`;
    const byKey = new Map(pending.map((r) => [r.key, r]));
    const assignment: Record<string, number[]> = {};
    for (const r of pending) (assignment[r.target.topic] ??= []).push(r.target.partition);

    const consumer = kafka.consumer({
      groupId,
      partitionAssigners: [fixedAssigner(assignment)],
      allowAutoTopicCreation: false,
      readUncommitted: false,
      maxWaitTimeInMs: this.options.maxWaitTimeInMs ?? 250,
      maxBytesPerPartition: this.options.maxBytesPerPartition ?? 10_485_760,
      retry: { retries: 5, restartOnFailure: async () => false },
    });

    let remaining = pending.length;
    let lastProgress = Date.now();
    let settle: { resolve: () => void; reject: (error: Error) => void } | undefined;
    const finished = new Promise<void>((resolve, reject) => {
      settle = { resolve, reject };
    });
    finished.catch(() => undefined); // awaited below unless the start fails first
    let failure: Error | undefined;
    const fail = (r: PartitionRestore | undefined, message: string, cause?: unknown): void => {
      if (failure) return;
      const topic = r?.target.topic ?? pending[0].target.topic;
      const partition = r?.target.partition ?? pending[0].target.partition;
      failure = new ChangelogRestoreError(topic, partition, message, { cause });
      settle?.reject(failure);
    };
    const advance = (r: PartitionRestore, lastOffset: number): void => {
      if (r.done || lastOffset + 1 <= r.position) return;
      r.position = lastOffset + 1;
      lastProgress = Date.now();
      if (r.position < r.end) return;
      r.done = true;
      consumer.pause([{ topic: r.target.topic, partitions: [r.target.partition] }]);
      try {
        listener.onRestoreEnd?.(
          { topic: r.target.topic, partition: r.target.partition },
          r.target.storeName,
          r.restored,
        );
      } catch (error) {
        fail(r, 'the restore listener failed', error);
        return;
      }
      if (--remaining === 0) settle?.resolve();
    };

    const eachBatch = async ({ batch }: EachBatchPayload): Promise<void> => {
      const r = byKey.get(topicPartitionKey(batch.topic, batch.partition));
      if (r === undefined || r.done || failure) return;
      const records: ChangelogRecord[] = [];
      let lastApplied = -1;
      for (const message of batch.messages) {
        const offset = Number(message.offset);
        if (offset < r.position) continue; // before the seek took effect
        if (offset >= r.end) break; // past the end captured at the start
        if (message.key === null) continue; // not a store record
        records.push(message as ChangelogRecord);
        lastApplied = offset;
      }
      if (records.length > 0) {
        try {
          // Awaited: while RocksDB writes this batch on its pool, the next fetch is decoded.
          await r.target.restoreBatch(records);
          if (failure) return;
          r.restored += records.length;
          listener.onBatchRestored?.(
            { topic: r.target.topic, partition: r.target.partition },
            r.target.storeName,
            lastApplied,
            records.length,
          );
        } catch (error) {
          fail(r, `writing a batch to store ${r.target.storeName} failed`, error);
          return;
        }
      }
      advance(r, Math.min(Number(batch.lastOffset()), r.end - 1));
    };

    // Batches of only control records (transaction markers) or aborted records never reach
    // eachBatch, but still move the position: follow them through the instrumentation event.
    consumer.on(consumer.events.END_BATCH_PROCESS, ({ payload }) => {
      const r = byKey.get(topicPartitionKey(payload.topic, payload.partition));
      if (r !== undefined && !failure) advance(r, Math.min(Number(payload.lastOffset), r.end - 1));
    });
    consumer.on(consumer.events.CRASH, ({ payload }) =>
      fail(undefined, 'the restore consumer crashed', payload.error),
    );

    const onAbort = (): void => fail(undefined, 'the restore was aborted');
    signal?.addEventListener('abort', onAbort, { once: true });
    const stallCheck = setInterval(
      () => {
        const stall = this.options.stallTimeoutMs ?? 60_000;
        if (Date.now() - lastProgress < stall) return;
        const stuck = pending.find((r) => !r.done);
        fail(
          stuck,
          `no progress for ${stall} ms (position ${stuck?.position}, end offset ${stuck?.end})`,
        );
      },
      Math.min(1000, this.options.stallTimeoutMs ?? 1000),
    );
    stallCheck.unref();

    try {
      if (signal?.aborted)
        throw new ChangelogRestoreError(
          pending[0].target.topic,
          pending[0].target.partition,
          'the restore was aborted',
        );
      await consumer.connect();
      await consumer.subscribe({ topics: Object.keys(assignment), fromBeginning: true });
      await consumer.run({ autoCommit: false, eachBatch });
      // A consumer that crashed joining its group (reported through CRASH) cannot seek.
      if (failure) throw failure;
      for (const r of pending) {
        consumer.seek({
          topic: r.target.topic,
          partition: r.target.partition,
          offset: String(r.position),
        });
      }
      lastProgress = Date.now();
      await finished;
    } finally {
      clearInterval(stallCheck);
      signal?.removeEventListener('abort', onAbort);
      await consumer.disconnect().catch((error: unknown) => {
        this.logger.warn(
          `restore consumer ${groupId} did not disconnect cleanly: ${String(error)}`,
        );
      });
      await this.deleteGroup(groupId);
    }
  }

  /** Removes the throwaway group (it never committed, so this is only tidiness). */
  private async deleteGroup(groupId: string): Promise<void> {
    const admin = this.options.admin ?? this.options.kafka.admin();
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
