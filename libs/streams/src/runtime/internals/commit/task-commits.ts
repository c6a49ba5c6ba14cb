import { CommitFailedError } from '../../../errors/internals/commit-failed.error';
import type { KafkaRecordCollector } from '../../../processor/internals/kafka-record-collector';
import type { ActiveTaskEntry } from '../active-tasks/active-task-entry';
import { commitPhase } from './commit-phases';
import type { EosProducer } from './eos-producer';
import type { GroupConsumer } from '../../../client/group-consumer';
import { groupOnlyMetadata, type OffsetToCommit } from '../../../client/record-producer';

// The three ways a stream thread commits its due tasks (their caches already flushed), in
// Kafka Streams' order. Each marks the tasks committed only once their commit succeeded.

/**
 * At-least-once: every record acknowledged, checkpoints written when due, then the input
 * offsets committed by the group consumer (a refusal is a CommitFailedError: the caller keeps
 * them pending and rejoins).
 */
export async function commitAfterCheckpoints(
  collector: KafkaRecordCollector,
  due: readonly ActiveTaskEntry[],
  consumer: Pick<GroupConsumer, 'commitOffsets'>,
): Promise<void> {
  await collector.flush();
  for (const entry of due) {
    commitPhase('producer-flushed', entry.task.id.toString());
    entry.stateManager.checkpointIfNeeded();
  }
  const offsets = due.flatMap((e) => e.task.offsetsToCommit());
  if (offsets.length > 0) {
    // Grouped by topic, in the order of each topic's first partition.
    const topics = new Map<string, OffsetToCommit[]>();
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
}

/**
 * Exactly-once without KIP-447: every task commits its own transaction with its own producer.
 * Independent, so all at once (the commit costs one task's round trips, not one per task). A
 * failure is thrown after the others settled; the tasks that committed are marked so. A task
 * whose transaction did not commit keeps its writes pending: it is closed dirty, which drops
 * them.
 */
export async function commitInTaskTransactions(
  due: readonly ActiveTaskEntry[],
  applicationId: string,
): Promise<void> {
  const results = await Promise.allSettled(
    due.map(async (entry) => {
      const taskId = entry.task.id.toString();
      await entry.collector.flush();
      commitPhase('producer-flushed', taskId);
      await entry.eosProducer!.commit(
        entry.task.offsetsToCommit(),
        groupOnlyMetadata(applicationId),
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
}

/** The thread's transaction under exactly-once with KIP-447. */
export interface ThreadTransaction {
  readonly producer: EosProducer;
  /** The collector over {@link producer}, shared by the thread's tasks. */
  readonly collector: KafkaRecordCollector;
  readonly applicationId: string;
}

/**
 * Exactly-once with KIP-447: the due tasks' output, changelog records and offsets in the
 * thread's one transaction, committed with the member's generation; then every restored task's
 * store writes go to RocksDB (a task's cache may have been flushed by another's eviction). A
 * transaction without offsets to commit (output of punctuations only) still sends the tasks'
 * positions again: the coordinator checks the generation of every transaction, so a zombie's
 * never commits.
 *
 * @throws CommitFailedError when the coordinator refused the generation, or the thread is not
 *   a member; ProducerFencedError; TransactionAbortedError: the tasks migrated or the
 *   transaction failed; the caller closes every task dirty (which aborts it) and rejoins.
 */
export async function commitInThreadTransaction(
  transaction: ThreadTransaction,
  due: readonly ActiveTaskEntry[],
  restored: readonly ActiveTaskEntry[],
  consumer: Pick<GroupConsumer, 'groupMetadata'>,
): Promise<void> {
  const { producer, collector, applicationId } = transaction;
  await collector.flush();
  for (const entry of due) commitPhase('producer-flushed', entry.task.id.toString());
  let offsets: OffsetToCommit[] = due.flatMap((e) => e.task.offsetsToCommit());
  if (offsets.length === 0 && producer.inTransaction) {
    offsets = restored.flatMap((e) => e.task.inputPositions());
  }
  const group = consumer.groupMetadata();
  if (group === undefined) {
    throw new CommitFailedError(applicationId, {
      cause: new Error('the thread is not a member of the group'),
    });
  }
  await producer.commit(offsets, group);
  for (const entry of due) commitPhase('transaction-committed', entry.task.id.toString());
  for (const entry of restored) {
    await entry.engines.commit();
    entry.stateManager.recordCommitted();
  }
  for (const entry of due) {
    commitPhase('state-committed', entry.task.id.toString());
    entry.task.markCommitted();
    entry.stateManager.checkpointIfNeeded();
  }
}
