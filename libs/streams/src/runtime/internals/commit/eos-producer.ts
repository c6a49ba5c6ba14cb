import type { BatchSender } from '../../../processor/internals/kafka-record-collector';
import type {
  ConsumerGroupMetadata,
  OffsetToCommit,
  PartitionAck,
  PartitionRecords,
  RecordProducer,
  SendOptions,
} from '../../../client/record-producer';

/**
 * A transactional producer under `exactly_once_v2`, over the {@link RecordProducer} port, in
 * one of Kafka's two exactly-once designs:
 *
 * - **one per stream thread** (KIP-447, where the client sends the group's metadata with the
 *   offsets): the id is `<applicationId>-<processId>-<thread>`, every task of the thread writes
 *   into the same transaction, and zombies are fenced by the group coordinator, which refuses
 *   offsets of a stale generation (the transaction then aborts);
 * - **one per task** (the fallback, e.g. kafkajs): the id is `<applicationId>-<taskId>`, so
 *   whichever instance owns the task next initializes the same id, which bumps the producer
 *   epoch and aborts the old owner's open transaction; the offsets carry the group id only.
 *
 * A transaction begins with the first send after a commit and carries the output, the
 * changelog records and the input offsets, committed as one.
 */
export class EosProducer implements BatchSender {
  private open = false;
  private beginning: Promise<void> | undefined;

  /** @param producer a transactional producer, not connected. */
  constructor(private readonly producer: RecordProducer) {}

  /** The transactional id. */
  get transactionalId(): string | undefined {
    return this.producer.transactionalId;
  }

  /** Whether a transaction has begun (or is beginning) since the last commit or abort. */
  get inTransaction(): boolean {
    return this.beginning !== undefined;
  }

  /** Connects (which initializes transactions, fencing any previous producer of the id). */
  async connect(): Promise<void> {
    await this.producer.connect();
  }

  async send(batch: readonly PartitionRecords[], options?: SendOptions): Promise<PartitionAck[]> {
    await this.begun();
    return this.producer.send(batch, options);
  }

  /**
   * Commits the open transaction (beginning one if only offsets are due) with `offsets`,
   * committed for `group`.
   *
   * @throws CommitFailedError when the coordinator refused `group`'s generation (KIP-447: the
   *   tasks migrated); ProducerFencedError; TransactionAbortedError. The transaction is then
   *   not committed: abort it.
   */
  async commit(offsets: readonly OffsetToCommit[], group: ConsumerGroupMetadata): Promise<void> {
    if (offsets.length === 0 && !this.open && !this.beginning) return;
    await this.begun();
    if (offsets.length > 0) await this.producer.sendOffsetsToTransaction(offsets, group);
    await this.producer.commitTransaction();
    this.open = false;
    this.beginning = undefined;
  }

  /**
   * Aborts the open transaction, if any; errors are swallowed (the tasks close dirty anyway).
   * Resolves true when a transaction was open.
   */
  async abort(): Promise<boolean> {
    const beginning = this.beginning;
    this.open = false;
    this.beginning = undefined;
    if (beginning === undefined) return false;
    const begun = await beginning.then(
      () => true,
      () => false,
    );
    if (begun) await this.producer.abortTransaction().catch(() => undefined);
    return true;
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
