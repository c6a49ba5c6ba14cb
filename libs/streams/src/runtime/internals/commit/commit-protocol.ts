import { CommitFailedError } from '../../../errors/internals/commit-failed.error';
import type { KafkaRecordCollector } from '../../../processor/internals/kafka-record-collector';
import type { RecordCollector } from '../../../processor/internals/record-collector';
import type { GroupConsumer } from '../../../client/group-consumer';
import { groupOnlyMetadata, type OffsetToCommit } from '../../../client/record-producer';
import type { TaskEngines } from '../../../state/internals/task-engines';
import type { StreamTask } from '../task/stream-task';
import { commitPhase } from './commit-phases';
import type { EosProducer } from './eos-producer';
import type { TaskProducers, ThreadTransaction } from './task-producers';

/** A task as the commit protocol drives it: what each step calls (`ActiveTaskEntry` is one). */
export interface CommittingTask {
  readonly task: Pick<
    StreamTask,
    'id' | 'flushState' | 'offsetsToCommit' | 'inputPositions' | 'markCommitted'
  >;
  /** The task's changelog offsets and checkpoint (`TaskStateManager`). */
  readonly stateManager: {
    /** Under exactly-once: the acknowledged changelog offsets belong to committed transactions. */
    recordCommitted(): void;
    /** Records the acknowledged changelog offsets; starts a checkpoint when due. */
    checkpointIfNeeded(): boolean;
  };
  readonly collector: RecordCollector;
  /** The task's own transactional producer (exactly-once without KIP-447 only). */
  readonly eosProducer?: EosProducer;
  readonly engines: Pick<TaskEngines, 'commit'>;
}

/**
 * The commit protocol: what a stream thread flushes, writes, checkpoints and commits for its
 * due tasks, and in which order, under each processing guarantee. Kafka Streams' order, read
 * top to bottom in this file: this function (step 1, every guarantee), then one function per
 * guarantee (the steps after it). The due tasks (each restored) go through the thread's
 * `producers`; each is marked committed once its commit succeeded. The pieces each step calls:
 *
 * - the task, `StreamTask.flushState`: its record caches into its stores, whose change-logging
 *   layers hand each changelog record to the task's record collector; the RocksDB engine below
 *   is not flushed (at-least-once its layer writes behind; under exactly-once the writes wait in
 *   the engines' pending batches, see `TransactionalBytesStore`);
 * - the record collector, `flush`: every changelog and output record sent and acknowledged;
 * - the task's state manager, `checkpointIfNeeded`: the acknowledged changelog offsets, and,
 *   when they moved more than 10,000 records since the last checkpoint, a checkpoint in the
 *   background: the offsets taken, then the engines flushed (`TaskEngines.flush`: memtables to
 *   files, the writes held behind first), then the `.checkpoint` file written;
 * - the task's engines, `TaskEngines.commit` (exactly-once): the transaction's writes into RocksDB;
 * - the group consumer's `commitOffsets`, or the transaction's offsets and end (`EosProducer`).
 *
 * When is a write durable? The rule every step keeps:
 *
 * - A store write is recoverable once its changelog record is acknowledged: a restore replays
 *   it. Input offsets are committed only after that, so no input record counts as consumed
 *   before the state it made can be restored.
 * - A store write is in the RocksDB files only after a checkpoint's engine flush, and the
 *   checkpoint names the changelog offsets taken before that flush: it never claims more than
 *   the files hold (there is no write-ahead log), so a restart restores the changelog's tail
 *   after it.
 * - at_least_once: a crash between two steps reprocesses the input after the last committed
 *   offsets: duplicates, never a lost update.
 * - exactly_once_v2: output records, changelog records and input offsets commit in one Kafka
 *   transaction (the thread's with KIP-447, else the task's); store writes reach RocksDB only
 *   once it committed, and the checkpoint records committed transactions' offsets only. RocksDB
 *   and the checkpoint then hold committed state only: a crash anywhere restores the committed
 *   tail after the checkpoint and reprocesses the input after the committed offsets, and an
 *   aborted transaction's writes are dropped with it.
 *
 * Each step reports its phase (`commit-phases.ts`) to the fault-injection hook of the tests.
 *
 * @param restored every restored task of the thread, read once the caches are flushed: under
 *   one transaction per thread, their store writes all wait for it.
 * @throws the producer's or the consumer's errors (see the function of each guarantee).
 */
