// Kafka's client settings that bound how a call retries through a transient cluster fault.

/** The retry and timeout settings of every Kafka call the engine makes (Kafka's names). */
export interface ClusterRetrySettings {
  /** `retry.backoff.ms`: the first pause before a retry. */
  readonly retryBackoffMs: number;
  /** `retry.backoff.max.ms`: the longest pause (the pause doubles from the first up to it). */
  readonly retryBackoffMaxMs: number;
  /** `request.timeout.ms`: how long one request waits for its answer. */
  readonly requestTimeoutMs: number;
  /** `delivery.timeout.ms`: how long a send or a transaction call is retried. */
  readonly deliveryTimeoutMs: number;
  /** `default.api.timeout.ms`: how long an admin, offset or group call is retried. */
  readonly defaultApiTimeoutMs: number;
}

/** Kafka's defaults of {@link ClusterRetrySettings}. */
export const DEFAULT_CLUSTER_RETRY_SETTINGS: ClusterRetrySettings = {
  retryBackoffMs: 100,
  retryBackoffMaxMs: 1_000,
  requestTimeoutMs: 30_000,
  deliveryTimeoutMs: 120_000,
  defaultApiTimeoutMs: 60_000,
};

/** Which setting bounds a call: `delivery` (sends, transactions) or `api` (everything else). */
export type RetryBound = 'delivery' | 'api';

/** The Kafka name and the value in ms of `bound`. */
export function boundOf(
  settings: ClusterRetrySettings,
  bound: RetryBound,
): { readonly name: string; readonly ms: number } {
  return bound === 'delivery'
    ? { name: 'delivery.timeout.ms', ms: settings.deliveryTimeoutMs }
    : { name: 'default.api.timeout.ms', ms: settings.defaultApiTimeoutMs };
}

/**
 * Kafka's exponential back-off (`ExponentialBackoff`: multiplier 2, jitter 0.2): the pause before
 * retry number `attempt` (1 for the first retry) is `retry.backoff.ms` doubled `attempt - 1`
 * times, within ±20 % (`random` in [0, 1)), never more than `retry.backoff.max.ms`.
 */
export function retryBackoff(
  settings: Pick<ClusterRetrySettings, 'retryBackoffMs' | 'retryBackoffMaxMs'>,
  attempt: number,
  random: () => number = Math.random,
): number {
  const { retryBackoffMs: initial, retryBackoffMaxMs: max } = settings;
  if (max <= initial) return initial;
  const expMax = Math.log(max / initial) / Math.log(2);
  const term = initial * 2 ** Math.min(Math.max(0, attempt - 1), expMax);
  const factor = 0.8 + 0.4 * random();
  return Math.min(Math.floor(term * factor), max);
}

/**
 * How many retries with {@link retryBackoff}'s nominal pauses fill `boundMs`: for a client
 * whose retry loop counts attempts instead of time (kafkajs), so that it retries for about the
 * bound (each request's own time comes on top).
 */
export function retriesWithin(settings: ClusterRetrySettings, boundMs: number): number {
  let spent = 0;
  let retries = 0;
  while (spent < boundMs) {
    retries++;
    spent += retryBackoff(settings, retries, () => 0.5);
    if (retries > 100_000) break;
  }
  return retries;
}
