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
import type { ClusterRetry } from '../cluster-retry/cluster-retry';
import type { TransientFault } from '../cluster-retry/transient-fault';
import { typedKafkajsProducerError } from './kafkajs-producer-errors';
import { KafkajsTopicCheck } from './kafkajs-topic-check';
import { kafkajsClusterRetry, kafkajsRetryOptions } from './kafkajs-transient-faults';
import { Partitioners } from './kafkajs';

/** What a send's partitions left without an acknowledgement are retried as. */
const UNACKNOWLEDGED: TransientFault = {
  kind: 'leadership',
  reason: 'partitions not acknowledged',
};

/**
 * The {@link RecordProducer} port over a kafkajs `Producer` (idempotent, one request in flight).
 * kafkajs speaks TxnOffsetCommit v0/v1 only: {@link sendOffsetsToTransaction} sends the group
 * id and nothing of the member (no KIP-447), so `supportsGroupMetadata` is false and fencing
 * must come from one transactional id per task. Errors are typed as the port names them (the
 * kafkajs error as `cause`); others are kafkajs' own.
 *
 * Transient cluster faults follow the engine's retry policy ({@link ClusterRetry}): kafkajs'
 * own retrier, which resends a request with its sequence numbers, gets the policy's back-off
 * and as many retries as fill `delivery.timeout.ms`; what it still fails with is a
 * `ClusterFaultTimeoutError`. kafkajs 2.2.4's `sendMessages` keeps, across its retries, the
 * answer of each broker that answered once and sends only to the others: a partition whose
 * leader moved to a broker that had answered is never sent, and the send resolves without it.
 * Those partitions (never sent: their sequence numbers untaken) are sent again, after a
 * back-off, until acknowledged (within `delivery.timeout.ms`); a topic or partition the cluster
 * does not have is an `UnknownTopicError` before the first send to it ({@link KafkajsTopicCheck}).
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
    private readonly retry: ClusterRetry = kafkajsClusterRetry(),
    private readonly topicCheck = new KafkajsTopicCheck(kafka),
  ) {
    this.producer = kafka.producer({
      // Every batch names its partition (the engine places keys itself); naming the partitioner
      // keeps kafkajs from warning that its default changed in 2.0.
      createPartitioner: Partitioners.DefaultPartitioner,
      idempotent: true,
      maxInFlightRequests: 1,
      retry: kafkajsRetryOptions(retry.settings, 'delivery'),
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
    // still completing the previous step), which Java's producer retries: so does this adapter,
    // with the other transient faults. AddOffsetsToTxn and TxnOffsetCommit of the same offsets
    // in the same transaction may be sent again.
    await this.retry.run({
      name: `offsets of group ${group.groupId} to transaction ${this.transactionalId}`,
      bound: 'delivery',
      attempt: () =>
        transaction.sendOffsets(request).catch((error: unknown) => {
          throw this.typed(error, [...topics.keys()], group.groupId);
        }),
    });
  }

  async commitTransaction(): Promise<void> {
    await this.openTransaction()
      .commit()
      .catch((error: unknown) => {
        throw this.exhaustedOrTyped(`commit of transaction ${this.transactionalId}`, error);
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
      throw this.exhaustedOrTyped(`abort of transaction ${this.transactionalId}`, error);
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
    const topics = new Set(batch.map((p) => p.topic));
    const sender = transaction ?? this.producer;
    const names = [...topics];
    const name = `produce to ${names.join(', ')}`;
    const pending = new Map(batch.map((p) => [`${p.topic}:${p.partition}`, p]));
    const acks: PartitionAck[] = [];
    const missing = await this.topicCheck.firstUnknown(pending.values());
    if (missing) throw new UnknownTopicError(missing);
    await this.retry.run({
      name,
      bound: 'delivery',
      attempt: async (attempt) => {
        if (transaction && (transaction !== this.transaction || !transaction.isActive())) {
          throw transactionEndedError();
        }
        const metadata = await sender
          .sendBatch({
            topicMessages: messagesOf(pending.values()),
            acks: options.acks ?? -1,
          })
          .catch((error: unknown) => {
            // kafkajs retried it for delivery.timeout.ms already (its retrier's count).
            const typed = this.typed(error, names);
            throw typed !== error
              ? typed
              : (this.retry.exhausted(name, 'delivery', error, attempt) ?? error);
          });
        for (const { topicName, partition, baseOffset } of metadata) {
          const key = `${topicName}:${partition}`;
          if (baseOffset === undefined || !pending.has(key)) continue;
          pending.delete(key);
          acks.push({ topic: topicName, partition, baseOffset: Number(baseOffset) });
        }
        if (pending.size === 0) return;
        // kafkajs resolves without a partition it found no leader for (one the topic does not
        // have), or whose leader moved to a broker that had answered (see the class).
        const unknown = await this.topicCheck.firstUnknown(pending.values());
        if (unknown) throw new UnknownTopicError(unknown);
        throw new UnacknowledgedPartitionsError([...pending.keys()]);
      },
      alsoRetry: (error) =>
        error instanceof UnacknowledgedPartitionsError ? UNACKNOWLEDGED : undefined,
    });
    return acks;
  }

  private openTransaction(): Transaction {
    if (!this.transaction?.isActive()) throw new Error('no transaction is open');
    return this.transaction;
  }

  /**
   * A transaction's end failed for good: fenced or aborted (typed), or a transient fault that
   * outlasted the EndTxn retry the engine adds to kafkajs (`installTransactionEndRetry`, 60 s).
   */
  private exhaustedOrTyped(name: string, error: unknown): unknown {
    const typed = this.typed(error, []);
    if (typed !== error) return typed; // fenced, aborted: not transient
    return this.retry.exhausted(name, 'delivery', error, 1) ?? error;
  }

  private typed(error: unknown, topics: readonly string[], groupId?: string): unknown {
    return typedKafkajsProducerError(error, {
      transactionalId: this.transactionalId,
      topics,
      ...(groupId !== undefined ? { groupId } : {}),
    });
  }
}

/** A send's partitions kafkajs resolved without: sent again after a back-off. */
class UnacknowledgedPartitionsError extends Error {
  constructor(readonly partitions: readonly string[]) {
    super(
      `no acknowledgement for ${partitions.join(', ')}: their leaders moved; sending them again`,
    );
  }
}

/** kafkajs' `topicMessages` of `partitions`' records, grouped by topic. */
function messagesOf(
  partitions: Iterable<PartitionRecords>,
): { topic: string; messages: Message[] }[] {
  const topics = new Map<string, Message[]>();
  for (const { topic, partition, records } of partitions) {
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
  return [...topics].map(([topic, messages]) => ({ topic, messages }));
}

/** The engine's producers over a kafkajs client, retrying through `retry`. */
export function kafkajsRecordProducerFactory(
  kafka: Kafka,
  retry: ClusterRetry = kafkajsClusterRetry(),
): RecordProducerFactory {
  const topicCheck = new KafkajsTopicCheck(kafka);
  return {
    idempotent: () => new KafkajsRecordProducer(kafka, undefined, undefined, retry, topicCheck),
    transactional: (transactionalId, transactionTimeoutMs) =>
      new KafkajsRecordProducer(kafka, transactionalId, transactionTimeoutMs, retry, topicCheck),
  };
}
