import { StreamsError } from './streams.error';

/**
 * The Kafka cluster and this client do not trust each other: the brokers refused the SASL
 * credentials (wrong user or password, a mechanism the listener does not enable), or the
 * broker's TLS certificate is not signed by a CA this client trusts (or does not name the
 * broker's host). Raised by `KafkaStreams.start()` at the first attempt, never retried:
 * retrying with the same settings cannot succeed.
 *
 * What to do: fix `kafka.sasl` (`mechanism`, `username`, `password`) or `kafka.ssl` (`ca`, and
 * `cert`/`key` when the brokers require client certificates) as the message says; the
 * credentials the cluster knows are the brokers' (`kafka-configs --describe --entity-type
 * users`, or the listener's JAAS configuration). Not retriable.
 */
export class KafkaAuthenticationError extends StreamsError {
  readonly code = 'KAFKA_AUTHENTICATION_FAILED';
  readonly retriable = false;

  constructor(
    /** `sasl`: the credentials were refused; `tls`: the broker's certificate is not trusted. */
    readonly reason: 'sasl' | 'tls',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
