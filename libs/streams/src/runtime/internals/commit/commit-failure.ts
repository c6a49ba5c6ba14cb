import { CommitFailedError } from '../../../errors/internals/commit-failed.error';
import { MemberFencedError } from '../../../errors/internals/member-fenced.error';
import { ProducerFencedError } from '../../../errors/internals/producer-fenced.error';
import { RebalanceInProgressError } from '../../../errors/internals/rebalance-in-progress.error';
import { TransactionAbortedError } from '../../../errors/internals/transaction-aborted.error';
import { UnknownMemberError } from '../../../errors/internals/unknown-member.error';

/** Kafka's answers that say the group no longer counts this member in its generation. */
const LOST_MEMBERSHIP_TYPES = new Set([
  'ILLEGAL_GENERATION',
  'UNKNOWN_MEMBER_ID',
  'FENCED_INSTANCE_ID',
]);

const REBALANCE_ERROR_TYPES = new Set([
  'REBALANCE_IN_PROGRESS',
  'ILLEGAL_GENERATION',
  'UNKNOWN_MEMBER_ID',
]);

/**
 * True for the errors that mean the group moved on while this member worked: the group
 * consumer port's `CommitFailedError`, `RebalanceInProgressError`, `MemberFencedError` and
 * `UnknownMemberError`, and kafkajs' own (`REBALANCE_IN_PROGRESS`, `ILLEGAL_GENERATION`,
 * `UNKNOWN_MEMBER_ID`, e.g. from its producer): Kafka's `CommitFailedException` family. The
 * member must rejoin; its tasks are reassigned. kafkajs' retrier rethrows such an error wrapped
 * (`KafkaJSNonRetriableError`, the original as `cause`), so the causes are looked at too.
 */
export function isRebalanceError(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 8; depth++) {
    if (
      e instanceof CommitFailedError ||
      e instanceof RebalanceInProgressError ||
      e instanceof MemberFencedError ||
      e instanceof UnknownMemberError
    ) {
      return true;
    }
    const type = (e as { type?: string }).type;
    if (type !== undefined && REBALANCE_ERROR_TYPES.has(type)) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * What a stream thread does with a failed commit:
 *
 * - `rejoin`: an at-least-once offset commit refused because the group rebalanced meanwhile
 *   (Kafka Streams turns this `CommitFailedException` into a `TaskMigratedException`, never a
 *   fatal error). The offsets stay uncommitted and the tasks keep them pending; the member's
 *   next heartbeat fails the same way and kafkajs rejoins, after which a kept task commits in
 *   the new generation and a lost one is reprocessed by its next owner from the last committed
 *   offset: duplicates, which at-least-once allows, never a lost update.
 * - `fatal`: anything else, and every failure under exactly-once (a transaction that did not
 *   commit must not be retried as if nothing happened): the thread fails.
 */
export function commitFailureAction(error: unknown, exactlyOnce: boolean): 'rejoin' | 'fatal' {
  return !exactlyOnce && isRebalanceError(error) ? 'rejoin' : 'fatal';
}

/**
 * True when an error (or one of its causes) says this member's transactional producer was
 * fenced: another member created a producer with the same transactional id, i.e. took over the
 * task. The producer port types it as {@link ProducerFencedError}; kafkajs' own errors
 * (`INVALID_PRODUCER_EPOCH`, `PRODUCER_FENCED`) count too, and kafkajs may rethrow one as a
 * non-retriable error that keeps only the broker's message, so the message counts as well.
 */
export function isFencedError(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 8; depth++) {
    if (e instanceof ProducerFencedError) return true;
    const type = (e as { type?: string }).type;
    if (type === 'INVALID_PRODUCER_EPOCH' || type === 'PRODUCER_FENCED') return true;
    if (/operation with an old epoch|producer has been fenced/i.test(e.message)) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * True when an error (or one of its causes) says the broker aborted the open transaction while
 * the producer is not fenced: the producer port's {@link TransactionAbortedError}, or kafkajs' own
 * `INVALID_TXN_STATE` / `TRANSACTION_ABORTABLE` answers (a Produce to a partition that is no
 * longer in the transaction, e.g. after the coordinator aborted it for running past
 * `transaction.timeout.ms` while a broker hung). Kafka Streams treats this as a
 * `TaskCorruptedException`: the work of the transaction is dropped and the tasks are restored
 * from the committed changelog; the application goes on.
 */
export function isAbortedTransactionError(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 8; depth++) {
    if (e instanceof TransactionAbortedError) return true;
    const type = (e as { type?: string }).type;
    if (type === 'INVALID_TXN_STATE' || type === 'TRANSACTION_ABORTABLE') return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * Under exactly-once, whether a thread's error is recovered by closing every task dirty and
 * rejoining rather than failing the thread: the tasks migrated ({@link isFencedError},
 * {@link isRebalanceError}: Kafka Streams' `TaskMigratedException`) or the broker aborted the
 * transaction ({@link isAbortedTransactionError}: its `TaskCorruptedException`).
 */
export function isRecoverableByTaskClose(error: unknown): boolean {
  return isFencedError(error) || isRebalanceError(error) || isAbortedTransactionError(error);
}

/**
 * True when an error (or one of its causes) says the group no longer counts this member in its
 * generation ({@link MemberFencedError}, {@link UnknownMemberError}, kafkajs' `UNKNOWN_MEMBER_ID`,
 * `ILLEGAL_GENERATION`, `FENCED_INSTANCE_ID`): its partitions may have other owners already
 * (Kafka's `onPartitionsLost`). A group that is only rebalancing (`REBALANCE_IN_PROGRESS`) still
 * counts the member: false.
 */
export function isMembershipLostError(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 8; depth++) {
    if (e instanceof MemberFencedError || e instanceof UnknownMemberError) return true;
    const type = (e as { type?: string }).type;
    if (type !== undefined && LOST_MEMBERSHIP_TYPES.has(type)) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}
