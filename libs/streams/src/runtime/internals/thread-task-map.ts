import type { ActiveTaskManager } from './active-task-manager';
import type { TopicPartitions } from './group-consumer';

const key = (topic: string, partition: number): string => `${topic}\u0000${partition}`;

/**
 * Which of a stream thread's active tasks reads each input partition, and the creation of the
 * latest assignment's new tasks when it runs beside processing (cooperative rebalancing): code
 * that closes tasks waits for it first ({@link creation}).
 */
export class ThreadTaskMap {
  private readonly byPartition = new Map<string, string>();
  private creating: Promise<void> = Promise.resolve();

  constructor(private readonly tasks: Pick<ActiveTaskManager, 'get'>) {}

  /** The task reading `topic`-`partition`, if one does. */
  taskOf(topic: string, partition: number): string | undefined {
    return this.byPartition.get(key(topic, partition));
  }

  clear(): void {
    this.byPartition.clear();
  }

  /** Maps the input partitions of these existing tasks to them. */
  map(taskIds: readonly string[]): void {
    for (const id of taskIds) {
      for (const { topic, partition } of this.tasks.get(id)!.partitions)
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

  /** Records a creation running beside processing (its failure is reported by its caller). */
  creatingBeside(creation: Promise<void>): void {
    this.creating = creation.catch(() => undefined);
  }

  /** Settles once the creation running beside processing (if any) ended, either way. */
  creation(): Promise<void> {
    return this.creating;
  }
}
