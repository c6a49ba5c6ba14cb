import {
  KafkaJSConnectionError,
  KafkaJSError,
  KafkaJSNonRetriableError,
  KafkaJSNumberOfRetriesExceeded,
  KafkaJSProtocolError,
} from 'kafkajs';
import { BrokersUnreachableError } from '../errors/brokers-unreachable.error';
import { ClusterFaultTimeoutError } from '../errors/cluster-fault-timeout.error';
import { RecordCollectorSendError } from '../errors/record-collector-send.error';
import { StreamsProcessingError } from '../errors/streams-processing.error';
import { SerializationError } from '../serde/serialization.error';
import { isClusterUnreachableError } from './cluster-unreachable';

// kafkajs builds protocol errors from its error-code table entries ({ type, code, retriable }).
const protocolError = (type: string, retriable: boolean) =>
  new KafkaJSProtocolError(
    Object.assign(new Error(`broker said ${type}`), { type, code: 1, retriable }),
  );

describe('isClusterUnreachableError', () => {
  it('is true for a refused connection, directly or after kafkajs gave up retrying', () => {
    const refused = new KafkaJSConnectionError('Connection error: connect ECONNREFUSED');
    expect(isClusterUnreachableError(refused)).toBe(true);
    const exhausted = new KafkaJSNumberOfRetriesExceeded(refused, { retryCount: 5, retryTime: 1 });
    expect(isClusterUnreachableError(exhausted)).toBe(true);
  });

  it("is true for a cluster admin adapter's BrokersUnreachableError, whatever its client's error", () => {
    const clientError = Object.assign(new Error('connect ECONNREFUSED 10.0.0.9:9092'), {
      code: 'PLT_KFK_NETWORK',
    });
    expect(isClusterUnreachableError(clientError)).toBe(false);
    const typed = new BrokersUnreachableError(['10.0.0.9:9092'], clientError.message, {
      cause: clientError,
    });
    expect(isClusterUnreachableError(typed)).toBe(true);
  });

  it('is false for a broker certificate this client does not trust, however wrapped', () => {
    const untrusted = new KafkaJSConnectionError(
      'Connection error: self-signed certificate in certificate chain',
      { code: 'SELF_SIGNED_CERT_IN_CHAIN' },
    );
    expect(isClusterUnreachableError(untrusted)).toBe(false);
    const exhausted = new KafkaJSNumberOfRetriesExceeded(untrusted, {
      retryCount: 5,
      retryTime: 1,
    });
    expect(isClusterUnreachableError(exhausted)).toBe(false);
  });

  it('is false for a fault the engine retried for its bound already (the handler decides)', () => {
    const refused = new KafkaJSConnectionError('Connection error: connect ECONNREFUSED');
    const timeout = new ClusterFaultTimeoutError('produce', 'delivery.timeout.ms', 1, 3, 'x', {
      cause: refused,
    });
    expect(isClusterUnreachableError(timeout)).toBe(false);
    const send = new RecordCollectorSendError('sending 1 record failed', { cause: timeout });
    expect(isClusterUnreachableError(send)).toBe(false);
  });

  it('is true for a changelog send that failed because the broker was down', () => {
    const error = new RecordCollectorSendError('sending 21 records to x-changelog failed', {
      cause: new KafkaJSConnectionError('Connection error: connect ECONNREFUSED'),
    });
    expect(isClusterUnreachableError(error)).toBe(true);
  });

  it('is true for a missing group coordinator and retriable protocol errors', () => {
    const coordinator = new KafkaJSNonRetriableError('Failed to find group coordinator');
    Object.defineProperty(coordinator, 'name', { value: 'KafkaJSGroupCoordinatorNotFound' });
    expect(isClusterUnreachableError(coordinator)).toBe(true);
    expect(isClusterUnreachableError(protocolError('COORDINATOR_NOT_AVAILABLE', true))).toBe(true);
    expect(isClusterUnreachableError(protocolError('NOT_LEADER_OR_FOLLOWER', true))).toBe(true);
  });

  it('is false for refusals that do not fix themselves', () => {
    const tooLarge = protocolError('MESSAGE_TOO_LARGE', false);
    expect(isClusterUnreachableError(tooLarge)).toBe(false);
    expect(
      isClusterUnreachableError(
        new RecordCollectorSendError('sending 1 record failed', { cause: tooLarge }),
      ),
    ).toBe(false);
    expect(isClusterUnreachableError(protocolError('INVALID_PRODUCER_EPOCH', false))).toBe(false);
    expect(isClusterUnreachableError(new KafkaJSNonRetriableError('bad config'))).toBe(false);
  });

  it('is false for processing and serde errors and non-errors', () => {
    expect(isClusterUnreachableError(new Error('processor threw'))).toBe(false);
    expect(
      isClusterUnreachableError(
        new StreamsProcessingError('deserialization failed', '0_1', undefined, {
          cause: new SerializationError('bad json'),
        }),
      ),
    ).toBe(false);
    expect(isClusterUnreachableError('ECONNREFUSED')).toBe(false);
    expect(isClusterUnreachableError(undefined)).toBe(false);
    // A plain kafkajs error is retriable by default but names no cluster condition.
    expect(isClusterUnreachableError(new KafkaJSError('something'))).toBe(false);
  });
});
