import { BrokersUnreachableError } from '../errors/brokers-unreachable.error';
import { ClusterFaultTimeoutError } from '../errors/cluster-fault-timeout.error';
import { isCertificateFailure } from './certificate-failure';

/**
 * kafkajs errors that mean "the cluster cannot be reached right now" even though kafkajs marks
 * some of them non-retriable (they are what its own retries ended with).
 */
const UNREACHABLE_ERROR_NAMES = new Set([
  'KafkaJSConnectionError',
  'KafkaJSConnectionClosedError',
  'KafkaJSRequestTimeoutError',
  'KafkaJSBrokerNotFound',
  'KafkaJSMetadataNotLoaded',
  'KafkaJSGroupCoordinatorNotFound',
  'KafkaJSTimeout',
  'KafkaJSLockTimeout',
]);

/**
 * Whether a stream-thread error means that the Kafka cluster is (temporarily) unreachable or
 * not ready: a refused or closed connection, a request timeout, no group or transaction
 * coordinator, or a protocol error kafkajs marks retriable — directly, or as the cause of an
 * engine error (a failed changelog send, kafkajs' "number of retries exceeded"). Kafka
 * Streams keeps going through such errors until `task.timeout.ms`; the client replaces its
 * thread (tasks closed dirty, rejoin, restore) instead of shutting down.
 *
 * Not unreachable: errors from processors or serdes, broker refusals that will not change by
 * themselves (a record too large, an authorization or authentication failure, a broker
 * certificate this client does not trust, a fenced producer epoch), and a
 * `ClusterFaultTimeoutError` (the engine retried the fault for its bound already: it goes to
 * the uncaught-exception handler, whose default replaces the thread).
 */
export function isClusterUnreachableError(error: unknown, depth = 0): boolean {
  if (depth > 8 || typeof error !== 'object' || error === null) return false;
  if (depth === 0 && isCertificateFailure(error)) return false;
  if (error instanceof ClusterFaultTimeoutError) return false;
  // A ClusterAdmin adapter's own typing of an unreachable cluster (whatever its client's errors).
  if (error instanceof BrokersUnreachableError) return true;
  const e = error as {
    name?: unknown;
    retriable?: unknown;
    cause?: unknown;
    errors?: unknown;
    originalError?: unknown;
  };
  const name = typeof e.name === 'string' ? e.name : '';
  if (UNREACHABLE_ERROR_NAMES.has(name)) return true;
  if (name === 'KafkaJSProtocolError') return e.retriable === true;
  if (name === 'KafkaJSAggregateError' && Array.isArray(e.errors) && e.errors.length > 0) {
    return e.errors.every((inner) => isClusterUnreachableError(inner, depth + 1));
  }
  const cause = e.cause ?? e.originalError;
  return cause !== undefined && cause !== error && isClusterUnreachableError(cause, depth + 1);
}
