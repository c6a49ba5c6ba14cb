import type { GroupConsumer, TopicPartitions } from '../../../client/group-consumer';

/**
 * Holds a member's input partitions while the tasks of its new assignment are created and
 * restored, as Kafka Streams pauses a restoring task's input: the processing consumer would
 * otherwise fetch and decode input (several MiB per partition, on the main thread) that no task
 * can process yet, while the restores need that thread. `pause` is called in the group
 * consumer's `onAssigned`, before its first fetch; `resume` once the assignment is applied,
 * unless another assignment came since: the latest assignment's resume resumes every partition
 * held, its own and those of the assignments it superseded (a superseded assignment never
 * resumes; a cooperative member's next assignment holds only partitions not yet mapped to a
 * task, so a partition an earlier one held would otherwise stay paused, its task never fed).
 */
export class InputPause {
  private joins = 0;
  /** Every partition paused and not resumed yet, by topic. */
  private readonly held = new Map<string, Set<number>>();

  /**
   * Pauses `partitions` of an assignment of `assigned` (all of them, or those held back);
   * returns the resume to call once the assignment is applied: it resumes every held partition
   * the assignment has.
   */
  pause(
    consumer: Pick<GroupConsumer, 'pause' | 'resume'>,
    partitions: readonly TopicPartitions[],
    assigned: readonly TopicPartitions[] = partitions,
  ): () => void {
    const join = ++this.joins;
    for (const { topic, partitions: ids } of partitions) {
      let held = this.held.get(topic);
      if (!held) this.held.set(topic, (held = new Set()));
      for (const id of ids) held.add(id);
    }
    consumer.pause(partitions);
    return () => {
      if (join !== this.joins) return;
      const resumed = assigned
        .map(({ topic, partitions: ids }) => ({
          topic,
          partitions: ids.filter((id) => this.held.get(topic)?.has(id)),
        }))
        .filter((p) => p.partitions.length > 0);
      this.held.clear(); // the others are not assigned any more: the consumer forgot them
      // Called even with nothing to resume: a consumer learns from it that the assignment
      // was applied (the streams protocol's adapter then reports its tasks as owned).
      consumer.resume(resumed);
    };
  }
}

/**
 * Waits for `ready` (settled either way), calling `heartbeat` every `intervalMs` meanwhile (its
 * errors ignored): a fetched batch waiting for its assignment keeps the member alive.
 */
export async function waitWithHeartbeats(
  ready: Promise<unknown>,
  intervalMs: number,
  heartbeat: () => Promise<void>,
): Promise<void> {
  let done = false;
  const settled = ready.then(
    () => (done = true),
    () => (done = true),
  );
  while (!done) {
    let timer: NodeJS.Timeout | undefined;
    const interval = new Promise((resolve) => (timer = setTimeout(resolve, intervalMs)));
    await Promise.race([settled, interval]);
    clearTimeout(timer); // a wait that ended early leaves no timer behind
    if (!done) await heartbeat().catch(() => undefined);
  }
}
