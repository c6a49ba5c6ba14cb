import type { RecordCollector } from '../../../processor/internals/record-collector';
import type { TaskEngines } from '../../../state/internals/task-engines';
import type { EosProducer } from '../commit/eos-producer';
import type { StreamTask } from '../task/stream-task';
import type { TaskStateManager } from '../task-state/task-state-manager';
import type { TaskRestoreMetrics } from '../metrics/task-restore-metrics';

/** One running active task and what it owns (what the commit protocol drives: a `CommittingTask`). */
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
  /** What its restore did and has left (the task's restore metrics). */
  readonly restoreMetrics?: TaskRestoreMetrics;
}
