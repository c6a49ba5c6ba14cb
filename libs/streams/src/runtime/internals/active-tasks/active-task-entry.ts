import type { RecordCollector } from '../../../processor/internals/record-collector';
import type { TaskEngines } from '../../../state/internals/task-engines';
import type { EosProducer } from '../commit/eos-producer';
import type { StreamTask } from '../task/stream-task';
import type { TaskStateManager } from '../task-state/task-state-manager';

/** The coordinator's timeout of a task's open transaction (kept from the kafkajs producer's). */
export const EOS_TRANSACTION_TIMEOUT_MS = 60_000;
/**
 * The coordinator's timeout of a thread's open transaction: Kafka Streams' `transaction.timeout.ms`
 * under exactly-once (10 s). A zombie's open transaction holds back the last stable offset of
 * every partition it wrote to, which the next owner's restore and stable offset read wait for.
 */
export const THREAD_TRANSACTION_TIMEOUT_MS = 10_000;

/** One running active task and what it owns. */
export interface ActiveTaskEntry {
  readonly task: StreamTask;
  readonly stateManager: TaskStateManager;
  readonly collector: RecordCollector;
  /** The task's own transactional producer (exactly-once without KIP-447 only). */
  readonly eosProducer?: EosProducer;
  /**
   * The task's persistent engines (its stores find them in their configs): flushed before
   * checkpoints and, under exactly-once, committed with the task's transactions.
   */
  readonly engines: TaskEngines;
  /** Input partitions of the task (physical topics). */
  readonly partitions: readonly { topic: string; partition: number }[];
  /** Its creation ended: stores restored, processors initialized (see ActiveTaskManager.create). */
  restored: boolean;
}
