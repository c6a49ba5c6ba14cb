import type {
  GroupConsumer,
  GroupFetchedBatch,
  TopicPartitions,
} from '../../../client/group-consumer';
import type { ActiveTaskEntry } from '../active-tasks/active-task-entry';
import type { PartitionLag } from '../task/partition-group';
import { MAX_RECORDS_PER_SLICE, processInSlices } from './sliced-processing';

/**
 * The records of one input partition a task may hold unprocessed before the partition is paused
 * (Kafka Streams' `buffered.records.per.partition` default): a task waiting for another input
 * (`max.task.idle.ms`) does not buffer its fetched input without bound. A fetched batch is added
 * whole, so a partition holds at most this plus one batch.
 */
export const MAX_BUFFERED_PER_PARTITION = 1000;

/** What the feed needs from its stream thread. */
export interface TaskInputFeedOptions {
  /** The thread's group consumer: lags of its partitions, pauses and resumes. */
  consumer(): Pick<GroupConsumer, 'pause' | 'resume' | 'currentLag'> | undefined;
  /** Wall-clock time, epoch ms. */
  now(): number;
  /** Runs `work` in turn with the thread's other work (its failure fails the thread). */
  queue(work: () => Promise<void>): void;
  /** Whether a task is still open on the thread (a closed task's input is gone). */
  current(entry: ActiveTaskEntry): boolean;
  /** After each slice of a task's records (the thread commits there when due). */
  afterSlice(entry: ActiveTaskEntry): Promise<void>;
}

interface HeldPartition {
  readonly topic: string;
  readonly partition: number;
  readonly entry: ActiveTaskEntry;
}

const key = (topic: string, partition: number): string => `${topic}\u0000${partition}`;

/**
 * Feeds a stream thread's fetched batches to their tasks: each batch joins its task's input
 * ({@link StreamTask.input}) and the task processes what its input lets it (a task with several
 * input partitions waits for the empty ones, `max.task.idle.ms`). Tasks left waiting are
 * processed again when a fetch completed (their lags may have changed) and when their idle
 * deadline passes; a partition whose task holds {@link MAX_BUFFERED_PER_PARTITION} records is
 * paused until it processed them.
 */
export class TaskInputFeed {
  private readonly waiting = new Set<ActiveTaskEntry>();
  private readonly held = new Map<string, HeldPartition>();
  /** Partitions whose fetched batch is being handled and not in its task's input yet. */
  private readonly handed = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private timerAt = Infinity;

  constructor(private readonly options: TaskInputFeedOptions) {}

  /**
   * Runs the handling of a fetched batch (`handle`, which may {@link deliver} it). Meanwhile its
   * partition counts as not fetched yet for a task waiting for it: the consumer may already count
   * the batch as handed over (its lag 0) while the batch waits for its turn, and the task must not
   * go on without it in between.
   */
  async handing<T>(batch: GroupFetchedBatch, handle: () => Promise<T>): Promise<T> {
    const k = key(batch.topic, batch.partition);
    this.handed.add(k);
    try {
      return await handle();
    } finally {
      this.handed.delete(k);
    }
  }

  /**
   * Adds a fetched batch to its task's input and processes what the task may, in slices.
   * Call it in turn with the thread's other work.
   *
   * @throws the processing's errors (the thread fails, or closes the tasks under exactly-once).
   */
  async deliver(entry: ActiveTaskEntry, batch: GroupFetchedBatch): Promise<void> {
    entry.task.input.add(batch.topic, batch.partition, batch.records, batch.nextOffset);
    this.handed.delete(key(batch.topic, batch.partition));
    await this.drain(entry);
  }

  /**
   * A fetch completed: its lags may let a waiting task go on; queues the processing of what the
   * waiting tasks may process now.
   */
  fetched(): void {
    if (this.waiting.size > 0) this.options.queue(() => this.drainWaiting());
  }

