import type { ConsumedRecord } from '../../../client/consumed-record';
import { RecordQueue } from './record-queue';
import { TopicPartitionTable } from './topic-partition-table';

/** `max.task.idle.ms` = -1: a task never waits for its empty partitions. */
export const MAX_TASK_IDLE_MS_DISABLED = -1;

/**
 * The processing consumer's lag of an input partition as of its latest fetch (Java's
 * `Consumer.currentLag`): the records the broker holds for it that were not handed to the task
 * yet; `undefined` while unknown (no fetch answered for the partition yet).
 */
export type PartitionLag = (topic: string, partition: number) => number | undefined;

/** The position a partition's fetched batch ends at: where its task's position moves once drained. */
export interface DrainedPosition {
  readonly topic: string;
  readonly partition: number;
  /** The offset of the batch's last record. */
  readonly lastRecordOffset: number;
  /** The fetch's next offset (past any transaction marker after that record). */
  readonly nextOffset: number;
}

/** What {@link PartitionGroup} counts: the task's `enforced-processing` records. */
export interface EnforcedProcessingCounter {
  enforcedProcessing: number;
}

type Readiness = 'ready' | 'enforced' | 'waiting';

/**
 * The records a task was handed and has not processed, one queue per input partition, and the
 * order it processes them in (Kafka Streams' `PartitionGroup`): the record with the lowest
 * timestamp at the head of a queue first, each partition in offset order.
 *
 * A task with several input partitions (a join, a merge, several source topics) processes only
 * while every partition has records buffered, so that it sees its inputs in timestamp order.
 * While some are empty, `max.task.idle.ms` decides (KIP-353, KIP-695):
 * - an empty partition whose lag is unknown (not fetched yet) or above 0 (the broker holds
 *   records not handed over yet) is waited for, however long: its records come with a fetch;
 * - an empty partition whose lag is 0 (nothing more on the broker) is waited for up to
 *   `max.task.idle.ms` from when the task first found it so, in case new records are produced;
 *   then the task processes what it has, possibly out of timestamp order ("enforced
 *   processing", counted per record in {@link EnforcedProcessingCounter.enforcedProcessing});
 *   with the default 0 it does not wait for records not produced yet;
 * - `-1` ({@link MAX_TASK_IDLE_MS_DISABLED}): never waits; whatever is buffered is processed.
 *
 * Orders by the timestamp the record was fetched with (a custom timestamp extractor's value is
 * computed later, when the record is deserialized).
 */
export class PartitionGroup {
  private readonly queues: RecordQueue[] = [];
  private readonly byPartition = new TopicPartitionTable<RecordQueue>();
  /** When the task stops waiting for an empty partition with no lag. */
  private readonly deadlines = new Map<RecordQueue, number>();
  /** Per partition, where the latest batch ends: applied once its queue drained. */
  private readonly batchEnds = new Map<RecordQueue, DrainedPosition>();
  private buffered = 0;

  /**
   * @param partitions the task's input partitions (physical topic names).
   * @param maxTaskIdleMs `max.task.idle.ms`: -1, 0 or more.
   * @param counter where records processed by enforcement are counted (the task's metrics).
   */
  constructor(
    partitions: readonly { topic: string; partition: number }[],
    private readonly maxTaskIdleMs: number,
    private readonly counter: EnforcedProcessingCounter,
  ) {
    for (const { topic, partition } of partitions) {
      if (this.byPartition.get(topic, partition)) continue;
      const queue = new RecordQueue(topic, partition);
      this.queues.push(queue);
      this.byPartition.set(topic, partition, queue);
    }
  }

  /** The records held, all partitions together. */
  get size(): number {
    return this.buffered;
  }

  /** The records held of one partition (0 for a partition not of this task). */
  sizeOf(topic: string, partition: number): number {
    return this.byPartition.get(topic, partition)?.size ?? 0;
  }

