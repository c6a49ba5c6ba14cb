import { KafkaStreamsState } from '@nest-streams/streams';

/** How readiness is decided. */
export type ReadinessMode =
  /**
   * Ready whenever this pod can usefully take requests: RUNNING, or REBALANCING after its first
   * assignment was restored (it answers, forwards, or says 503 + `Retry-After` per key). A
   * rebalance never takes every replica out of the Service at once. The default.
   */
  | 'available'
  /**
   * Ready only when RUNNING with every active store restored. Every member of an eager
   * rebalance goes unready together: behind a Kubernetes Service, callers then get connection
   * errors instead of the module's 503 + `Retry-After`. For users who route elsewhere.
   */
  | 'strict';

/** What the probes are decided from. */
export interface ProbeFacts {
  /** The client's state; `NOT_CREATED` before the module created it. */
  readonly state: KafkaStreamsState | 'NOT_CREATED';
  /** The client reached RUNNING at least once: its first assignment is restored. */
  readonly startedOnce: boolean;
  /** A shutdown began (SIGTERM with `enableShutdownHooks()`, or `app.close()`): draining. */
  readonly shuttingDown: boolean;
  /** Every active task of the current assignment is restored. */
  readonly restored: boolean;
  /**
   * How long the stream thread has made no progress (no fetch completed, no record processed)
   * while holding partitions, in ms; 0 when it holds none or just made progress.
   */
  readonly stalledForMs: number;
  /** While the client keeps trying to reach the cluster at start: why it cannot (a sentence). */
  readonly startupProblem?: string;
}

/** How the probes judge. */
export interface ProbeSettings {
  readonly readiness: ReadinessMode;
  /** A stream thread stalled longer than this (holding partitions) fails liveness. */
  readonly livenessStallMs: number;
}

/** The three probes' answers, each with the reason it says so. */
export interface ProbeVerdict {
  /** startupProbe: up once the first assignment was restored; stays up. */
  readonly started: boolean;
  /** readinessProbe: whether this pod should receive requests now. */
  readonly ready: boolean;
  /** livenessProbe: false only when the process must be restarted. */
  readonly live: boolean;
  readonly reason: string;
}

const FAILED = new Set<string>([KafkaStreamsState.PENDING_ERROR, KafkaStreamsState.ERROR]);

/**
 * The probe semantics for Kubernetes, one function of the facts (see the README's table):
 *
 * | situation                                  | started | ready (available / strict) | live |
 * | ------------------------------------------ | ------- | -------------------------- | ---- |
 * | not created, CREATED, first REBALANCING     | no      | no / no                    | yes  |
 * | RUNNING                                    | yes     | yes / yes                  | yes  |
 * | REBALANCING after the first RUNNING         | yes     | yes / no                   | yes  |
 * | shutting down (draining, PENDING_SHUTDOWN)  | as was  | no / no                    | yes  |
 * | NOT_RUNNING without a shutdown of this pod  | as was  | no / no                    | no   |
 * | PENDING_ERROR, ERROR                        | as was  | no / no                    | no   |
 * | thread stalled > livenessStallMs            | as was  | no / no                    | no   |
 */
export function probeVerdict(facts: ProbeFacts, settings: ProbeSettings): ProbeVerdict {
  const started = facts.startedOnce;
  const verdict = (ready: boolean, live: boolean, reason: string): ProbeVerdict => ({
    started,
    ready,
    live,
    reason,
  });
  if (FAILED.has(facts.state)) return verdict(false, false, `the client is in ${facts.state}`);
  if (facts.shuttingDown) return verdict(false, true, 'shutting down: draining requests');
  if (
    facts.state === KafkaStreamsState.NOT_RUNNING ||
    facts.state === KafkaStreamsState.PENDING_SHUTDOWN
  ) {
    return verdict(
      false,
      false,
      `the client stopped (${facts.state}) without a shutdown of this pod`,
    );
  }
  if (facts.stalledForMs > settings.livenessStallMs) {
    return verdict(
      false,
      false,
      `the stream thread made no progress for ${Math.round(facts.stalledForMs / 1000)} s while holding partitions (limit ${Math.round(settings.livenessStallMs / 1000)} s)`,
    );
  }
  if (!started) {
    return verdict(
      false,
      true,
      facts.startupProblem
        ? `starting: ${facts.startupProblem} (retrying until task.timeout.ms)`
        : `starting: the first assignment is not restored yet (${facts.state})`,
    );
  }
  if (facts.state === KafkaStreamsState.RUNNING) {
    if (settings.readiness === 'strict' && !facts.restored) {
      return verdict(false, true, 'restoring active stores (strict readiness)');
    }
    return verdict(true, true, 'running');
  }
  if (facts.state === KafkaStreamsState.REBALANCING) {
    if (settings.readiness === 'strict')
      return verdict(false, true, 'rebalancing (strict readiness)');
    return verdict(
      true,
      true,
      'rebalancing: answers, forwards or says 503 with Retry-After per key',
    );
  }
  return verdict(false, true, `not started (${facts.state})`);
}
