import { RecordCollectorSendError } from '../../errors/record-collector-send.error';
import type {
  PartitionAck,
  PartitionRecords,
  ProducerRecord,
  SendOptions,
} from './partition-records';
import type { CollectedRecord, RecordCollector } from './record-collector';
import { topicPartitionKey, type TopicPartitionOffset } from '../topic-partition';

/**
 * What the collector sends through: the runtime's `RecordProducer` port (the shared idempotent
 * producer, or a task's transactional producer under exactly-once).
 */
export interface BatchSender {
  /** Writes each partition's records and resolves with each partition's base offset. */
  send(batch: readonly PartitionRecords[], options?: SendOptions): Promise<PartitionAck[]>;
}

/** Options of a {@link KafkaRecordCollector}. */
export interface KafkaRecordCollectorOptions {
  /** A connected producer, or a task's transactional producer under exactly-once. */
  readonly sender: BatchSender;
  /** Records accepted before a batch is sent without waiting for the linger; default 1000. */
  readonly maxBatchRecords?: number;
  /** How long the first pending record waits for company before its batch is sent; default 100 ms (Kafka Streams' producer `linger.ms`). */
  readonly lingerMs?: number;
  /** Producer acks; default -1 (all in-sync replicas), required for changelogs. */
  readonly acks?: -1 | 1;
  /**
   * Decides about a batch the producer could not send (the production-exception handler):
   * `retry` sends it again after `retryBackoffMs` (until `retryTimeoutMs` after the first
   * failure, then `fail`), `continue` drops its records (counted in {@link droppedRecords}),
   * `fail` keeps the failure (the default, without this option).
   */
  readonly onSendError?: (failure: BatchSendFailure) => 'continue' | 'retry' | 'fail';
  /** Wait between two sends of a batch; default 100 ms (Kafka's `retry.backoff.ms`). */
  readonly retryBackoffMs?: number;
  /** How long a batch is sent again before it fails; default 300,000 ms (`task.timeout.ms`). */
  readonly retryTimeoutMs?: number;
}

/** A batch the producer could not send, as {@link KafkaRecordCollectorOptions.onSendError} sees it. */
export interface BatchSendFailure {
  readonly error: unknown;
  /** The batch's partitions, each with its records. */
  readonly partitions: readonly { topic: string; partition: number; records: ProducerRecord[] }[];
  /** Sends of this batch so far (1 at the first failure). */
  readonly attempts: number;
}

/** Pending records by topic-partition key, in the order their partitions got a first record. */
type PendingBatch = Map<string, { topic: string; partition: number; records: ProducerRecord[] }>;

/**
 * A {@link RecordCollector} over a producer ({@link BatchSender}): `send` only queues the record (no await per record);
 * batches go out when `maxBatchRecords` pile up, after `lingerMs`, or on `flush`, one batch
 * in flight at a time so records of a partition reach the broker in `send` order whatever the
 * producer's settings. From each acknowledgement it keeps the offset of the last record of
 * every partition (base offset + records in the batch - 1), which checkpoints are made of.
 *
 * Errors: a failed batch is kept and thrown as `RecordCollectorSendError` by the next
 * `flush` and by every later `send`: close the task dirty (no checkpoint) and create a new
 * collector after recovering (under EOS, abort the transaction).
 */
export class KafkaRecordCollector implements RecordCollector {
  private readonly sender: BatchSender;
  private readonly maxBatchRecords: number;
  private readonly lingerMs: number;
  private readonly acks: -1 | 1;
  private pending: PendingBatch = emptyBatch();
  private pendingCount = 0;
  private inFlight: Promise<void> = Promise.resolve();
  private lingerTimer: NodeJS.Timeout | undefined;
  private failure: RecordCollectorSendError | undefined;
  private readonly acked = new Map<string, TopicPartitionOffset>();
  private sentRecords = 0;
  private dropped = 0;

