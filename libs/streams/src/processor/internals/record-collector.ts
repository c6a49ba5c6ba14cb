import type { TopicPartitionOffset } from '../topic-partition';

/** Header values as kafkajs accepts them. */
export type RecordHeaders = Readonly<Record<string, Buffer | string | undefined>>;

/** One record to write: a changelog record, or (later) a sink or repartition record. */
export interface CollectedRecord {
  readonly topic: string;
  readonly partition: number;
  readonly key: Buffer | null;
  /** `null` is a tombstone (a delete in a compacted changelog). */
  readonly value: Buffer | null;
  /** The record's timestamp in epoch milliseconds (CreateTime). */
  readonly timestamp: number;
  readonly headers?: RecordHeaders;
}

/**
 * Where a task's output records go: changelog writes from the change-logging store layer
 * and, later, sink and repartition records.
 *
 * `send` never blocks and never awaits: it accepts the record (an implementation may buffer
 * and send in batches in the background). `flush` awaits every record accepted so far; the
 * commit loop calls it after flushing the stores and before writing the checkpoint, so the
 * checkpoint never names an offset the broker has not acknowledged.
 *
 * Errors: a send that failed in the background is reported by the next `flush` (and by the
 * next `send`) as a {@link import('../../errors').RecordCollectorSendError}; the task must
 * then be closed dirty (no checkpoint) and its state restored from the changelog.
 */
export interface RecordCollector {
  /** Accepts one record; returns at once. */
  send(record: CollectedRecord): void;
  /** Sends everything pending and resolves when the broker acknowledged all of it. */
  flush(): Promise<void>;
  /**
   * The offset of the last acknowledged record of a partition written through this
   * collector, or `undefined` when none was acknowledged yet.
   */
  offset(topic: string, partition: number): number | undefined;
  /** Every partition's last acknowledged offset, for checkpoints. */
  offsets(): TopicPartitionOffset[];
}
