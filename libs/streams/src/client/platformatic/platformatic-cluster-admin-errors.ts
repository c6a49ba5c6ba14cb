import { BrokerAuthenticationError } from '../../errors/broker-authentication.error';
import { BrokersUnreachableError } from '../../errors/brokers-unreachable.error';
import { GroupNotDeletedError } from '../../errors/internals/group-not-deleted.error';
import { PartitionLeaderNotAvailableError } from '../../errors/internals/partition-leader-not-available.error';
import { UnknownTopicError } from '../../errors/internals/unknown-topic.error';
import { findInErrorChain } from '../error-chain';

/** Kafka errors of a partition whose leadership is moving. */
const LEADERSHIP_ERRORS = new Set([
  'NOT_LEADER_OR_FOLLOWER',
  'LEADER_NOT_AVAILABLE',
  'UNKNOWN_LEADER_EPOCH',
  'FENCED_LEADER_EPOCH',
]);

/** The fields of @platformatic/kafka's errors (`GenericError`, `ProtocolError`) read here. */
export interface PlatformaticErrorLike {
  readonly code?: unknown;
  /** A protocol error's Kafka error name, e.g. `UNKNOWN_TOPIC_OR_PARTITION`. */
  readonly apiId?: unknown;
  readonly message?: unknown;
  /** A closed client's own error (not a network failure). */
  readonly closed?: unknown;
  readonly errors?: unknown;
  readonly cause?: unknown;
}

/**
 * The first error of a chain that passes `test` ({@link findInErrorChain}): platformatic nests
 * its errors in `MultipleErrors` (`errors`, one per retry) and in `cause`.
 */
export function findError(
  error: unknown,
  test: (e: PlatformaticErrorLike) => boolean,
): PlatformaticErrorLike | undefined {
  return findInErrorChain(error, test);
}

const hasApiId = (id: string) => (e: PlatformaticErrorLike) => e.apiId === id;

/** The innermost message of a chain (the socket's, under platformatic's retry summaries). */
function rootMessage(error: unknown): string {
  let message = '';
  for (let e = error as PlatformaticErrorLike | undefined, depth = 0; e && depth < 8; depth++) {
    if (typeof e.message === 'string' && e.message.length > 0) message = e.message;
    const next = (Array.isArray(e.errors) ? e.errors.at(-1) : undefined) ?? e.cause;
    if (next === e) break;
    e = next as PlatformaticErrorLike | undefined;
  }
  return message || 'no answer';
}

/**
 * The port's connection errors: `BrokerAuthenticationError` when SASL was refused,
 * `BrokersUnreachableError` when no broker answered (a network error or timeout, not a closed
 * client), else `undefined`.
 */
export function platformaticConnectionError(
  error: unknown,
  brokers: readonly string[],
): BrokerAuthenticationError | BrokersUnreachableError | undefined {
  const authentication = findError(error, (e) => e.code === 'PLT_KFK_AUTHENTICATION');
  if (authentication) {
    return new BrokerAuthenticationError(brokers, rootMessage(authentication), { cause: error });
  }
  if (findError(error, (e) => e.code === 'PLT_KFK_NETWORK' && e.closed !== true)) {
    return new BrokersUnreachableError(brokers, rootMessage(error), { cause: error });
  }
  return undefined;
}

/**
 * The port's typed error for a platformatic error about `topic`: an unknown topic (Kafka's
 * error, or platformatic's own "Unknown topic" and "Unknown partition" when its metadata lacks
 * them), moving leadership, an unreachable cluster; else the error as it is.
 */
export function typedTopicError(
  error: unknown,
  topic: string,
  brokers: readonly string[],
): unknown {
  if (
    findError(error, hasApiId('UNKNOWN_TOPIC_OR_PARTITION')) ||
    findError(
      error,
      (e) =>
        e.code === 'PLT_KFK_USER' &&
        typeof e.message === 'string' &&
        /^Unknown (topic|partition)\b/.test(e.message),
    )
  ) {
    return new UnknownTopicError(topic, { cause: error });
  }
  const leadership = findError(
    error,
    (e) => typeof e.apiId === 'string' && LEADERSHIP_ERRORS.has(e.apiId),
  );
  if (leadership) {
    return new PartitionLeaderNotAvailableError(topic, String(leadership.apiId), { cause: error });
  }
  return typedClusterError(error, brokers);
}

/** The port's error for a failed group deletion, else {@link typedClusterError}'s. */
export function typedGroupDeletionError(
  error: unknown,
  groupId: string,
  brokers: readonly string[],
): unknown {
  if (findError(error, hasApiId('NON_EMPTY_GROUP'))) {
    return new GroupNotDeletedError(groupId, 'not-empty', { cause: error });
  }
  if (findError(error, hasApiId('GROUP_ID_NOT_FOUND'))) {
    return new GroupNotDeletedError(groupId, 'not-found', { cause: error });
  }
  return typedClusterError(error, brokers);
}

/** `BrokersUnreachableError` for a network failure, else the error as it is. */
export function typedClusterError(error: unknown, brokers: readonly string[]): unknown {
  const connection = platformaticConnectionError(error, brokers);
  return connection instanceof BrokersUnreachableError ? connection : error;
}

/** Whether the controller refused a topic because it exists already. */
export function isTopicAlreadyExists(error: unknown): boolean {
  return findError(error, hasApiId('TOPIC_ALREADY_EXISTS')) !== undefined;
}
