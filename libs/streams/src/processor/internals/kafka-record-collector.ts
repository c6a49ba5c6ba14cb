import type { Message, ProducerBatch, RecordMetadata } from 'kafkajs';
import { RecordCollectorSendError } from '../../errors/record-collector-send.error';
import type { CollectedRecord, RecordCollector } from './record-collector';
import { topicPartitionKey, type TopicPartitionOffset } from '../topic-partition';

/** What the collector sends through: a kafkajs `Producer`, or a `Transaction` under EOS. */
export interface BatchSender {
  sendBatch(batch: ProducerBatch): Promise<RecordMetadata[]>;
}

/** Options of a {@link KafkaRecordCollector}. */
export interface KafkaRecordCollectorOptions {
  /** A connected kafkajs producer, or the current transaction under exactly-once. */
  readonly sender: BatchSender;
  /** Records accepted before a batch is sent without waiting for the linger; default 1000. */
  readonly maxBatchRecords?: number;
  /** How long the first pending record waits for company before its batch is sent; default 100 ms (Kafka Streams' producer `linger.ms`). */
  readonly lingerMs?: number;
  /** Producer acks; default -1 (all in-sync replicas), required for changelogs. */
  readonly acks?: number;
  /** Request timeout of a send, ms (kafkajs default when unset). */
  readonly timeoutMs?: number;
}

interface PendingTopic {
  readonly messages: Message[];
  /** Records per partition, to turn base offsets into last offsets. */
  readonly counts: Map<number, number>;
}

type PendingBatch = Map<string, PendingTopic>;

/**
 * A {@link RecordCollector} over kafkajs: `send` only queues the record (no await per record);
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
  private readonly acks: number;
  private readonly timeoutMs: number | undefined;
  private pending: PendingBatch = emptyBatch();
  private pendingCount = 0;
  private inFlight: Promise<void> = Promise.resolve();
  private lingerTimer: NodeJS.Timeout | undefined;
  private failure: RecordCollectorSendError | undefined;
  private readonly acked = new Map<string, TopicPartitionOffset>();
  private sentRecords = 0;

  constructor(options: KafkaRecordCollectorOptions) {
    this.sender = options.sender;
    this.maxBatchRecords = options.maxBatchRecords ?? 1000;
    this.lingerMs = options.lingerMs ?? 100;
    this.acks = options.acks ?? -1;
    this.timeoutMs = options.timeoutMs;
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

  send(record: CollectedRecord): void {
    if (this.failure) throw this.failure;
    let pending = this.pending.get(record.topic);
    if (pending === undefined) {
      pending = { messages: [], counts: new Map() };
      this.pending.set(record.topic, pending);
    }
    pending.messages.push({
      key: record.key,
      value: record.value,
      partition: record.partition,
      timestamp: String(record.timestamp),
      headers: record.headers as Message['headers'],
    });
    pending.counts.set(record.partition, (pending.counts.get(record.partition) ?? 0) + 1);
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
    const topicMessages = [...batch].map(([topic, { messages }]) => ({ topic, messages }));
    try {
      const metadata = await this.sender.sendBatch({
        topicMessages,
        acks: this.acks,
        ...(this.timeoutMs !== undefined ? { timeout: this.timeoutMs } : {}),
      });
      for (const { topicName, partition, baseOffset } of metadata) {
        const count = batch.get(topicName)?.counts.get(partition);
        if (count === undefined || baseOffset === undefined) continue;
        this.acked.set(topicPartitionKey(topicName, partition), {
          topic: topicName,
          partition,
          offset: Number(baseOffset) + count - 1,
        });
        this.sentRecords += count;
      }
    } catch (error) {
      this.failure = new RecordCollectorSendError(
        `sending ${topicMessages.reduce((n, t) => n + t.messages.length, 0)} records to ${topicMessages
          .map((t) => t.topic)
          .join(', ')} failed: ${error instanceof Error ? error.message : String(error)}`,
        { cause: error },
      );
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
