import { StreamsError } from '../streams.error';

/**
 * A transactional producer's epoch is no longer current: another producer initialized the same
 * transactional id (the task or thread moved to another member, and this one is a zombie), or
 * the transaction coordinator bumped the epoch itself. Kafka's `PRODUCER_FENCED`,
 * `INVALID_PRODUCER_EPOCH` and `TRANSACTION_COORDINATOR_FENCED`; Java's
 * `ProducerFencedException` / `InvalidProducerEpochException`.
 *
 * What to do: nothing this producer sent since its last commit will ever be visible to
 * read_committed readers. Close the producer (it must not initialize the id again: that would
 * fence the new owner), close its tasks dirty and rejoin the group (Kafka Streams'
 * `TaskMigratedException`). Not retriable.
 */
export class ProducerFencedError extends StreamsError.coded('PRODUCER_FENCED', false) {
  constructor(
    readonly transactionalId: string,
    /** The Kafka error the broker answered with. */
    readonly kafkaError: string,
    options?: { cause?: unknown },
  ) {
    super(
      `the transactional producer ${transactionalId} was fenced (${kafkaError}): another producer initialized its transactional id, or its coordinator bumped its epoch`,
      options,
    );
  }
}