export async function commitTasks(
  due: readonly CommittingTask[],
  producers: Pick<
    TaskProducers,
    'exactlyOnce' | 'applicationId' | 'collector' | 'threadTransaction'
  >,
  restored: () => readonly CommittingTask[],
  consumer: Pick<GroupConsumer, 'commitOffsets' | 'groupMetadata'>,
): Promise<void> {
  // 1. The record caches into the stores (their changelog records into the collectors).
  for (const entry of due) {
    await entry.task.flushState();
    commitPhase('caches-flushed', entry.task.id.toString());
  }
  const transaction = producers.threadTransaction();
  if (transaction) {
    await commitInThreadTransaction(transaction, due, restored(), consumer);
  } else if (producers.exactlyOnce) {
    await commitInTaskTransactions(due, producers.applicationId);
  } else {
    await commitAfterCheckpoints(producers.collector(), due, consumer);
  }
}

/**
 * At-least-once: every record acknowledged, checkpoints written when due, then the input
 * offsets committed by the group consumer (a refusal is a CommitFailedError: the caller keeps
 * them pending and rejoins).
 */
export async function commitAfterCheckpoints(
  collector: KafkaRecordCollector,
  due: readonly CommittingTask[],
  consumer: Pick<GroupConsumer, 'commitOffsets'>,
): Promise<void> {
  // 2. Every changelog and output record acknowledged (the shared idempotent producer's).
  await collector.flush();
  for (const entry of due) {
    commitPhase('producer-flushed', entry.task.id.toString());
    // 3. The acknowledged changelog offsets recorded; a checkpoint started when due.
    entry.stateManager.checkpointIfNeeded();
  }
  // 4. The input offsets, grouped by topic, in the order of each topic's first partition.
  const offsets = due.flatMap((e) => e.task.offsetsToCommit());
  if (offsets.length > 0) {
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
  due: readonly CommittingTask[],
  applicationId: string,
): Promise<void> {
  const results = await Promise.allSettled(
    due.map(async (entry) => {
      const taskId = entry.task.id.toString();
      // 2. The task's records acknowledged (sent in its open transaction).
      await entry.collector.flush();
      commitPhase('producer-flushed', taskId);
      // 3. The task's input offsets into its transaction (for the group), and its end.
      await entry.eosProducer!.commit(
        entry.task.offsetsToCommit(),
        groupOnlyMetadata(applicationId),
      );
      commitPhase('transaction-committed', taskId);
      // 4. The transaction's store writes into RocksDB; its changelog offsets are committed ones.
      await entry.engines.commit();
      entry.stateManager.recordCommitted();
      commitPhase('state-committed', taskId);
      // 5. A checkpoint of committed state started when due.
      entry.task.markCommitted();
      entry.stateManager.checkpointIfNeeded();
    }),
  );
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed !== undefined) throw failed.reason;
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
  due: readonly CommittingTask[],
  restored: readonly CommittingTask[],
  consumer: Pick<GroupConsumer, 'groupMetadata'>,
): Promise<void> {
  const { producer, collector, applicationId } = transaction;
  // 2. Every task's records acknowledged (sent in the thread's open transaction).
  await collector.flush();
  for (const entry of due) commitPhase('producer-flushed', entry.task.id.toString());
  // 3. The input offsets into the transaction, with the member's generation, and its end.
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
  // 4. Every restored task's store writes into RocksDB; its changelog offsets are committed ones.
  for (const entry of restored) {
    await entry.engines.commit();
    entry.stateManager.recordCommitted();
  }
  // 5. A checkpoint of committed state started when due.
  for (const entry of due) {
    commitPhase('state-committed', entry.task.id.toString());
    entry.task.markCommitted();
    entry.stateManager.checkpointIfNeeded();
  }
}
