import type { TaskId } from '../processor/task-id';
import type { TopicPartition } from '../processor/topic-partition';

/**
 * One active task of this client, as `KafkaStreams.activeTaskMetadata()` reports it (Kafka
 * Streams' `TaskMetadata`, plus whether its stores are restored).
 */
export interface TaskMetadata {
  /** `<subtopology>_<partition>`. */
  readonly taskId: TaskId;
  /** The input partitions the task processes (physical topic names). */
  readonly topicPartitions: readonly TopicPartition[];
  /** The names of the task's state stores. */
  readonly stores: readonly string[];
  /**
   * Whether every store of the task is restored from its changelog: the task processes
   * records and answers queries only then.
   */
  readonly restored: boolean;
}