  /**
   * A new assignment: pauses of partitions not in `kept` are forgotten (the assignment's own
   * pause and resume decide them: eager, every partition; cooperative, the new ones).
   */
  assigned(kept: readonly TopicPartitions[]): void {
    const keys = new Set(kept.flatMap((p) => p.partitions.map((n) => key(p.topic, n))));
    for (const k of [...this.held.keys()]) if (!keys.has(k)) this.held.delete(k);
  }

  /** Stops the wake-up timer (the thread stops). */
  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Processes what the waiting tasks may process now; closed tasks are forgotten. */
  private async drainWaiting(): Promise<void> {
    for (const entry of [...this.waiting]) {
      if (this.options.current(entry)) await this.drain(entry);
      else this.forget(entry);
    }
  }

  private async drain(entry: ActiveTaskEntry): Promise<void> {
    const { task } = entry;
    const consumer = this.options.consumer();
    const consumerLag = lagOf(consumer);
    const lag: PartitionLag = (topic, partition) =>
      this.handed.has(key(topic, partition)) ? undefined : consumerLag(topic, partition);
    await processInSlices(
      task,
      () => task.input.take(this.options.now(), MAX_RECORDS_PER_SLICE, lag),
      () => this.options.afterSlice(entry),
    );
    for (const end of task.input.drainedPositions()) {
      task.offsets.skipTo(end.topic, end.partition, end.lastRecordOffset, end.nextOffset);
    }
    if (task.input.size > 0) this.waiting.add(entry);
    else this.waiting.delete(entry);
    if (consumer) this.holdFull(entry, consumer);
    this.wakeAt(task.input.idleDeadline());
  }

  /** Pauses the task's partitions that hold too much, resumes those it drained. */
  private holdFull(entry: ActiveTaskEntry, consumer: Pick<GroupConsumer, 'pause' | 'resume'>) {
    const pause: TopicPartitions[] = [];
    const resume: TopicPartitions[] = [];
    for (const { topic, partition } of entry.partitions) {
      const k = key(topic, partition);
      const full = entry.task.input.sizeOf(topic, partition) >= MAX_BUFFERED_PER_PARTITION;
      if (full && !this.held.has(k)) {
        this.held.set(k, { topic, partition, entry });
        pause.push({ topic, partitions: [partition] });
      } else if (!full && this.held.get(k)?.entry === entry) {
        this.held.delete(k);
        resume.push({ topic, partitions: [partition] });
      }
    }
    if (pause.length > 0) consumer.pause(pause);
    if (resume.length > 0) consumer.resume(resume);
  }

  /** A task the thread closed: its input is gone; its held partitions are resumed. */
  private forget(entry: ActiveTaskEntry): void {
    this.waiting.delete(entry);
    const resume: TopicPartitions[] = [];
    for (const [k, held] of this.held) {
      if (held.entry !== entry) continue;
      this.held.delete(k);
      resume.push({ topic: held.topic, partitions: [held.partition] });
    }
    if (resume.length > 0) this.options.consumer()?.resume(resume);
  }

  /** Wakes the thread at `deadline` (the earliest one asked for), if it is still to come. */
  private wakeAt(deadline: number | undefined): void {
    if (deadline === undefined || deadline >= this.timerAt) return;
    const delay = deadline - this.options.now();
    // A deadline passed and the task still waits: for a fetch, which wakes the thread itself.
    if (delay <= 0) return;
    clearTimeout(this.timer);
    this.timerAt = deadline;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.timerAt = Infinity;
      this.fetched();
    }, delay);
    this.timer.unref();
  }
}

/**
 * The consumer's lags; a consumer that cannot tell makes every partition count as caught up
 * (a task then waits for an empty partition `max.task.idle.ms` at most).
 */
function lagOf(consumer: Pick<GroupConsumer, 'currentLag'> | undefined): PartitionLag {
  const currentLag = consumer?.currentLag?.bind(consumer);
  return currentLag ?? (() => 0);
}
