import { compatibilityPartitioner, Producer, type BaseOptions } from '@platformatic/kafka';
import { ProducerFencedError } from '../../errors/internals/producer-fenced.error';
import { UnknownTopicError } from '../../errors/internals/unknown-topic.error';
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
import {
  PlatformaticProduceSender,
  type PlatformaticTransaction,
} from './platformatic-produce-sender';
import { typedPlatformaticProducerError } from './platformatic-producer-errors';
import { PlatformaticTransactionOffsets } from './platformatic-transaction-offsets';
import type { StreamsLogger } from '../../logging/logger';
import { bridgePlatformaticLogs } from './platformatic-log-bridge';
import { platformaticClusterRetry } from './platformatic-transient-faults';
import type { ClusterRetry } from '../cluster-retry/cluster-retry';
import { StreamsError } from '../../errors/streams.error';

/**
 * What a new producer sends with InitProducerId: no producer id and epoch yet (-1, as Java's
 * producer does). platformatic sends 0 and 0 unless told, which the coordinator of a
 * transactional id already in use refuses with PRODUCER_FENCED: no new instance could take the
 * id over.
 */
const NEW_PRODUCER = { producerId: -1n, producerEpoch: -1 };

/**
 * The {@link RecordProducer} port over @platformatic/kafka's `Producer`: idempotent,
 * transactional with a transactional id, and KIP-447 offsets (TxnOffsetCommit v3/v4 with the
 * group's generation, member id and instance id: `supportsGroupMetadata` is true). Errors are
 * typed as the port names them (platformatic's error as `cause`); a network failure is a
 * `BrokersUnreachableError`; others are platformatic's own.
 *
 * Records go out through {@link PlatformaticProduceSender}: Produce requests on the producer's
 * connections whose record batches the engine encodes (platformatic's encoder builds a buffer
 * per record field and concatenates them: most of its producer's time), with the producer's id
 * and epoch, sequence numbers kept as its producer keeps them, and its retries. The producer
 * still initializes the id, adds partitions to a transaction and ends it. A transactional
 * producer sends only inside a transaction (as Java's and kafkajs').
 *
 * What it works around in platformatic 2.12:
 * - an explicit partition outside the topic is taken modulo the partition count (written to
 *   another partition): a send checks its partitions against the metadata first and throws
 *   `UnknownTopicError` instead; the partitioner, should it ever choose, is Java's
 *   (`compatibilityPartitioner`, not platformatic's default);
 * - InitProducerId goes with producer id 0 and epoch 0, refused for a transactional id in use:
 *   this adapter sends -1 and -1, as Java's producer does;
 * - idempotent producers retry forever: this adapter sets 5 retries unless `clientOptions` say;
 * - the InitProducerId happens at the first `beginTransaction`, not at connect: {@link connect}
 *   begins and cancels a local transaction so that the id is initialized (the previous owner
 *   fenced) when connect resolves;
 * - one option (`timeout`) is both the produce request's timeout and the transaction timeout
 *   sent with InitProducerId: a transactional producer gets the transaction timeout for both;
 * - after a fencing error on commit it drops its producer id and would initialize the id again
 *   at the next begin (fencing the new owner): once fenced, this adapter refuses every call
 *   with `ProducerFencedError`;
 * - concurrent sends in a transaction share one AddPartitionsToTxn (the second send's partitions
 *   are marked added but never sent): sends run one at a time;
 * - offsets go through {@link PlatformaticTransactionOffsets} (see there).
 */
export class PlatformaticRecordProducer implements RecordProducer {
  readonly supportsGroupMetadata = true;
  private readonly producer: Producer;
  private readonly sender: PlatformaticProduceSender;
  private readonly offsets: PlatformaticTransactionOffsets | undefined;
  private transaction: PlatformaticTransaction | undefined;
  /** Transactions a send or offsets went out in (one without ends locally, as Java's does). */
  private readonly joined = new WeakSet<PlatformaticTransaction>();
  private fenced: ProducerFencedError | undefined;
  private sending: Promise<unknown> = Promise.resolve();
  private readonly brokers: readonly string[];

