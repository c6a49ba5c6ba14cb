import { isAbortedTransactionError } from '../commit/commit-failure';
import type { StreamThreadOptions } from './stream-thread-options';

/**
 * Another member owns the thread's tasks now: its transactional producer fenced ours, or the
 * group coordinator refused the transaction's offsets for a stale generation (KIP-447) (the
 * member missed a rebalance, e.g. its session expired under load). Kafka Streams treats this
 * as a `TaskMigratedException`, not a fatal error: every active task is closed dirty (its
 * transaction aborted, its state wiped, so whoever owns it next restores the committed
 * changelog) and the thread's producer is replaced; the member then rejoins the group (the
 * caller's part, unless it is rejoining already). A transaction the broker aborted (Kafka
 * Streams' `TaskCorruptedException`) is recovered the same way.
 *
 * @param queued runs its argument in turn with the thread's other work.
 * @param unmapped forgets which task reads which partition (no batch reaches a closed task).
 * @throws the task manager's errors (the thread fails).
 */
export async function closeMigratedTasks(
  error: unknown,
  { tasks, logger }: Pick<StreamThreadOptions, 'tasks' | 'logger'>,
  queued: (work: () => Promise<void>) => Promise<void>,
  unmapped: () => void,
): Promise<void> {
  const message = error instanceof Error ? error.message : String(error);
  const what = isAbortedTransactionError(error) ? 'transaction aborted' : 'tasks migrated';
  logger.warn(`${what} (${message}); closing the tasks dirty and rejoining`);
  void tasks.cancelCreations();
  await queued(async () => {
    await tasks.cancelCreations();
    for (const id of tasks.taskIds()) await tasks.close(id, false);
    unmapped();
    await tasks.resetThreadProducer();
  });
}
