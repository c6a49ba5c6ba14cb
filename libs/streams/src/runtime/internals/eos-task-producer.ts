import type { BatchSender } from '../../processor/internals/kafka-record-collector';
import {
  groupOnlyMetadata,
  type PartitionAck,
  type PartitionRecords,
  type RecordProducer,
  type SendOptions,
} from './record-producer';

/**
 * The transactional producer of one task under `exactly_once_v2`, over the
 * {@link RecordProducer} port. Fencing comes from the transactional id, as in Kafka's original
 * exactly-once design (kafkajs has no KIP-447): the id is `<applicationId>-<taskId>`, so
 * whichever instance owns the task next initializes the same id, which bumps the producer
 * epoch and aborts the old owner's open transaction; a zombie's later sends and commits fail
 * with `ProducerFencedError` and never reach read-committed consumers. Offsets are sent with
 * the group id only (no member or generation), which the coordinator accepts from any producer.
 *
 * A transaction begins with the first send after a commit and carries the task's output,
 * its changelog records and its input offsets, committed as one.
 */
export class EosTaskProducer implements BatchSender {
  private open = false;
  private beginning: Promise<void> | undefined;

  /** @param producer a transactional producer of the task's id, not connected. */
  constructor(private readonly producer: RecordProducer) {}

  /** The task's transactional id. */
  get transactionalId(): string | undefined {
    return this.producer.transactionalId;
  }

  /** Connects (which initializes transactions, fencing any previous owner of the id). */
  async connect(): Promise<void> {
    await this.producer.connect();
  }

  async send(batch: readonly PartitionRecords[], options?: SendOptions): Promise<PartitionAck[]> {
    await this.begun();
    return this.producer.send(batch, options);
  }

  /** Commits the open transaction (beginning one if only offsets are due) with `offsets`. */
  async commit(
    consumerGroupId: string,
    offsets: readonly { topic: string; partition: number; offset: number }[],
  ): Promise<void> {
    if (offsets.length === 0 && !this.open && !this.beginning) return;
    await this.begun();
    if (offsets.length > 0) {
      await this.producer.sendOffsetsToTransaction(offsets, groupOnlyMetadata(consumerGroupId));
    }
    await this.producer.commitTransaction();
    this.open = false;
    this.beginning = undefined;
  }

  /** Aborts the open transaction, if any; errors are swallowed (the task closes dirty anyway). */
  async abort(): Promise<void> {
    const beginning = this.beginning;
    this.open = false;
    this.beginning = undefined;
    if (beginning === undefined) return;
    const begun = await beginning.then(
      () => true,
      () => false,
    );
    if (begun) await this.producer.abortTransaction().catch(() => undefined);
  }

  async disconnect(): Promise<void> {
    await this.abort();
    await this.producer.disconnect();
  }

  private begun(): Promise<void> {
    this.beginning ??= this.producer.beginTransaction().then(() => {
      this.open = true;
    });
    return this.beginning;
  }
}
