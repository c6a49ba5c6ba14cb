import { StreamsError } from '../streams.error';

/**
 * The broker will only abort the open transaction: the coordinator already moved it on
 * (`INVALID_TXN_STATE`), or a partition refused to join it (`TRANSACTION_ABORTABLE`, KIP-890).
 * The producer itself is not fenced. (A transaction that ran past the producer's transaction
 * timeout is aborted with an epoch bump: this producer then gets `ProducerFencedError`.)
 *
 * What to do: abort the transaction (its records and offsets are dropped), close the tasks
 * whose work it carried dirty, so their state is restored from the committed changelog, and
 * begin a new transaction. Not retriable: committing the same transaction cannot succeed.
 */
export class TransactionAbortedError extends StreamsError.coded('TRANSACTION_ABORTED', false) {
  constructor(
    readonly transactionalId: string,
    /** The Kafka error the broker answered with. */
    readonly kafkaError: string,
    options?: { cause?: unknown },
  ) {
    super(
      `the transaction of producer ${transactionalId} was aborted by the broker (${kafkaError})`,
      options,
    );
  }
}
