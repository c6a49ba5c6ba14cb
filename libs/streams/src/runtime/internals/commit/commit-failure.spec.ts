import { UnknownMemberError } from '../../../errors/internals/unknown-member.error';
import { CommitFailedError } from '../../../errors/internals/commit-failed.error';
import { MemberFencedError } from '../../../errors/internals/member-fenced.error';
import { ProducerFencedError } from '../../../errors/internals/producer-fenced.error';
import { RecordCollectorSendError } from '../../../errors/record-collector-send.error';
import { TransactionAbortedError } from '../../../errors/internals/transaction-aborted.error';
import {
  KafkaJSNonRetriableError,
  kafkajsProtocolError,
  kafkajsRetrierWrap,
} from '../../../../test-support/kafkajs-errors';
import {
  commitFailureAction,
  isAbortedTransactionError,
  isFencedError,
  isMembershipLostError,
  isRebalanceError,
  isRecoverableByTaskClose,
} from './commit-failure';

const ILLEGAL_GENERATION = 22;
const UNKNOWN_MEMBER_ID = 25;
const REBALANCE_IN_PROGRESS = 27;
const COORDINATOR_NOT_AVAILABLE = 15;

describe('commit failures', () => {
  it('recognises the errors of a group that moved to another generation', () => {
    expect(kafkajsProtocolError(ILLEGAL_GENERATION).type).toBe('ILLEGAL_GENERATION');
    expect(isRebalanceError(kafkajsProtocolError(ILLEGAL_GENERATION))).toBe(true);
    expect(isRebalanceError(kafkajsProtocolError(UNKNOWN_MEMBER_ID))).toBe(true);
    expect(isRebalanceError(kafkajsProtocolError(REBALANCE_IN_PROGRESS))).toBe(true);
    expect(isRebalanceError(kafkajsProtocolError(COORDINATOR_NOT_AVAILABLE))).toBe(false);
    expect(isRebalanceError(new Error('disk full'))).toBe(false);
    expect(isRebalanceError(undefined)).toBe(false);
  });

  it('looks through the wrapper kafkajs rethrows a refused commit in', () => {
    // consumer.commitOffsets() goes through kafkajs' retrier, which rejects with
    // new KafkaJSNonRetriableError(e, { cause: e }): the wrapper has no `type`.
    const refused = kafkajsProtocolError(ILLEGAL_GENERATION);
    const wrapped = kafkajsRetrierWrap(refused);
    expect((wrapped as { type?: string }).type).toBeUndefined();
    expect(isRebalanceError(wrapped)).toBe(true);
    expect(commitFailureAction(wrapped, false)).toBe('rejoin');
    const other = kafkajsProtocolError(COORDINATOR_NOT_AVAILABLE);
    expect(isRebalanceError(kafkajsRetrierWrap(other))).toBe(false);
  });

  it('rejoins after an at-least-once commit refused by a rebalance, instead of failing the thread', () => {
    // Seen in the crash-loop reliability test: an instance committing while the group
    // rebalanced after a SIGKILL got ILLEGAL_GENERATION and went to ERROR.
    expect(commitFailureAction(kafkajsProtocolError(ILLEGAL_GENERATION), false)).toBe('rejoin');
    expect(commitFailureAction(kafkajsProtocolError(UNKNOWN_MEMBER_ID), false)).toBe('rejoin');
    expect(commitFailureAction(kafkajsProtocolError(REBALANCE_IN_PROGRESS), false)).toBe('rejoin');
  });

  it('stays fatal for other errors, and for every failure under exactly-once', () => {
    expect(commitFailureAction(kafkajsProtocolError(COORDINATOR_NOT_AVAILABLE), false)).toBe(
      'fatal',
    );
    expect(commitFailureAction(new Error('disk full'), false)).toBe('fatal');
    expect(commitFailureAction(kafkajsProtocolError(ILLEGAL_GENERATION), true)).toBe('fatal');
  });

  it('recognises a fenced transactional producer, also wrapped by kafkajs and the collector', () => {
    // Seen in the full-size crash loop: a member whose session expired under load kept
    // processing; the new owner's producer fenced it and the send of its changelog failed.
    const INVALID_PRODUCER_EPOCH = 47;
    const fenced = kafkajsProtocolError(INVALID_PRODUCER_EPOCH);
    expect(fenced.type).toBe('INVALID_PRODUCER_EPOCH');
    expect(isFencedError(fenced)).toBe(true);
    const wrapped = new KafkaJSNonRetriableError(fenced);
    const collector = new Error(`sending 1000 records to t failed: ${wrapped.message}`, {
      cause: wrapped,
    });
    expect(isFencedError(collector)).toBe(true);
    expect(isFencedError(new Error('x', { cause: new KafkaJSNonRetriableError(fenced) }))).toBe(
      true,
    );
    expect(isFencedError(kafkajsProtocolError(ILLEGAL_GENERATION))).toBe(false);
    expect(isFencedError(new Error('disk full', { cause: new Error('EIO') }))).toBe(false);
    expect(isFencedError('old epoch')).toBe(false);
  });

  it("recognises the producer port's typed errors, also as the collector's cause", () => {
    const fenced = new ProducerFencedError('app-0_1', 'PRODUCER_FENCED');
    expect(isFencedError(fenced)).toBe(true);
    expect(isFencedError(new RecordCollectorSendError('send failed', { cause: fenced }))).toBe(
      true,
    );
    expect(isFencedError(new TransactionAbortedError('app-0_1', 'INVALID_TXN_STATE'))).toBe(false);
    expect(isRebalanceError(fenced)).toBe(false);
    const refused = new CommitFailedError('app', {
      cause: new MemberFencedError('app', 'illegal-generation'),
    });
    expect(isRebalanceError(refused)).toBe(true);
    expect(isFencedError(refused)).toBe(false);
    expect(commitFailureAction(refused, false)).toBe('rejoin');
    expect(commitFailureAction(refused, true)).toBe('fatal');
  });

  it('recognises a transaction the broker aborted, which closing the tasks recovers from', () => {
    // Seen in the cluster-fault suite (kafkajs, exactly-once, a broker hung 30 s): the
    // coordinator aborted the transaction past its timeout, and the resumed leader answered the
    // next Produce of it INVALID_TXN_STATE (KIP-890's verification: the partition is no longer
    // in a transaction). The thread failed and the client went to ERROR.
    const INVALID_TXN_STATE = 48;
    const aborted = new TransactionAbortedError('app-0_2', 'INVALID_TXN_STATE');
    const sent = new RecordCollectorSendError('sending 6 records failed', { cause: aborted });
    expect(isAbortedTransactionError(aborted)).toBe(true);
    expect(isAbortedTransactionError(sent)).toBe(true);
    expect(isAbortedTransactionError(kafkajsProtocolError(INVALID_TXN_STATE))).toBe(true);
    expect(
      isAbortedTransactionError(new TransactionAbortedError('app-0_2', 'TRANSACTION_ABORTABLE')),
    ).toBe(true);
    expect(isAbortedTransactionError(new ProducerFencedError('app-0_1', 'PRODUCER_FENCED'))).toBe(
      false,
    );
    expect(isAbortedTransactionError(new Error('disk full'))).toBe(false);
    // Recovered by closing the tasks dirty and rejoining: aborted, fenced and rebalanced alike.
    expect(isRecoverableByTaskClose(sent)).toBe(true);
    expect(isRecoverableByTaskClose(new ProducerFencedError('app-0_1', 'PRODUCER_FENCED'))).toBe(
      true,
    );
    expect(isRecoverableByTaskClose(kafkajsProtocolError(ILLEGAL_GENERATION))).toBe(true);
    expect(isRecoverableByTaskClose(new Error('disk full'))).toBe(false);
  });

  it('tells a member the group dropped from a group that is only rebalancing', () => {
    const unknown = new CommitFailedError('app', { cause: new UnknownMemberError('app', 'm-1') });
    expect(isMembershipLostError(unknown)).toBe(true);
    expect(
      isMembershipLostError(
        new CommitFailedError('app', { cause: new MemberFencedError('app', 'illegal-generation') }),
      ),
    ).toBe(true);
    expect(isMembershipLostError(kafkajsProtocolError(UNKNOWN_MEMBER_ID))).toBe(true);
    expect(isMembershipLostError(kafkajsProtocolError(ILLEGAL_GENERATION))).toBe(true);
    expect(isMembershipLostError(kafkajsProtocolError(REBALANCE_IN_PROGRESS))).toBe(false);
    expect(isMembershipLostError(new Error('disk full'))).toBe(false);
  });
});
