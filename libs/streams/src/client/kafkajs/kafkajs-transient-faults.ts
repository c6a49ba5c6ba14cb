// The transient cluster faults as kafkajs reports them, for the engine's retry policy.
import type { StateLogger } from '../../logging/logger';
import { ClusterRetry } from '../cluster-retry/cluster-retry';
import {
  boundOf,
  DEFAULT_CLUSTER_RETRY_SETTINGS,
  retriesWithin,
  type ClusterRetrySettings,
  type RetryBound,
} from '../cluster-retry/cluster-retry-settings';
import {
  findTransientFault,
  transientKafkaError,
  type TransientFault,
} from '../cluster-retry/transient-fault';

/** kafkajs' errors of a connection or a lookup that a retry (after a refresh) overcomes. */
const KAFKAJS_FAULTS: Readonly<Record<string, TransientFault['kind']>> = {
  KafkaJSConnectionError: 'connection',
  KafkaJSConnectionClosedError: 'connection',
  KafkaJSRequestTimeoutError: 'timeout',
  KafkaJSLockTimeout: 'timeout',
  KafkaJSBrokerNotFound: 'leadership',
  KafkaJSMetadataNotLoaded: 'leadership',
  KafkaJSGroupCoordinatorNotFound: 'coordinator',
};

/** The fields of kafkajs' errors read here. */
interface KafkajsErrorLike {
  readonly name?: unknown;
  readonly type?: unknown;
  readonly message?: unknown;
}

/**
 * The transient fault in a kafkajs error: a protocol error whose `type` is one of Kafka's
 * transient errors (`NOT_LEADER_OR_FOLLOWER`, `NOT_COORDINATOR`, ... as kafkajs names them), a
 * refused, reset or closed connection, a request timeout, a broker or coordinator kafkajs could
 * not find; looked for through kafkajs' wrappers (its retrier's "number of retries exceeded",
 * aggregates, `originalError`). `undefined` for anything else (a certificate this client does
 * not trust, a refused login, a fenced producer: not transient).
 */
export function kafkajsTransientFault(error: unknown): TransientFault | undefined {
  return findTransientFault<KafkajsErrorLike>(error, (e) => {
    const protocol = transientKafkaError(e.type);
    if (protocol) return protocol;
    const kind = typeof e.name === 'string' ? KAFKAJS_FAULTS[e.name] : undefined;
    if (!kind) return undefined;
    return { kind, reason: typeof e.message === 'string' ? e.message : String(e.name) };
  });
}

/**
 * The engine's retry policy for kafkajs calls: {@link kafkajsTransientFault}'s faults retried
 * within `settings`' bounds (Kafka's defaults unless given), reported to `logger`.
 */
export function kafkajsClusterRetry(
  settings: ClusterRetrySettings = DEFAULT_CLUSTER_RETRY_SETTINGS,
  logger?: StateLogger,
): ClusterRetry {
  return new ClusterRetry(settings, { classify: kafkajsTransientFault, logger });
}

/**
 * kafkajs' retry options that follow the policy: its retrier waits `retry.backoff.ms` first,
 * doubling (±20 %) up to `retry.backoff.max.ms`, and counts attempts instead of time: as many
 * retries as fill `bound` (`retriesWithin`), each request's own time on top.
 */
export function kafkajsRetryOptions(
  settings: ClusterRetrySettings,
  bound: RetryBound,
): {
  retries: number;
  initialRetryTime: number;
  maxRetryTime: number;
  multiplier: number;
  factor: number;
} {
  return {
    retries: retriesWithin(settings, boundOf(settings, bound).ms),
    initialRetryTime: settings.retryBackoffMs,
    maxRetryTime: Math.max(settings.retryBackoffMs, settings.retryBackoffMaxMs),
    multiplier: 2,
    factor: 0.2,
  };
}
