// The engine's port for writing records: the shared idempotent producer (at-least-once) and
// the transactional producers (exactly-once). Client adapters implement it (kafkajs:
// ./kafkajs/kafkajs-record-producer.ts; @platformatic/kafka:
// ./platformatic/platformatic-record-producer.ts); the engine never sees a client's own types.
import type {
  PartitionAck,
  PartitionRecords,
  SendOptions,
} from '../processor/internals/partition-records';

export type {
  PartitionAck,
  PartitionRecords,
  ProducerRecord,
  SendOptions,
} from '../processor/internals/partition-records';

/**
 * The consumer group a transaction commits offsets for, as Java's `ConsumerGroupMetadata`.
 * With KIP-447 the coordinator checks the member and its generation; without it (or with
 * generation -1 and an empty member id, see {@link groupOnlyMetadata}) only the group id counts.
 */
export interface ConsumerGroupMetadata {
  readonly groupId: string;
  /** The member's generation; -1 when unknown. */
  readonly generationId: number;
  /** The member id the coordinator gave; empty when unknown. */
  readonly memberId: string;
  /** The static member id (`group.instance.id`); `null` for a dynamic member. */
  readonly groupInstanceId: string | null;
}

/** An input offset to commit: the next offset the group reads in the partition. */
export interface OffsetToCommit {
  readonly topic: string;
  readonly partition: number;
  readonly offset: number;
}

/** The metadata of a group with no member identity: the coordinator checks no generation. */
export function groupOnlyMetadata(groupId: string): ConsumerGroupMetadata {
  return { groupId, generationId: -1, memberId: '', groupInstanceId: null };
}

/**
 * What a transactional producer's send rejects with when the transaction it was made in ended
 * (committed or aborted) before it ran: its records are not sent, neither into a later
 * transaction nor outside one. The work that made them was dropped with that transaction.
 */
export function transactionEndedError(): Error {
  return new Error('the transaction this send was made in has ended: its records are not sent');
}

/**
 * A Kafka producer as the engine uses it (Java's `Producer`, cut to what Kafka Streams needs):
 * idempotent always (no duplicates or reordering on retries), transactional when created with
 * a transactional id. Sends are written in call order: an adapter runs one at a time.
 *
 * Transactions follow Java's: {@link connect} initializes them (fencing any older producer of
 * the same id, aborting its open transaction), then {@link beginTransaction}, sends,
 * {@link sendOffsetsToTransaction}, and {@link commitTransaction} or {@link abortTransaction}.
 *
 * Errors of every method: `ProducerFencedError` (not retriable: this producer is a
 * zombie; close it, close its tasks dirty and rejoin); `TransactionAbortedError` (abort,
 * close the tasks dirty, begin again); `RecordTooLargeError` (make records smaller);
 * `UnknownTopicError` (create the topic, or wait for its metadata); an
 * `KafkaAuthorizationError` (fix the ACLs); `CommitFailedError` from
 * {@link sendOffsetsToTransaction} (the group moved on: abort, close dirty, rejoin). Anything
 * else is the client's own error, as it reports it (an unreachable cluster is told apart by
 * `isClusterUnreachableError`); after a failed send under a transaction, abort it.

 */
export interface RecordProducer {
  /** The transactional id; `undefined` for an idempotent producer. */
  readonly transactionalId: string | undefined;
  /**
   * Whether {@link sendOffsetsToTransaction} sends the group's generation, member id and
   * instance id to the coordinator (KIP-447, TxnOffsetCommit v3+), so that one transactional
   * producer can serve every task of a thread: a stale member's offsets are refused. When
   * false only the group id is sent, and fencing comes from one transactional id per task.
   */
  readonly supportsGroupMetadata: boolean;

  /**
   * Connects; a transactional producer also initializes its transactions (InitProducerId),
   * fencing any older producer of its id and aborting that one's open transaction.
   *
   * @throws KafkaAuthorizationError when the id or idempotence is not allowed; the client's
   *   error when the cluster cannot be reached (retry until `task.timeout.ms`).
   */
  connect(): Promise<void>;

  /**
   * Writes records, each to the partition given, and resolves when the broker acknowledged
   * them: one acknowledgement per partition of the send. Inside a transaction (between
   * {@link beginTransaction} and its end) they are part of it.
   *
   * @throws the errors listed on the interface; the records of a failed send may be partly
   *   written (under a transaction, abort it).
   */
  send(batch: readonly PartitionRecords[], options?: SendOptions): Promise<PartitionAck[]>;

  /**
   * Begins a transaction (transactional producers only); resolves once sends may join it.
   *
   * @throws ProducerFencedError when the producer was fenced; an `Error` when a transaction is
   *   already open or the producer is not transactional (a bug of the caller).
   */
  beginTransaction(): Promise<void>;

  /**
   * Adds input offsets to the open transaction: committed for `group` if and only if the
   * transaction commits. With {@link supportsGroupMetadata}, the coordinator checks `group`'s
   * generation and member.
   *
   * @throws CommitFailedError when the coordinator refuses the member or its generation;
   *   ProducerFencedError; KafkaAuthorizationError for the group.
   */
  sendOffsetsToTransaction(
    offsets: readonly OffsetToCommit[],
    group: ConsumerGroupMetadata,
  ): Promise<void>;

  /**
   * Commits the open transaction: its records become visible to read_committed readers and
   * its offsets committed, all at once.
   *
   * @throws ProducerFencedError (nothing of it will ever be visible); TransactionAbortedError.
   */
  commitTransaction(): Promise<void>;

  /** Aborts the open transaction, if any: its records and offsets are dropped. */
  abortTransaction(): Promise<void>;

  /** Closes the connections; an open transaction is left to the broker (aborted on its timeout). */
  disconnect(): Promise<void>;
}

/** Creates the engine's producers over one client. */
export interface RecordProducerFactory {
  /** An idempotent producer, not connected. */
  idempotent(): RecordProducer;
  /**
   * A transactional producer of `transactionalId`, not connected.
   *
   * @param transactionTimeoutMs how long the coordinator lets a transaction stay open before
   *   aborting it (Java's `transaction.timeout.ms`).
   */
  transactional(transactionalId: string, transactionTimeoutMs: number): RecordProducer;
}
