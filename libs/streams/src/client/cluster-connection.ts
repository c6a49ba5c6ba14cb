import { BrokerAuthenticationError } from '../errors/broker-authentication.error';
import { BrokersUnreachableError } from '../errors/brokers-unreachable.error';
import { StreamsError } from '../errors/streams.error';
import type { StateLogger } from '../logging/logger';
import type { ClusterAdmin } from './cluster-admin';
import { isClusterUnreachableError } from './cluster-unreachable';
import { findInErrorChain } from './error-chain';

/** What {@link connectAdmin} needs. */
export interface ClusterConnectionOptions {
  readonly brokers: readonly string[];
  /** `task.timeout.ms`: how long an unreachable cluster is tried for. */
  readonly taskTimeoutMs: number;
  readonly logger: StateLogger;
  /** Told of each failed attempt that will be retried (the typed error), and of success. */
  readonly onProblem?: (problem: StreamsError | undefined) => void;
  /** True once the client is closing: stop trying. */
  readonly stopped?: () => boolean;
  /** Pause between attempts, in ms (kafkajs already backs off within an attempt); default 1000. */
  readonly retryDelayMs?: number;
  readonly now?: () => number;
}

/**
 * Connects the admin client as `KafkaStreams.start()` does: an unreachable cluster is retried
 * (a warning at the first failed attempt, naming the brokers; the others at debug) until
 * `task.timeout.ms` has passed since
 * the first failure, as Kafka Streams waits for its cluster; refused credentials fail at once.
 *
 * @throws BrokersUnreachableError (retriable) once `task.timeout.ms` ran out, or when stopped;
 *   BrokerAuthenticationError (not retriable) when SASL authentication fails; any other error
 *   of the client as it is.
 */
export async function connectAdmin(
  admin: Pick<ClusterAdmin, 'connect'>,
  options: ClusterConnectionOptions,
): Promise<void> {
  const now = options.now ?? Date.now;
  const started = now();
  for (let attempt = 1; ; attempt++) {
    try {
      await admin.connect();
      if (attempt > 1)
        options.logger.info(`connected to the Kafka brokers after ${attempt} attempts`);
      options.onProblem?.(undefined);
      return;
    } catch (error) {
      const typed = typedConnectionError(error, options.brokers);
      if (!(typed instanceof BrokersUnreachableError)) throw typed;
      const elapsed = now() - started;
      if (elapsed >= options.taskTimeoutMs || options.stopped?.()) throw typed;
      options.onProblem?.(typed);
      // Once at warn, with what to do; the attempts after it at debug.
      options.logger[attempt === 1 ? 'warn' : 'debug'](
        `${typed.message}; retrying (attempt ${attempt}, ${Math.round(elapsed / 1000)} s of task.timeout.ms ${Math.round(options.taskTimeoutMs / 1000)} s)`,
      );
      await new Promise((resolve) => setTimeout(resolve, options.retryDelayMs ?? 1000));
      if (options.stopped?.()) throw typed;
    }
  }
}

/**
 * The typed error of a failed connection: {@link BrokersUnreachableError} when the cluster
 * cannot be reached, {@link BrokerAuthenticationError} when SASL failed, else the error itself
 * (an engine error, such as one a {@link ClusterAdmin} adapter typed already, as it is).
 */
export function typedConnectionError(error: unknown, brokers: readonly string[]): unknown {
  if (error instanceof StreamsError) return error;
  const authentication = findInErrorChain<ErrorLike>(
    error,
    (e) => e.name === 'KafkaJSSASLAuthenticationError',
  );
  if (authentication) {
    return new BrokerAuthenticationError(brokers, messageOf(authentication), { cause: error });
  }
  if (isClusterUnreachableError(error)) {
    return new BrokersUnreachableError(brokers, rootMessage(error), { cause: error });
  }
  return error;
}

interface ErrorLike {
  readonly name?: unknown;
  readonly message?: unknown;
  readonly cause?: unknown;
  readonly originalError?: unknown;
  readonly errors?: unknown;
}

/** The innermost message of an error chain (kafkajs wraps the socket error several times). */
function rootMessage(error: unknown): string {
  let current = error as ErrorLike | undefined;
  let message = messageOf(current);
  for (let depth = 0; current && depth < 8; depth++) {
    const inner = (current.cause ??
      current.originalError ??
      (Array.isArray(current.errors) ? current.errors.at(-1) : undefined)) as ErrorLike | undefined;
    if (!inner || inner === current) break;
    const innerMessage = messageOf(inner);
    if (innerMessage) message = innerMessage;
    current = inner;
  }
  return message || 'no answer';
}

function messageOf(error: ErrorLike | undefined): string {
  return typeof error?.message === 'string' ? error.message : '';
}
