import { StreamsError } from './streams.error';

/**
 * The brokers refused this client's credentials (SASL authentication failed). Trying again
 * with the same credentials cannot succeed, so `KafkaStreams.start()` fails at once.
 *
 * What to do: check the mechanism, user name and password in the `kafka.sasl` setting (and
 * that the user exists on the cluster); never retriable.
 */
export class BrokerAuthenticationError extends StreamsError {
  readonly code = 'BROKER_AUTHENTICATION_FAILED';
  readonly retriable = false;

  constructor(
    readonly brokers: readonly string[],
    reason: string,
    options?: { cause?: unknown },
  ) {
    super(
      `the Kafka brokers ${brokers.join(', ')} refused this client's credentials (${reason}): check the kafka.sasl setting`,
      options,
    );
  }
}
