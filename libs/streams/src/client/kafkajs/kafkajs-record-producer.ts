import type { Kafka, Message, Producer, Transaction } from 'kafkajs';
import {
  transactionEndedError,
  type ConsumerGroupMetadata,
  type OffsetToCommit,
  type PartitionAck,
  type PartitionRecords,
  type RecordProducer,
  type RecordProducerFactory,
  type SendOptions,
} from '../record-producer';
import { UnknownTopicError } from '../../errors/internals/unknown-topic.error';
import { isConcurrentTransactions, typedKafkajsProducerError } from './kafkajs-producer-errors';
import { Partitioners } from './kafkajs';

/** Attempts of a `sendOffsets` refused with CONCURRENT_TRANSACTIONS, and the pause between. */
const CONCURRENT_ATTEMPTS = 20;
const CONCURRENT_PAUSE_MS = 100;

/**
 * The {@link RecordProducer} port over a kafkajs `Producer` (idempotent, one request in flight).
 * kafkajs speaks TxnOffsetCommit v0/v1 only: {@link sendOffsetsToTransaction} sends the group
 * id and nothing of the member (no KIP-447), so `supportsGroupMetadata` is false and fencing
 * must come from one transactional id per task. Errors are typed as the port names them (the
 * kafkajs error as `cause`); others are kafkajs' own.
 */
export class KafkajsRecordProducer implements RecordProducer {
  readonly supportsGroupMetadata = false;
  private readonly producer: Producer;
  private transaction: Transaction | undefined;
  private sending: Promise<unknown> = Promise.resolve();

  /**
   * @param kafka the kafkajs client to create the producer with.
   * @param transactionalId the transactional id; `undefined` for an idempotent producer.
   * @param transactionTimeoutMs the coordinator's timeout of an open transaction.
   */
  constructor(
    kafka: Kafka,
    readonly transactionalId: string | undefined,
    transactionTimeoutMs = 60_000,
  ) {
    this.producer = kafka.producer({
      // Every batch names its partition (the engine places keys itself); naming the partitioner
      // keeps kafkajs from warning that its default changed in 2.0.
      createPartitioner: Partitioners.DefaultPartitioner,
      idempotent: true,
      maxInFlightRequests: 1,
      ...(transactionalId !== undefined
        ? { transactionalId, transactionTimeout: transactionTimeoutMs }
        : {}),
    });
  }

  async connect(): Promise<void> {
    try {
      await this.producer.connect();
      if (this.transactionalId !== undefined) {
        // kafkajs' connect initializes only an idempotent producer id; the transactional id is
        // initialized (InitProducerId, fencing the older producer of the id and aborting its
        // open transaction) by its first `transaction()`. Begin one now and end it: nothing
        // was added to it, so kafkajs ends it locally.
        const transaction = await this.producer.transaction();
        await transaction.abort();
      }
    } catch (error) {
      throw this.typed(error, []);
    }
  }

  /**
   * Sends `batch` after the sends before it. A transactional producer sends only inside the
   * transaction open at the call, which the send is bound to: it rejects when none is open, and
   * when that transaction has ended by the time the sends before it settled (aborted while they
   * retried against an unreachable broker). Never through kafkajs' producer itself, which would
   * send the records idempotently outside any transaction: visible to read_committed readers
   * and never aborted (changelog records of aborted work restored as committed state).
   */
  send(batch: readonly PartitionRecords[], options: SendOptions = {}): Promise<PartitionAck[]> {
    const transaction = this.transactionalId === undefined ? undefined : this.transaction;
    if (this.transactionalId !== undefined && !transaction?.isActive()) {
      return Promise.reject(new Error('no transaction is open'));
    }
    const run = this.sending.then(() => this.sendNow(batch, options, transaction));
    this.sending = run.catch(() => undefined);
    return run;
  }

  async beginTransaction(): Promise<void> {
    if (this.transactionalId === undefined) throw new Error('not a transactional producer');
    if (this.transaction?.isActive()) throw new Error('a transaction is already open');
    this.transaction = await this.producer.transaction().catch((error: unknown) => {
      throw this.typed(error, []);
    });
  }

