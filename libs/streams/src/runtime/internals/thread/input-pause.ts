import type { GroupConsumer, TopicPartitions } from '../../../client/group-consumer';

/**
 * Holds a member's input partitions while the tasks of its new assignment are created and
 * restored, as Kafka Streams pauses a restoring task's input: the processing consumer would
 * otherwise fetch and decode input (several MiB per partition, on the main thread) that no task
 * can process yet, while the restores need that thread. `pause` is called in the group
 * consumer's `onAssigned`, before its first fetch; `resume` once the assignment is applied,
 * unless another assignment came since (its own resume follows its own application).
 */
export class InputPause {
  private joins = 0;

  /** Pauses `partitions`; returns the resume to call once the assignment is applied. */
  pause(
    consumer: Pick<GroupConsumer, 'pause' | 'resume'>,
    partitions: readonly TopicPartitions[],
  ): () => void {
    const join = ++this.joins;
    consumer.pause(partitions);
    return () => {
      if (join === this.joins) consumer.resume(partitions);
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
    await Promise.race([settled, new Promise((r) => setTimeout(r, intervalMs))]);
    if (!done) await heartbeat().catch(() => undefined);
  }
}