  /**
   * Adds a fetched batch of one input partition (records in offset order, after those held).
   *
   * @param nextOffset where the fetch of the partition goes on from (see
   *   {@link DrainedPosition.nextOffset}).
   * @throws Error when the partition is not one of the task's (a bug of the caller).
   */
  add(topic: string, partition: number, records: readonly ConsumedRecord[], nextOffset: number) {
    const queue = this.byPartition.get(topic, partition);
    if (!queue) throw new Error(`${topic}-${partition} is not an input partition of this task`);
    if (records.length === 0) return;
    queue.push(records);
    this.buffered += records.length;
    const lastRecordOffset = records[records.length - 1].offset;
    this.batchEnds.set(queue, { topic, partition, lastRecordOffset, nextOffset });
  }

  /**
   * Takes up to `max` records the task may process at `now`, in processing order; fewer (or
   * none) when it must wait for an empty partition (see the class). `lag` tells how far behind
   * the broker each partition's fetch is.
   */
  take(now: number, max: number, lag: PartitionLag): ConsumedRecord[] {
    const out: ConsumedRecord[] = [];
    if (this.queues.length === 1) {
      // One partition: its records are processed as they come, whatever max.task.idle.ms says.
      this.queues[0].moveTo(out, max);
      this.buffered -= out.length;
      return out;
    }
    let readiness = this.readiness(now, lag);
    while (out.length < max && readiness !== 'waiting') {
      const queue = this.lowestHead();
      out.push(queue.shift());
      this.buffered--;
      if (readiness === 'enforced') this.counter.enforcedProcessing++;
      if (queue.size === 0) readiness = this.readiness(now, lag);
    }
    return out;
  }

  /**
   * The earliest time the task stops waiting for an empty partition known to have no lag
   * (`undefined` when it waits for none): when to call {@link take} again if no fetch comes first.
   */
  idleDeadline(): number | undefined {
    let earliest: number | undefined;
    for (const deadline of this.deadlines.values()) {
      if (earliest === undefined || deadline < earliest) earliest = deadline;
    }
    return earliest;
  }

  /**
   * The batch ends of the partitions whose records were all taken since their last batch came,
   * each returned once: the task's position moves past the offsets after their last records
   * that hold nothing to process (transaction markers, aborted records).
   */
  drainedPositions(): DrainedPosition[] {
    const out: DrainedPosition[] = [];
    for (const [queue, end] of this.batchEnds) {
      if (queue.size > 0) continue;
      out.push(end);
      this.batchEnds.delete(queue);
    }
    return out;
  }

  /** Drops every record held (the task closes; its next owner fetches them again). */
  clear(): void {
    for (const queue of this.queues) queue.clear();
    this.deadlines.clear();
    this.batchEnds.clear();
    this.buffered = 0;
  }

  /** Kafka Streams' `PartitionGroup.readyToProcess`, with the task's records held. */
  private readiness(now: number, lag: PartitionLag): Readiness {
    if (this.buffered === 0) {
      this.deadlines.clear();
      return 'waiting';
    }
    if (this.maxTaskIdleMs === MAX_TASK_IDLE_MS_DISABLED) return 'ready';
    let enforced = false;
    for (const queue of this.queues) {
      if (queue.size > 0) {
        this.deadlines.delete(queue);
        continue;
      }
      const behind = lag(queue.topic, queue.partition);
      if (behind === undefined || behind > 0) {
        // Its records are on the broker (or may be): they come with a fetch.
        this.deadlines.delete(queue);
        return 'waiting';
      }
      let deadline = this.deadlines.get(queue);
      if (deadline === undefined) this.deadlines.set(queue, (deadline = now + this.maxTaskIdleMs));
      if (now < deadline) return 'waiting';
      enforced = true;
    }
    return enforced ? 'enforced' : 'ready';
  }

  /** The non-empty queue whose head has the lowest timestamp (the first such on a tie). */
  private lowestHead(): RecordQueue {
    let best: RecordQueue | undefined;
    let bestTimestamp = Infinity;
    for (const queue of this.queues) {
      const head = queue.head();
      if (head !== undefined && (best === undefined || head.timestamp < bestTimestamp)) {
        best = queue;
        bestTimestamp = head.timestamp;
      }
    }
    return best!;
  }
}
