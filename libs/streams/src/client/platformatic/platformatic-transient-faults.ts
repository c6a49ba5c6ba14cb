// The transient cluster faults as @platformatic/kafka reports them, for the engine's retry policy.
import type { StateLogger } from '../../logging/logger';
import { ClusterRetry } from '../cluster-retry/cluster-retry';
import {
  DEFAULT_CLUSTER_RETRY_SETTINGS,
  type ClusterRetrySettings,
} from '../cluster-retry/cluster-retry-settings';
import { TimeoutError } from '@platformatic/kafka';
import {
  findTransientFault,
  transientKafkaError,
  type TransientFault,
} from '../cluster-retry/transient-fault';

/** The fields of platformatic's errors (`GenericError`, `ProtocolError`) read here. */
interface PlatformaticErrorLike {
  readonly code?: unknown;
  readonly apiId?: unknown;
  readonly message?: unknown;
  /** A closed client's own error: not a network failure. */
  readonly closed?: unknown;
}

/**
 * The transient fault in a platformatic error: a protocol error whose `apiId` is one of Kafka's
 * transient errors (`NOT_LEADER_OR_FOLLOWER`, `NOT_COORDINATOR`, ...), a network failure
 * (`PLT_KFK_NETWORK`: a refused, reset or closed connection) or a request timeout
 * (`TimeoutError`), looked for through platformatic's `MultipleErrors` (one per retry) and
 * causes. `undefined` for anything else: a closed client (`closed: true`), an unknown topic, a
 * refused login, a fenced producer.
 */
export function platformaticTransientFault(error: unknown): TransientFault | undefined {
  return findTransientFault<PlatformaticErrorLike>(error, (e) => {
    const protocol = transientKafkaError(e.apiId);
    if (protocol) return protocol;
    if (e.code !== 'PLT_KFK_NETWORK' || e.closed === true) return undefined;
    const reason = typeof e.message === 'string' ? e.message : 'network error';
    return { kind: e instanceof TimeoutError ? 'timeout' : 'connection', reason };
  });
}

/**
 * The engine's retry policy for @platformatic/kafka calls: {@link platformaticTransientFault}'s
 * faults retried within `settings`' bounds (Kafka's defaults unless given), reported to `logger`.
 */
export function platformaticClusterRetry(
  settings: ClusterRetrySettings = DEFAULT_CLUSTER_RETRY_SETTINGS,
  logger?: StateLogger,
): ClusterRetry {
  return new ClusterRetry(settings, { classify: platformaticTransientFault, logger });
}
