import { randomUUID } from 'node:crypto';
// kafkajs only (the fallback when its reader by assignment cannot be made): @platformatic/kafka
// always reads by assignment and never comes here.
import type { EachBatchPayload, KafkaMessage } from 'kafkajs';
import type { StateLogger } from '../../logging/logger';
import { topicPartitionKey } from '../../processor/topic-partition';
import { throwawayGroupConsumer, type ThrowawayGroupClient } from './throwaway-group-consumer';

/** One changelog partition a restore through a group reads: where it is, where it ends. */
export interface GroupRestorePartition {
  readonly key: string;
  readonly target: { readonly topic: string; readonly partition: number };
  /** The next offset to apply. */
  readonly position: number;
  /** The log end offset captured at the start (exclusive). */
  readonly end: number;
}

/**
 * The bookkeeping of one restore pass that a restore through a group reports to (the engine's
 * `RestoreProgress`): it applies the fetched records, moves positions and settles `finished`.
 */
export interface GroupRestoreProgress<P extends GroupRestorePartition> {
  readonly pending: readonly P[];
  /** The pass's first failure, once it failed. */
  readonly failure: Error | undefined;
  /** Resolves when every partition is done; rejects with the pass's first failure. */
  readonly finished: Promise<void>;
  /** Applies one fetched batch of `r` whose last offset is `lastOffset`. */
  apply(r: P, fetched: readonly KafkaMessage[], lastOffset: number): Promise<void>;
  /** Moves the position of `r` past `lastOffset` (markers and aborted records only). */
  advance(r: P, lastOffset: number): void;
  /** Fails the pass (`r`: the partition it failed on, when known). */
  fail(r: P | undefined, message: string, cause?: unknown): void;
  /** Restarts the stall clock (the reader is ready to fetch). */
  touch(): void;
  /** Stops the pass's timers and listeners. */
  dispose(): void;
}

/** What {@link restoreThroughGroup} reads with. */
export interface GroupRestoreOptions {
  readonly kafka: ThrowawayGroupClient;
  readonly groupIdPrefix: string;
  readonly logger: StateLogger;
  readonly maxWaitTimeInMs: number;
  readonly maxBytesPerPartition: number;
  /** Removes the throwaway group afterwards. */
  deleteGroup(groupId: string): Promise<void>;
}

/**
 * One restore pass through a kafkajs consumer of a throwaway group (never committing, deleted
 * afterwards) whose assigner gives it exactly the partitions to restore: it seeks each to its
 * position and pauses it once done. The path for a kafkajs whose internals the reader by
 * assignment cannot use; every restart waits for the group's join and sync.
 *
 * @throws ChangelogRestoreError (or the consumer's error) as the progress fails.
 */
export async function restoreThroughGroup<P extends GroupRestorePartition>(
  options: GroupRestoreOptions,
  createProgress: (
    onPartitionDone: (topic: string, partition: number) => void,
  ) => GroupRestoreProgress<P>,
): Promise<void> {
  const groupId = `${options.groupIdPrefix}-restore-${randomUUID()}`;
  let pause: (topic: string, partition: number) => void = () => undefined;
  const progress = createProgress((topic, partition) => pause(topic, partition));
  const { pending } = progress;
  const byKey = new Map(pending.map((r) => [r.key, r]));
  const assignment: Record<string, number[]> = {};
  for (const r of pending) (assignment[r.target.topic] ??= []).push(r.target.partition);

  const consumer = throwawayGroupConsumer(options.kafka, assignment, {
    groupId,
    maxWaitTimeInMs: options.maxWaitTimeInMs,
    maxBytesPerPartition: options.maxBytesPerPartition,
    retry: { retries: 5, restartOnFailure: async () => false },
  });
  pause = (topic, partition) => consumer.pause([{ topic, partitions: [partition] }]);

  const eachBatch = async ({ batch }: EachBatchPayload): Promise<void> => {
    const r = byKey.get(topicPartitionKey(batch.topic, batch.partition));
    if (r === undefined) return;
    await progress.apply(r, batch.messages, Number(batch.lastOffset()));
  };
  // Batches of only control records (transaction markers) or aborted records never reach
  // eachBatch, but still move the position: follow them through the instrumentation event.
  consumer.on(consumer.events.END_BATCH_PROCESS, ({ payload }) => {
    const r = byKey.get(topicPartitionKey(payload.topic, payload.partition));
    if (r !== undefined) progress.advance(r, Math.min(Number(payload.lastOffset), r.end - 1));
  });
  consumer.on(consumer.events.CRASH, ({ payload }) =>
    progress.fail(undefined, 'the restore consumer crashed', payload.error),
  );

  try {
    if (progress.failure) throw progress.failure;
    await consumer.connect();
    await consumer.subscribe({ topics: Object.keys(assignment), fromBeginning: true });
    await consumer.run({ autoCommit: false, eachBatch });
    // A consumer that crashed joining its group (reported through CRASH) cannot seek.
    if (progress.failure) throw progress.failure;
    for (const r of pending) {
      consumer.seek({
        topic: r.target.topic,
        partition: r.target.partition,
        offset: String(r.position),
      });
    }
    progress.touch();
    await progress.finished;
  } finally {
    progress.dispose();
    await consumer.disconnect().catch((error: unknown) => {
      options.logger.warn(
        `restore consumer ${groupId} did not disconnect cleanly: ${String(error)}`,
      );
    });
    await options.deleteGroup(groupId);
  }
}