  /**
   * @param clientOptions the client's options (`clientId`, `bootstrapBrokers`, TLS, SASL, ...).
   * @param transactionalId the transactional id; `undefined` for an idempotent producer.
   * @param transactionTimeoutMs the coordinator's timeout of an open transaction.
   * @param logger where the client's events are written ({@link bridgePlatformaticLogs}).
   */
  constructor(
    clientOptions: BaseOptions,
    readonly transactionalId: string | undefined,
    transactionTimeoutMs = 60_000,
    logger?: StreamsLogger,
    private readonly retry: ClusterRetry = platformaticClusterRetry(),
  ) {
    this.producer = new Producer({
      ...clientOptions,
      // platformatic retries an idempotent producer's calls forever unless told otherwise (a
      // send to a missing topic would never end): kafkajs' default count.
      retries: typeof clientOptions.retries === 'number' ? clientOptions.retries : 5,
      idempotent: true,
      partitioner: compatibilityPartitioner,
      autocreateTopics: false,
      ...(transactionalId !== undefined ? { transactionalId, timeout: transactionTimeoutMs } : {}),
    });
    if (logger) bridgePlatformaticLogs(this.producer, logger);
    this.sender = new PlatformaticProduceSender(this.producer);
    this.brokers = clientOptions.bootstrapBrokers.map((b) =>
      typeof b === 'string' ? b : `${b.host}:${b.port}`,
    );
    this.offsets =
      transactionalId !== undefined
        ? new PlatformaticTransactionOffsets(this.producer, transactionalId, retry)
        : undefined;
  }

  async connect(): Promise<void> {
    try {
      if (this.transactionalId === undefined) {
        await this.producer.initIdempotentProducer({});
        return;
      }
      const transaction = await this.begin(`InitProducerId of ${this.transactionalId}`);
      await transaction.cancel();
    } catch (error) {
      throw this.typed(error, []);
    }
  }

  /**
   * Sends `batch` after the sends before it. A transactional producer sends only inside the
   * transaction open at the call, which the send is bound to: it rejects when none is open, and
   * when that transaction has ended by the time the sends before it settled (its records must
   * not join a later transaction).
   */
  send(batch: readonly PartitionRecords[], options: SendOptions = {}): Promise<PartitionAck[]> {
    const transaction = this.transaction;
    const run = this.sending.then(() => this.sendNow(batch, options, transaction));
    this.sending = run.catch(() => undefined);
    return run;
  }

  async beginTransaction(): Promise<void> {
    this.throwIfFenced();
    if (this.transactionalId === undefined) throw new Error('not a transactional producer');
    if (this.transaction) throw new Error('a transaction is already open');
    this.transaction = await this.begin(`beginning a transaction of ${this.transactionalId}`);
  }

  /**
   * platformatic's `beginTransaction` (FindCoordinator, InitProducerId the first time), through
   * the retry policy: a failed begin leaves platformatic's transaction in place, cancelled before
   * the next attempt. Each fault forgets platformatic's metadata (see {@link forgetBrokers}).
   */
  private begin(name: string): Promise<PlatformaticTransaction> {
    return this.retry.run({
      name,
      bound: 'delivery',
      attempt: () =>
        this.producer.beginTransaction(NEW_PRODUCER).catch(async (error: unknown) => {
          await this.producer.transaction?.cancel().catch(() => undefined);
          throw this.typed(error, []);
        }),
      onFault: () => this.forgetBrokers(),
      stopped: () => this.producer.closed,
    });
  }

  async sendOffsetsToTransaction(
    offsets: readonly OffsetToCommit[],
    group: ConsumerGroupMetadata,
  ): Promise<void> {
    this.throwIfFenced();
    if (!this.transaction || !this.offsets) throw new Error('no transaction is open');
    if (offsets.length === 0) return;
    this.joined.add(this.transaction);
    await this.offsets.send(offsets, group).catch((error: unknown) => {
      throw this.typed(error, [...new Set(offsets.map((o) => o.topic))], group);
    });
  }

  async commitTransaction(): Promise<void> {
    this.throwIfFenced();
    const transaction = this.transaction;
    if (!transaction) throw new Error('no transaction is open');
    await this.endTransaction(transaction, 'commit');
    this.transaction = undefined;
  }

  async abortTransaction(): Promise<void> {
    const transaction = this.transaction;
    this.transaction = undefined;
    if (!transaction || transaction.completed) return;
    // Sends in flight settle first (the queued ones are refused now): an EndTxn sent beside a
    // partition's first send can reach the coordinator before that partition joined.
    await this.sending;
    if (!this.joined.has(transaction)) {
      await transaction.cancel(); // nothing went out in it: the coordinator has no transaction
      return;
    }
    if (this.fenced) {
      await transaction.cancel(); // the broker aborted it when the id was fenced
      return;
    }
    await this.endTransaction(transaction, 'abort').catch(async (error: unknown) => {
      await transaction.cancel().catch(() => undefined);
      throw error;
    });
  }

