import { StreamsError } from './streams.error';

/**
 * No broker of `bootstrap.servers` could be reached (connection refused or timed out, host
 * unknown, no controller or coordinator yet). `KafkaStreams.start()` keeps trying until
 * `task.timeout.ms` has passed, logging this error at each failed attempt, then fails with it
 * (the client goes to ERROR).
 *
 * What to do: check that the brokers run, that `bootstrapServers` (`bootstrap.servers`) lists
 * them as this host can reach them, and that the network (firewall, TLS listener port) lets
 * this host in. Retriable: the same start succeeds once the brokers are reachable.
 */
export class BrokersUnreachableError extends StreamsError {
  readonly code = 'BROKERS_UNREACHABLE';
  readonly retriable = true;

  constructor(
    readonly brokers: readonly string[],
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(
      `cannot reach the Kafka brokers ${brokers.join(', ')} (${reason}): check that they run and that bootstrap.servers names them as this host reaches them`,
      options,
    );
  }
}
