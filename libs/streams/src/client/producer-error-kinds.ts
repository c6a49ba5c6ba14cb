// The Kafka errors of a producer that the engine tells apart, by Kafka error name, and the
// port's typed error for each: shared by the RecordProducer adapters, which find the names in
// their client's errors.
import {
  GROUP_MOVED_ON_ERRORS,
  commitRefusal,
  groupMovedOnError,
  isGroupMovedOnErrorName,
} from './group-error-names';
import {
  KafkaAuthorizationError,
  type KafkaAuthorizationResource,
} from '../errors/internals/kafka-authorization.error';
import { ProducerFencedError } from '../errors/internals/producer-fenced.error';
import { RecordTooLargeError } from '../errors/internals/record-too-large.error';
import { TransactionAbortedError } from '../errors/internals/transaction-aborted.error';
import { UnknownTopicError } from '../errors/internals/unknown-topic.error';
import type { StreamsError } from '../errors/streams.error';

/** Kafka errors meaning the producer's epoch is no longer current. */
export const FENCED_ERRORS = [
  'PRODUCER_FENCED',
  'INVALID_PRODUCER_EPOCH',
  'TRANSACTION_COORDINATOR_FENCED',
] as const;
/** Kafka errors meaning the open transaction can only be aborted. */
export const ABORTED_TRANSACTION_ERRORS = ['TRANSACTION_ABORTABLE', 'INVALID_TXN_STATE'] as const;
/** Kafka errors of records larger than the topic or broker accepts. */
export const TOO_LARGE_ERRORS = ['MESSAGE_TOO_LARGE', 'RECORD_LIST_TOO_LARGE'] as const;
/** Kafka errors of offsets refused because the group moved on (KIP-447 checks). */
export const COMMIT_FAILED_ERRORS = GROUP_MOVED_ON_ERRORS;
/** Authorization errors, and what each refuses. */
export const AUTHORIZATION_ERRORS: Readonly<Record<string, KafkaAuthorizationResource>> = {
  TOPIC_AUTHORIZATION_FAILED: 'topic',
  GROUP_AUTHORIZATION_FAILED: 'group',
  TRANSACTIONAL_ID_AUTHORIZATION_FAILED: 'transactional-id',
  CLUSTER_AUTHORIZATION_FAILED: 'cluster',
};
const UNKNOWN_TOPIC = 'UNKNOWN_TOPIC_OR_PARTITION';

/** What a failed producer call was about, for the typed error's fields. */
export interface ProducerErrorContext {
  readonly transactionalId: string | undefined;
  /** The topics of the call (its records, or its offsets). */
  readonly topics: readonly string[];
  /** The group of a `sendOffsetsToTransaction`. */
  readonly groupId?: string;
  /** The member id sent with those offsets (KIP-447), when known. */
  readonly memberId?: string;
  /** The static member id sent with those offsets (KIP-447), when there is one. */
  readonly groupInstanceId?: string;
}

/**
 * The port's typed error for a client error in which `find` finds one of the Kafka error
 * names above (it returns the first name of the list it finds), else `undefined`. The client
 * error is the typed error's `cause`.
 */
export function typedProducerError(
  error: unknown,
  find: (names: readonly string[]) => string | undefined,
  context: ProducerErrorContext,
): StreamsError | undefined {
  const options = { cause: error };
  const topics = context.topics.join(', ');
  const transactionalId = context.transactionalId ?? '(idempotent)';
  let name = find(FENCED_ERRORS);
  if (name) return new ProducerFencedError(transactionalId, name, options);
  name = find(ABORTED_TRANSACTION_ERRORS);
  if (name) return new TransactionAbortedError(transactionalId, name, options);
  name = find(Object.keys(AUTHORIZATION_ERRORS));
  if (name) {
    const resource = AUTHORIZATION_ERRORS[name];
    const resourceName =
      resource === 'topic'
        ? topics
        : resource === 'group'
          ? (context.groupId ?? '')
          : resource === 'transactional-id'
            ? transactionalId
            : '';
    return new KafkaAuthorizationError(resource, resourceName, options);
  }
  name = find(TOO_LARGE_ERRORS);
  if (name) return new RecordTooLargeError(topics, name, options);
  if (context.groupId !== undefined) {
    name = find(COMMIT_FAILED_ERRORS);
    if (isGroupMovedOnErrorName(name)) {
      const { groupId, memberId, groupInstanceId } = context;
      return commitRefusal(
        groupId,
        groupMovedOnError(name, groupId, memberId ?? '', error, groupInstanceId),
      );
    }
  }
  if (find([UNKNOWN_TOPIC])) return new UnknownTopicError(topics, options);
  return undefined;
}
