import {
  DEFAULT_KAFKA_CLIENT,
  KAFKA_CLIENT_NAMES,
  type GroupProtocol,
  type KafkaClientName,
} from '@nest-streams/streams';

/**
 * The Kafka client the integration tests build their `KafkaStreams` on: `NEST_STREAMS_CLIENT`
 * (`@platformatic/kafka` or `kafkajs`), default the engine's (`@platformatic/kafka`). Fixture
 * applications started by a test inherit the variable. `npm run test:integration:kafkajs` sets
 * it to `kafkajs`.
 *
 * @throws Error naming the variable when it holds another value: fix the variable.
 */
export function streamsClient(): KafkaClientName {
  const value = process.env.NEST_STREAMS_CLIENT || DEFAULT_KAFKA_CLIENT;
  if (!KAFKA_CLIENT_NAMES.includes(value as KafkaClientName)) {
    throw new Error(
      `NEST_STREAMS_CLIENT must be one of ${KAFKA_CLIENT_NAMES.join(', ')}, got '${value}'`,
    );
  }
  return value as KafkaClientName;
}

/**
 * Whether the integration tests' `KafkaStreams` rebalance cooperatively: the engine's default
 * for the client of {@link streamsClient} (cooperative on @platformatic/kafka, eager on kafkajs).
 */
export function cooperativeRebalancing(): boolean {
  return streamsClient() === '@platformatic/kafka';
}

/**
 * The group protocol the integration tests run their `KafkaStreams` with:
 * `NEST_STREAMS_GROUP_PROTOCOL` (`classic` or `streams`, KIP-1071), default `classic`.
 * `streams` needs `NEST_STREAMS_CLIENT=@platformatic/kafka`. Fixture applications started by a
 * test inherit the variable. `npm run test:integration:streams-protocol` sets both.
 *
 * @throws Error naming the variable when it holds another value: fix the variable.
 */
export function streamsGroupProtocol(): GroupProtocol {
  const value = process.env.NEST_STREAMS_GROUP_PROTOCOL || 'classic';
  if (value !== 'classic' && value !== 'streams') {
    throw new Error(`NEST_STREAMS_GROUP_PROTOCOL must be classic or streams, got '${value}'`);
  }
  return value;
}