  constructor(private readonly options: KafkaRecordCollectorOptions) {
    this.sender = options.sender;
    this.maxBatchRecords = options.maxBatchRecords ?? 1000;
    this.lingerMs = options.lingerMs ?? 100;
    this.acks = options.acks ?? -1;
    if (!Number.isInteger(this.maxBatchRecords) || this.maxBatchRecords < 1) {
      throw new RangeError(
        `maxBatchRecords must be a positive integer, got ${this.maxBatchRecords}`,
      );
    }
  }

  /** Records acknowledged by the broker so far. */
  get acknowledgedRecords(): number {
    return this.sentRecords;
  }

  /** Records of failed batches that `onSendError` dropped (`continue`). */
  get droppedRecords(): number {
    return this.dropped;
  }

  send(record: CollectedRecord): void {
    if (this.failure) throw this.failure;
    const key = topicPartitionKey(record.topic, record.partition);
    let pending = this.pending.get(key);
    if (pending === undefined) {
      pending = { topic: record.topic, partition: record.partition, records: [] };
      this.pending.set(key, pending);
    }
    pending.records.push({
      key: record.key,
      value: record.value,
      timestamp: record.timestamp,
      ...(record.headers !== undefined ? { headers: record.headers } : {}),
    });
    if (++this.pendingCount >= this.maxBatchRecords) {
      this.dispatch();
    } else if (this.lingerTimer === undefined) {
      this.lingerTimer = setTimeout(() => this.dispatch(), this.lingerMs);
      this.lingerTimer.unref();
    }
  }

  async flush(): Promise<void> {
    this.dispatch();
    await this.inFlight;
    if (this.failure) throw this.failure;
  }

  offset(topic: string, partition: number): number | undefined {
    return this.acked.get(topicPartitionKey(topic, partition))?.offset;
  }

  offsets(): TopicPartitionOffset[] {
    return [...this.acked.values()];
  }

  /** Stops the linger timer and drops unsent records (for a dirty close). */
  abandon(): void {
    this.clearTimer();
    this.pending = emptyBatch();
    this.pendingCount = 0;
  }

  private dispatch(): void {
    this.clearTimer();
    if (this.pendingCount === 0 || this.failure) return;
    const batch = this.pending;
    this.pending = emptyBatch();
    this.pendingCount = 0;
    this.inFlight = this.inFlight.then(() => this.sendBatch(batch));
  }

  private async sendBatch(batch: PendingBatch): Promise<void> {
    if (this.failure) return;
    const partitions = [...batch.values()];
    const started = Date.now();
    for (let attempts = 1; ; attempts++) {
      try {
        const acks = await this.sender.send(partitions, { acks: this.acks });
        for (const { topic, partition, baseOffset } of acks) {
          const key = topicPartitionKey(topic, partition);
          const count = batch.get(key)?.records.length;
          if (count === undefined) continue;
          this.acked.set(key, { topic, partition, offset: baseOffset + count - 1 });
          this.sentRecords += count;
        }
        return;
      } catch (error) {
        const decision = this.options.onSendError?.({ error, partitions, attempts }) ?? 'fail';
        const timeout = this.options.retryTimeoutMs ?? 300_000;
        if (decision === 'retry' && Date.now() - started < timeout) {
          await new Promise((resolve) => setTimeout(resolve, this.options.retryBackoffMs ?? 100));
          continue;
        }
        const count = partitions.reduce((n, p) => n + p.records.length, 0);
        if (decision === 'continue') {
          this.dropped += count;
          return;
        }
        const topics = [...new Set(partitions.map((p) => p.topic))];
        this.failure = new RecordCollectorSendError(
          `sending ${count} records to ${topics.join(', ')} failed${attempts > 1 ? ` (${attempts} attempts)` : ''}: ${error instanceof Error ? error.message : String(error)}`,
          { cause: error },
        );
        return;
      }
    }
  }

  private clearTimer(): void {
    if (this.lingerTimer !== undefined) {
      clearTimeout(this.lingerTimer);
      this.lingerTimer = undefined;
    }
  }
}

function emptyBatch(): PendingBatch {
  return new Map();
}