  async sendOffsetsToTransaction(
    offsets: readonly OffsetToCommit[],
    group: ConsumerGroupMetadata,
  ): Promise<void> {
    const transaction = this.openTransaction();
    const topics = new Map<string, { partition: number; offset: string }[]>();
    for (const { topic, partition, offset } of offsets) {
      let list = topics.get(topic);
      if (!list) topics.set(topic, (list = []));
      list.push({ partition, offset: String(offset) });
    }
    const request = {
      consumerGroupId: group.groupId,
      topics: [...topics].map(([topic, partitions]) => ({ topic, partitions })),
    };
    // kafkajs sends AddOffsetsToTxn without retrying CONCURRENT_TRANSACTIONS (the coordinator
    // still completing the previous step), which Java's producer retries: so does this adapter.
    // Nothing was added when it fails that way, so the whole call is sent again.
    for (let attempt = 1; ; attempt++) {
      try {
        await transaction.sendOffsets(request);
        return;
      } catch (error) {
        const typed = this.typed(error, [...topics.keys()], group.groupId);
        if (attempt >= CONCURRENT_ATTEMPTS || !isConcurrentTransactions(error)) throw typed;
        await new Promise((resolve) => setTimeout(resolve, CONCURRENT_PAUSE_MS));
      }
    }
  }

  async commitTransaction(): Promise<void> {
    await this.openTransaction()
      .commit()
      .catch((error: unknown) => {
        throw this.typed(error, []);
      });
    this.transaction = undefined;
  }

  async abortTransaction(): Promise<void> {
    const transaction = this.transaction;
    this.transaction = undefined;
    if (!transaction?.isActive()) return;
    // Sends in flight settle first (the queued ones are refused now), as Java's producer
    // drains its in-flight batches before the EndTxn of an abort.
    await this.sending;
    await transaction.abort().catch((error: unknown) => {
      throw this.typed(error, []);
    });
  }

  async disconnect(): Promise<void> {
    this.transaction = undefined;
    await this.producer.disconnect();
  }

  private async sendNow(
    batch: readonly PartitionRecords[],
    options: SendOptions,
    transaction: Transaction | undefined,
  ): Promise<PartitionAck[]> {
    if (transaction && (transaction !== this.transaction || !transaction.isActive())) {
      throw transactionEndedError();
    }
    if (batch.length === 0) return [];
    const topics = new Map<string, Message[]>();
    for (const { topic, partition, records } of batch) {
      let messages = topics.get(topic);
      if (!messages) topics.set(topic, (messages = []));
      for (const r of records) {
        messages.push({
          key: r.key,
          value: r.value,
          partition,
          timestamp: String(r.timestamp),
          headers: r.headers as Message['headers'],
        });
      }
    }
    const sender = transaction ?? this.producer;
    const metadata = await sender
      .sendBatch({
        topicMessages: [...topics].map(([topic, messages]) => ({ topic, messages })),
        acks: options.acks ?? -1,
      })
      .catch((error: unknown) => {
        throw this.typed(error, [...topics.keys()]);
      });
    const acks = metadata.flatMap(({ topicName, partition, baseOffset }) =>
      baseOffset === undefined
        ? []
        : [{ topic: topicName, partition, baseOffset: Number(baseOffset) }],
    );
    // kafkajs drops the records of a partition it finds no leader for (one the topic does not
    // have) and resolves without it.
    const missing = batch.find(
      (p) => !acks.some((a) => a.topic === p.topic && a.partition === p.partition),
    );
    if (missing) throw new UnknownTopicError(`${missing.topic}-${missing.partition}`);
    return acks;
  }

  private openTransaction(): Transaction {
    if (!this.transaction?.isActive()) throw new Error('no transaction is open');
    return this.transaction;
  }

  private typed(error: unknown, topics: readonly string[], groupId?: string): unknown {
    return typedKafkajsProducerError(error, {
      transactionalId: this.transactionalId,
      topics,
      ...(groupId !== undefined ? { groupId } : {}),
    });
  }
}

/** The engine's producers over a kafkajs client. */
export function kafkajsRecordProducerFactory(kafka: Kafka): RecordProducerFactory {
  return {
    idempotent: () => new KafkajsRecordProducer(kafka, undefined),
    transactional: (transactionalId, transactionTimeoutMs) =>
      new KafkajsRecordProducer(kafka, transactionalId, transactionTimeoutMs),
  };
}
