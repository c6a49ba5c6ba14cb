import {
  MultipleErrors,
  NetworkError,
  ProtocolError,
  ResponseError,
  TimeoutError,
  UserError,
} from '@platformatic/kafka';
import { KafkaJSConnectionError, KafkaJSNumberOfRetriesExceeded } from 'kafkajs';
import { kafkajsProtocolError, kafkajsRetrierWrap } from '../../../test-support/kafkajs-errors';
import { BrokersUnreachableError } from '../../errors/brokers-unreachable.error';
import { ClusterFaultTimeoutError } from '../../errors/cluster-fault-timeout.error';
import { GroupCoordinatorUnconfirmedError } from '../../errors/internals/group-coordinator-unconfirmed.error';
import { PartitionLeaderNotAvailableError } from '../../errors/internals/partition-leader-not-available.error';
import { ProducerFencedError } from '../../errors/internals/producer-fenced.error';
import { kafkajsTransientFault } from '../kafkajs/kafkajs-transient-faults';
import { platformaticTransientFault } from '../platformatic/platformatic-transient-faults';

/** The kind and reason a classifier finds, `none` for no transient fault. */
const kindOf = (fault: { kind: string; reason: string } | undefined): string =>
  fault ? `${fault.kind} ${fault.reason}` : 'none';

describe('kafkajsTransientFault', () => {
  it.each([
    [6, 'leadership NOT_LEADER_FOR_PARTITION'],
    [5, 'leadership LEADER_NOT_AVAILABLE'],
    [74, 'leadership FENCED_LEADER_EPOCH'],
    [16, 'coordinator NOT_COORDINATOR_FOR_GROUP'],
    [15, 'coordinator GROUP_COORDINATOR_NOT_AVAILABLE'],
    [14, 'coordinator GROUP_LOAD_IN_PROGRESS'],
    [19, 'busy NOT_ENOUGH_REPLICAS'],
    [20, 'busy NOT_ENOUGH_REPLICAS_AFTER_APPEND'],
    [51, 'busy CONCURRENT_TRANSACTIONS'],
    [7, 'timeout REQUEST_TIMED_OUT'],
    [3, 'none'],
    [25, 'none'],
    [27, 'none'],
    [47, 'none'],
  ])('Kafka error %i is %s', (code, expected) => {
    expect(kindOf(kafkajsTransientFault(kafkajsProtocolError(code)))).toBe(expected);
    // The same through kafkajs' retrier, which wraps what it gives up on.
    expect(kindOf(kafkajsTransientFault(kafkajsRetrierWrap(kafkajsProtocolError(code))))).toBe(
      expected,
    );
  });

  it('finds refused connections and timeouts, also after kafkajs ran out of retries', () => {
    const refused = new KafkaJSConnectionError(
      'Connection error: connect ECONNREFUSED 127.0.0.1:1',
    );
    expect(kindOf(kafkajsTransientFault(refused))).toBe(
      'connection Connection error: connect ECONNREFUSED 127.0.0.1:1',
    );
    const exceeded = new KafkaJSNumberOfRetriesExceeded(refused, { retryCount: 5, retryTime: 1 });
    expect(kafkajsTransientFault(exceeded)?.kind).toBe('connection');
    const timeout = Object.assign(new Error('Request Produce timed out'), {
      name: 'KafkaJSRequestTimeoutError',
    });
    expect(kafkajsTransientFault(timeout)?.kind).toBe('timeout');
    const noCoordinator = Object.assign(new Error('no coordinator'), {
      name: 'KafkaJSGroupCoordinatorNotFound',
    });
    expect(kafkajsTransientFault(noCoordinator)?.kind).toBe('coordinator');
  });

  it('does not retry a certificate this client does not trust', () => {
    const cause = Object.assign(new Error('self-signed certificate in certificate chain'), {
      code: 'SELF_SIGNED_CERT_IN_CHAIN',
    });
    const error = new KafkaJSConnectionError('Connection error: self-signed certificate');
    (error as { cause?: unknown }).cause = cause;
    expect(kafkajsTransientFault(error)).toBeUndefined();
  });
});

