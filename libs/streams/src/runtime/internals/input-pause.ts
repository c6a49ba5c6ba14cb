import type { Consumer } from 'kafkajs';

/** A kafkajs member assignment (`GROUP_JOIN`'s `memberAssignment`): partitions by topic. */
export type MemberAssignment = Readonly<Record<string, readonly number[]>>;

/**
 * Holds a member's input partitions while the tasks of its new assignment are created and
 * restored, as Kafka Streams pauses a restoring task's input: the processing consumer would
 * otherwise fetch and decode input (several MiB per partition, on the main thread) that no task
 * can process yet, while the restores need that thread. `pause` is called in the join event,
 * before kafkajs' first fetch; `resume` once the assignment is applied, unless another join
 * came since (its own resume follows its own assignment).
 */
export class InputPause {
  private joins = 0;

  /** Pauses `assignment`'s partitions; returns the resume to call once it is applied. */
  pause(consumer: Consumer, assignment: MemberAssignment): () => void {
    const partitions = Object.entries(assignment).map(([topic, ids]) => ({
      topic,
      partitions: [...ids],
    }));
    const join = ++this.joins;
    consumer.pause(partitions);
    return () => {
      if (join === this.joins) consumer.resume(partitions);
    };
  }
}
