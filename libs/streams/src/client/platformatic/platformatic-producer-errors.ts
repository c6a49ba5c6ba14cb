import type { StreamsError } from '../../errors/streams.error';
import { typedProducerError, type ProducerErrorContext } from '../producer-error-kinds';
import { findError, typedTopicError } from './platformatic-cluster-admin-errors';

/** The Kafka error name a platformatic error (or one it nests) carries, of `names`. */
function findKafkaError(error: unknown, names: readonly string[]): string | undefined {
  for (const name of names) {
    if (findError(error, (e) => e.apiId === name)) return name;
  }
  return undefined;
}

/**
 * The port's typed error for a @platformatic/kafka producer error: the producer errors of
 * `typedProducerError`, then platformatic's own unknown topic (its metadata lacks the topic)
 * and a network failure (`BrokersUnreachableError`); else the error as platformatic reported it.
 */
export function typedPlatformaticProducerError(
  error: unknown,
  context: ProducerErrorContext,
  brokers: readonly string[],
): unknown {
  const typed: StreamsError | undefined = typedProducerError(
    error,
    (names) => findKafkaError(error, names),
    context,
  );
  return typed ?? typedTopicError(error, context.topics.join(', '), brokers);
}
