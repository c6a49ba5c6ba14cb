import type { Kafka, Producer, ProducerBatch, RecordMetadata, Transaction } from 'kafkajs';
import type { BatchSender } from '../../processor/internals/kafka-record-collector';

/**
 * The transactional producer of one task under `exactly_once_v2`. kafkajs has no KIP-447
 * (consumer-group-metadata fencing), so fencing comes from the transactional id instead, as
 * in Kafka's original exactly-once design: the id is `<applicationId>-<taskId>`, so whichever
 * instance owns the task next calls `initTransactions` with the same id, which bumps the
 * producer epoch and aborts the old owner's open transaction; a zombie's later sends and
 * commits fail with a fencing error and never reach read-committed consumers.
 *
 * A transaction begins with the first send after a commit and carries the task's output,
 * its changelog records and its input offsets (`sendOffsets`), committed as one.
 */
export class EosTaskProducer implements BatchSender {
  private readonly producer: Producer;
  private transaction: Transaction | undefined;
  private beginning: Promise<Transaction> | undefined;

  constructor(
    kafka: Kafka,
    readonly transactionalId: string,
    transactionTimeoutMs = 60_000,
  ) {
    this.producer = kafka.producer({
      transactionalId,
      idempotent: true,
      maxInFlightRequests: 1,
      transactionTimeout: transactionTimeoutMs,
    });
  }

  /** Connects (which initializes transactions, fencing any previous owner of the id). */
  async connect(): Promise<void> {
    await this.producer.connect();
  }

  async sendBatch(batch: ProducerBatch): Promise<RecordMetadata[]> {
    const transaction = await this.current();
    return transaction.sendBatch(batch);
  }

  /** Commits the open transaction (beginning one if only offsets are due) with `offsets`. */
  async commit(
    consumerGroupId: string,
    offsets: readonly { topic: string; partition: number; offset: number }[],
  ): Promise<void> {
    if (offsets.length === 0 && !this.transaction && !this.beginning) return;
    const transaction = await this.current();
    if (offsets.length > 0) {
      const topics = new Map<string, { partition: number; offset: string }[]>();
      for (const { topic, partition, offset } of offsets) {
        let list = topics.get(topic);
        if (!list) topics.set(topic, (list = []));
        list.push({ partition, offset: String(offset) });
      }
      await transaction.sendOffsets({
        consumerGroupId,
        topics: [...topics].map(([topic, partitions]) => ({ topic, partitions })),
      });
    }
    await transaction.commit();
    this.transaction = undefined;
    this.beginning = undefined;
  }

  /** Aborts the open transaction, if any; errors are swallowed (the task closes dirty anyway). */
  async abort(): Promise<void> {
    const transaction = this.transaction;
    this.transaction = undefined;
    this.beginning = undefined;
    if (transaction?.isActive()) await transaction.abort().catch(() => undefined);
  }

  async disconnect(): Promise<void> {
    await this.abort();
    await this.producer.disconnect();
  }

  private current(): Promise<Transaction> {
    if (this.transaction) return Promise.resolve(this.transaction);
    this.beginning ??= this.producer.transaction().then((t) => {
      this.transaction = t;
      return t;
    });
    return this.beginning;
  }
}
