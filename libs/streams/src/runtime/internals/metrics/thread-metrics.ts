import { SampledStat } from './sampled-stat';

/**
 * The sensors of one stream thread (Kafka Streams' `stream-thread-metrics`, all INFO): commits,
 * processing and punctuations with their latencies in ms, polls (completed fetches), and the
 * tasks it created and closed. A replacement thread has new ones (Kafka Streams removes a dead
 * thread's sensors), under the same thread id.
 */
export class ThreadMetrics {
  /** Epoch ms the thread was created (`thread-start-time`). */
  readonly startTime: number;
  /** Each commit's duration, in ms. */
  readonly commit: SampledStat;
  /** Each processed slice's duration per record, in ms (recorded once per slice). */
  readonly processLatency: SampledStat;
  /** Each punctuator call's duration, in ms. */
  readonly punctuate: SampledStat;
  /** Records processed by the thread's tasks. */
  processed = 0;
  /** Fetches completed by the thread's consumer (empty ones included). */
  polls = 0;
  tasksCreated = 0;
  tasksClosed = 0;

  constructor(
    /** `<client.id>-StreamThread-<n>`, as Kafka Streams names its threads. */
    readonly threadId: string,
    now: number,
  ) {
    this.startTime = now;
    this.commit = new SampledStat(now);
    this.processLatency = new SampledStat(now);
    this.punctuate = new SampledStat(now);
  }

  /** Counts a completed fetch; returns the time it completed (epoch ms). */
  polled(): number {
    this.polls++;
    return Date.now();
  }

  /** A task processed `records` records in `elapsedMs`. */
  recordProcessing(records: number, elapsedMs: number): void {
    if (records === 0) return;
    this.processed += records;
    this.processLatency.record(elapsedMs / records);
  }
}