  /**
   * Sends EndTxn (commit or abort), again after a transient fault (the coordinator completes
   * it once), until delivery's bound, forgetting platformatic's metadata after each fault (see
   * {@link forgetBrokers}); throws the last error, typed.
   */
  private endTransaction(
    transaction: PlatformaticTransaction,
    end: 'commit' | 'abort',
  ): Promise<void> {
    return this.retry.run({
      name: `EndTxn (${end}) of ${this.transactionalId}`,
      bound: 'delivery',
      attempt: () =>
        transaction[end]().catch((error: unknown) => {
          throw this.typed(error, []);
        }),
      onFault: () => this.forgetBrokers(),
      stopped: () => this.producer.closed,
    });
  }

  /**
   * platformatic reaches the transaction coordinator (InitProducerId, EndTxn) at the address its
   * cached metadata gives the coordinator's node id, and a metadata read without topics never
   * refreshes that cache. A broker that was down when the cache was last filled (a rolling
   * restart) is missing from it, so every attempt failed with "the broker is not available in
   * the current cluster metadata" until `delivery.timeout.ms` failed the thread (seen: 36
   * EndTxn attempts over 120 s). Cleared, the next attempt reads the brokers afresh. A send's
   * retry clears it too (a partition's leader moved).
   */
  private forgetBrokers(): void {
    this.producer.clearMetadata();
  }

  async disconnect(): Promise<void> {
    this.transaction = undefined;
    if (!this.producer.closed) await this.producer.close(true);
  }

  private async sendNow(
    batch: readonly PartitionRecords[],
    options: SendOptions,
    transaction: PlatformaticTransaction | undefined,
  ): Promise<PartitionAck[]> {
    this.throwIfFenced();
    const topics = [...new Set(batch.map((p) => p.topic))];
    if (topics.length === 0) return [];
    if (this.transactionalId !== undefined && !transaction) {
      throw new Error('no transaction is open');
    }
    if (transaction && (transaction !== this.transaction || transaction.completed)) {
      throw transactionEndedError();
    }
    const name = `Produce to ${topics.join(', ')}`;
    const prepared = await this.retry.run({
      name: transaction ? `AddPartitionsToTxn before ${name}` : name,
      bound: 'delivery',
      attempt: async () => {
        try {
          const metadata = await this.producer.metadata({ topics });
          for (const { topic, partition } of batch) {
            const count = metadata.topics.get(topic)?.partitionsCount ?? 0;
            if (!Number.isInteger(partition) || partition < 0 || partition >= count) {
              throw new UnknownTopicError(`${topic}-${partition}`);
            }
          }
          if (transaction && transaction !== this.transaction) throw transactionEndedError();
          if (transaction) this.joined.add(transaction);
          return await this.sender.prepare(batch, options.acks ?? -1, metadata, transaction);
        } catch (error) {
          throw this.typed(error, topics);
        }
      },
      onFault: () => this.forgetBrokers(),
      stopped: () => this.producer.closed,
    });
    return this.sender.deliver(prepared, this.retry, name, (error) => this.typed(error, topics));
  }

  private throwIfFenced(): void {
    if (this.fenced) throw this.fenced;
  }

  private typed(
    error: unknown,
    topics: readonly string[],
    group?: Pick<ConsumerGroupMetadata, 'groupId' | 'memberId' | 'groupInstanceId'>,
  ): unknown {
    if (error instanceof StreamsError) {
      if (error instanceof ProducerFencedError) this.fenced = error;
      return error; // typed already (an unknown topic; a fault retried for its bound)
    }
    const typed = typedPlatformaticProducerError(
      error,
      {
        transactionalId: this.transactionalId,
        topics,
        ...(group !== undefined ? { groupId: group.groupId, memberId: group.memberId } : {}),
        ...(group?.groupInstanceId ? { groupInstanceId: group.groupInstanceId } : {}),
      },
      this.brokers,
    );
    if (typed instanceof ProducerFencedError) this.fenced = typed;
    return typed;
  }
}

/**
 * The engine's producers over @platformatic/kafka clients made with `clientOptions`, logging to
 * `logger` when given.
 */
export function platformaticRecordProducerFactory(
  clientOptions: BaseOptions,
  logger?: StreamsLogger,
  retry: ClusterRetry = platformaticClusterRetry(),
): RecordProducerFactory {
  return {
    idempotent: () =>
      new PlatformaticRecordProducer(clientOptions, undefined, undefined, logger, retry),
    transactional: (transactionalId, transactionTimeoutMs) =>
      new PlatformaticRecordProducer(
        clientOptions,
        transactionalId,
        transactionTimeoutMs,
        logger,
        retry,
      ),
  };
}
