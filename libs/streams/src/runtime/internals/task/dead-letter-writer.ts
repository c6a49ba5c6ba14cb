import type { ConsumedRecord } from '../../../client/consumed-record';
import type { RecordCollector } from '../../../processor/internals/record-collector';
import { DEAD_LETTER_HEADERS } from '../../exception-handlers';
import type { DeadLetterKind, TaskMetrics } from './task-metrics';

/** What a {@link DeadLetterWriter} writes with. */
export interface DeadLetterWriterOptions {
  /** The task's collector: under exactly-once, its transaction. */
  readonly recordCollector: RecordCollector;
  /** The partition of the dead-letter topic for a raw key (the task's output rule). */
  readonly partitionFor: (topic: string, key: Buffer | null) => number;
  readonly metrics: TaskMetrics;
}

/**
 * A task's dead letters (KIP-1034): the input record a handler skipped, its key, value,
 * timestamp and headers unchanged, with Kafka's `__streams.errors.*` headers naming the
 * error's class, message and stack and the record's topic, partition and offset. Written
 * through the task's record collector, so under exactly-once a dead letter commits (or aborts)
 * with the offsets that skip its record.
 *
 * Errors: none of its own; a failed send is the collector's (`RecordCollectorSendError` at the
 * next flush), as for any output record.
 */
export class DeadLetterWriter {
  constructor(private readonly options: DeadLetterWriterOptions) {}

  /** Writes `raw` to `topic` with `error` (a failure of `kind`) in the headers, and counts it. */
  write(topic: string, raw: ConsumedRecord, error: Error, kind: DeadLetterKind): void {
    this.options.recordCollector.send({
      topic,
      partition: this.options.partitionFor(topic, raw.key),
      key: raw.key,
      value: raw.value,
      timestamp: raw.timestamp,
      headers: {
        ...raw.headers,
        [DEAD_LETTER_HEADERS.exception]: error.name,
        [DEAD_LETTER_HEADERS.message]: error.message,
        [DEAD_LETTER_HEADERS.stacktrace]: error.stack ?? '',
        [DEAD_LETTER_HEADERS.topic]: raw.topic,
        [DEAD_LETTER_HEADERS.partition]: String(raw.partition),
        [DEAD_LETTER_HEADERS.offset]: String(raw.offset),
      },
    });
    this.options.metrics.deadLettered++;
    this.options.metrics.deadLetteredBy[kind]++;
  }
}

/** An `unknown` thrown value as an `Error` (a thrown string keeps its text). */
export function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
