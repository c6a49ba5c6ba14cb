import type { ActiveTaskManager } from '../active-tasks/active-task-manager';
import type { TopicPartitions } from '../../../client/group-consumer';

const key = (topic: string, partition: number): string => `${topic}\u0000${partition}`;

/**
 * Which of a stream thread's active tasks reads each input partition: only restored tasks are
 * mapped, so a batch never reaches a task still restoring.
 */
export class ThreadTaskMap {
  private readonly byPartition = new Map<string, string>();

  constructor(private readonly tasks: Pick<ActiveTaskManager, 'get'>) {}

  /** The task reading `topic`-`partition`, if one does. */
  taskOf(topic: string, partition: number): string | undefined {
    return this.byPartition.get(key(topic, partition));
  }

  clear(): void {
    this.byPartition.clear();
  }

  /** Maps the input partitions of those of `taskIds` that are open and restored to them. */
  map(taskIds: readonly string[]): void {
    for (const id of taskIds) {
      const entry = this.tasks.get(id);
      if (!entry?.restored) continue;
      for (const { topic, partition } of entry.partitions)
        this.byPartition.set(key(topic, partition), id);
    }
  }

  /** The partitions of `partitions` that no task reads, dropping emptied topics. */
  unmapped(partitions: readonly TopicPartitions[]): TopicPartitions[] {
    return partitions
      .map((p) => ({
        topic: p.topic,
        partitions: p.partitions.filter((n) => !this.byPartition.has(key(p.topic, n))),
      }))
      .filter((p) => p.partitions.length > 0);
  }
}
