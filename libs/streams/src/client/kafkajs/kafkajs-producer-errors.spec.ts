import { KafkaJSNonRetriableError, KafkaJSProtocolError } from 'kafkajs';
import { CommitFailedError } from '../../errors/internals/commit-failed.error';
import { FencedInstanceIdError } from '../../errors/internals/fenced-instance-id.error';
import { KafkaAuthorizationError } from '../../errors/internals/kafka-authorization.error';
import { MemberFencedError } from '../../errors/internals/member-fenced.error';
import { RebalanceInProgressError } from '../../errors/internals/rebalance-in-progress.error';
import { UnknownMemberError } from '../../errors/internals/unknown-member.error';
import { ProducerFencedError } from '../../errors/internals/producer-fenced.error';
import { RecordTooLargeError } from '../../errors/internals/record-too-large.error';
import { TransactionAbortedError } from '../../errors/internals/transaction-aborted.error';
import { UnknownTopicError } from '../../errors/internals/unknown-topic.error';
import { typedKafkajsProducerError } from './kafkajs-producer-errors';

// kafkajs' own factory of the errors it throws for a broker's error code (no typings).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { createErrorFromCode } = require('kafkajs/src/protocol/error') as {
  createErrorFromCode(code: number): KafkaJSProtocolError;
};

const context = { transactionalId: 'app-0_1', topics: ['out'], groupId: 'app' };

describe('typedKafkajsProducerError', () => {
  it.each([
    [47, ProducerFencedError, 'INVALID_PRODUCER_EPOCH'],
    [48, TransactionAbortedError, 'INVALID_TXN_STATE'],
    [10, RecordTooLargeError, 'MESSAGE_TOO_LARGE'],
    [18, RecordTooLargeError, 'RECORD_LIST_TOO_LARGE'],
  ])('types Kafka error %i, also when kafkajs kept only its message', (code, type, name) => {
    const protocol = createErrorFromCode(code);
    for (const error of [protocol, new KafkaJSNonRetriableError(protocol)]) {
      const typed = typedKafkajsProducerError(error, context);
      expect(typed).toBeInstanceOf(type);
      expect(typed).toMatchObject({ kafkaError: name, cause: error });
    }
  });

  it.each([
    [22, MemberFencedError, { reason: 'illegal-generation' }],
    [25, UnknownMemberError, { groupId: 'app' }],
    [27, RebalanceInProgressError, { groupId: 'app' }],
  ])(
    'types Kafka error %i of offsets as CommitFailedError caused by the group error',
    (code, type, fields) => {
      const protocol = createErrorFromCode(code);
      for (const error of [protocol, new KafkaJSNonRetriableError(protocol)]) {
        const typed = typedKafkajsProducerError(error, context) as CommitFailedError;
        expect(typed).toBeInstanceOf(CommitFailedError);
        expect(typed.groupId).toBe('app');
        expect(typed.cause).toBeInstanceOf(type);
        expect(typed.cause).toMatchObject({ ...fields, cause: error });
      }
    },
  );

  it('types a fenced instance id of offsets as FencedInstanceIdError, not a CommitFailedError', () => {
    const protocol = createErrorFromCode(82);
    for (const error of [protocol, new KafkaJSNonRetriableError(protocol)]) {
      const typed = typedKafkajsProducerError(error, context);
      expect(typed).toBeInstanceOf(FencedInstanceIdError);
      expect(typed).toMatchObject({
        code: 'FENCED_INSTANCE_ID',
        retriable: false,
        groupId: 'app',
        groupInstanceId: undefined,
        cause: error,
      });
    }
  });

  it('types authorization and unknown topics, and leaves other errors as they are', () => {
    const topic = typedKafkajsProducerError(createErrorFromCode(29), context);
    expect(topic).toBeInstanceOf(KafkaAuthorizationError);
    expect(topic).toMatchObject({ resource: 'topic', resourceName: 'out' });
    expect(typedKafkajsProducerError(createErrorFromCode(53), context)).toMatchObject({
      resource: 'transactional-id',
      resourceName: 'app-0_1',
    });
    const unknown = typedKafkajsProducerError(createErrorFromCode(3), context);
    expect(unknown).toBeInstanceOf(UnknownTopicError);
    expect((unknown as UnknownTopicError).topic).toBe('out');
    const other = createErrorFromCode(15);
    expect(typedKafkajsProducerError(other, context)).toBe(other);
    const plain = new Error('disk full');
    expect(typedKafkajsProducerError(plain, context)).toBe(plain);
  });

  it('types offsets refused for a stale generation only for a send of offsets', () => {
    const stale = createErrorFromCode(22);
    expect(typedKafkajsProducerError(stale, { transactionalId: 'x', topics: [] })).toBe(stale);
  });
});