describe('platformaticTransientFault', () => {
  const response = (id: string): ResponseError =>
    new ResponseError(
      0,
      9,
      { '/topics/0/partitions/0': [new ProtocolError(id).apiCode, null] },
      {},
    );

  it.each([
    ['NOT_LEADER_OR_FOLLOWER', 'leadership NOT_LEADER_OR_FOLLOWER'],
    ['LEADER_NOT_AVAILABLE', 'leadership LEADER_NOT_AVAILABLE'],
    ['NOT_COORDINATOR', 'coordinator NOT_COORDINATOR'],
    ['COORDINATOR_NOT_AVAILABLE', 'coordinator COORDINATOR_NOT_AVAILABLE'],
    ['COORDINATOR_LOAD_IN_PROGRESS', 'coordinator COORDINATOR_LOAD_IN_PROGRESS'],
    ['NOT_ENOUGH_REPLICAS', 'busy NOT_ENOUGH_REPLICAS'],
    ['CONCURRENT_TRANSACTIONS', 'busy CONCURRENT_TRANSACTIONS'],
    ['REQUEST_TIMED_OUT', 'timeout REQUEST_TIMED_OUT'],
    ['UNKNOWN_TOPIC_OR_PARTITION', 'none'],
    ['ILLEGAL_GENERATION', 'none'],
    ['PRODUCER_FENCED', 'none'],
  ])('%s is %s, in an error answer and after retries', (id, expected) => {
    expect(kindOf(platformaticTransientFault(response(id)))).toBe(expected);
    const retried = new MultipleErrors('produce failed 6 times.', [response(id), response(id)]);
    expect(kindOf(platformaticTransientFault(retried))).toBe(expected);
  });

  it('finds network failures and timeouts, not a closed client or a user error', () => {
    const refused = new NetworkError('Connection to 127.0.0.1:1 failed.');
    expect(kindOf(platformaticTransientFault(refused))).toBe(
      'connection Connection to 127.0.0.1:1 failed.',
    );
    expect(platformaticTransientFault(new TimeoutError('Request timed out.'))?.kind).toBe(
      'timeout',
    );
    const closed = new NetworkError('Client is closed.', { closed: true });
    expect(platformaticTransientFault(closed)).toBeUndefined();
    expect(platformaticTransientFault(new UserError('Unknown topic t.'))).toBeUndefined();
  });
});

describe('the engine errors both classifiers share', () => {
  it.each([
    ['kafkajs', kafkajsTransientFault],
    ['platformatic', platformaticTransientFault],
  ])('%s: typed faults are transient; a typed refusal or a bounded fault is not', (_, classify) => {
    const unreachable = new BrokersUnreachableError(['b:1'], 'connect ECONNREFUSED');
    expect(kindOf(classify(unreachable))).toBe('connection connect ECONNREFUSED');
    const leader = new PartitionLeaderNotAvailableError('t', 'NOT_LEADER_OR_FOLLOWER');
    expect(kindOf(classify(leader))).toBe('leadership NOT_LEADER_OR_FOLLOWER');
    const coordinator = new GroupCoordinatorUnconfirmedError('g', 'COORDINATOR_MOVED_WHILE_ASKED');
    expect(kindOf(classify(coordinator))).toBe('coordinator COORDINATOR_MOVED_WHILE_ASKED');
    // Answers refused because another broker named another leader or coordinator say so.
    expect(classify(coordinator)?.refusedAnswer).toBe(true);
    const moved = new PartitionLeaderNotAvailableError('t', 'LEADER_MOVED_WHILE_ASKED: 0 (...)');
    expect(classify(moved)?.refusedAnswer).toBe(true);
    expect(classify(leader)?.refusedAnswer).toBeUndefined();
    const unconfirmed = new GroupCoordinatorUnconfirmedError('g', 'UNCONFIRMED: nobody answered');
    expect(classify(unconfirmed)?.refusedAnswer).toBeUndefined();
    // A fenced producer stays fenced, whatever its client met on the way.
    const fenced = new ProducerFencedError('tx', 'PRODUCER_FENCED', {
      cause: new NetworkError('Connection to 127.0.0.1:1 failed.'),
    });
    expect(classify(fenced)).toBeUndefined();
    const bounded = new ClusterFaultTimeoutError('produce', 'delivery.timeout.ms', 1, 2, 'x', {
      cause: unreachable,
    });
    expect(classify(bounded)).toBeUndefined();
  });
});
