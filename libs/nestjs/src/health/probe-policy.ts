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
  /**
   * While the start waits on a cause that may resolve itself, that cause; after a failed start,
   * the error that failed it (the engine's `startupProblem`: its code and message).
   */
  readonly startupProblem?: { readonly code: string; readonly message: string };
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
  /** Why, in a sentence. */
  readonly reason: string;
  /**
   * Why, as a code to alert on: `RUNNING`, `REBALANCING`, `STARTING`, `RESTORING` (strict
   * readiness), `SHUTTING_DOWN`, `STOPPED`, `FAILED`, `STALLED`, `NOT_STARTED`; while a start
   * waits on a cause, or after it failed on one, that cause's error code
   * (`STATE_DIR_LOCKED`, `MISSING_SOURCE_TOPIC`, `BROKERS_UNREACHABLE`,
   * `KAFKA_AUTHENTICATION_FAILED`, ...).
   */
  readonly code: string;
}

const FAILED = new Set<string>([KafkaStreamsState.PENDING_ERROR, KafkaStreamsState.ERROR]);

/**
 * The probe semantics for Kubernetes, one function of the facts (docs/deployment.md's Probes table):
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
  const problem = facts.startupProblem;
  const verdict = (ready: boolean, live: boolean, code: string, reason: string): ProbeVerdict => ({
    started,
    ready,
    live,
    reason,
    code,
  });
  if (FAILED.has(facts.state)) {
    return problem
      ? verdict(false, false, problem.code, `could not start: ${problem.message}`)
      : verdict(false, false, 'FAILED', `the client is in ${facts.state}`);
  }
  if (facts.shuttingDown) {
    return verdict(false, true, 'SHUTTING_DOWN', 'shutting down: draining requests');
  }
  if (
    facts.state === KafkaStreamsState.NOT_RUNNING ||
    facts.state === KafkaStreamsState.PENDING_SHUTDOWN
  ) {
    return verdict(
      false,
      false,
      'STOPPED',
      `the client stopped (${facts.state}) without a shutdown of this pod`,
    );
  }
  if (facts.stalledForMs > settings.livenessStallMs) {
    return verdict(
      false,
      false,
      'STALLED',
      `the stream thread made no progress for ${Math.round(facts.stalledForMs / 1000)} s while holding partitions (limit ${Math.round(settings.livenessStallMs / 1000)} s)`,
    );
  }
  if (!started) {
    return problem
      ? verdict(
          false,
          true,
          problem.code,
          `starting: ${problem.message} (retrying until task.timeout.ms)`,
        )
      : verdict(
          false,
          true,
          'STARTING',
          `starting: the first assignment is not restored yet (${facts.state})`,
        );
  }
  if (facts.state === KafkaStreamsState.RUNNING) {
    if (settings.readiness === 'strict' && !facts.restored) {
      return verdict(false, true, 'RESTORING', 'restoring active stores (strict readiness)');
    }
    return verdict(true, true, 'RUNNING', 'running');
  }
  if (facts.state === KafkaStreamsState.REBALANCING) {
    if (settings.readiness === 'strict') {
      return verdict(false, true, 'REBALANCING', 'rebalancing (strict readiness)');
    }
    return verdict(
      true,
      true,
      'REBALANCING',
      'rebalancing: answers, forwards or says 503 with Retry-After per key',
    );
  }
  return verdict(false, true, 'NOT_STARTED', `not started (${facts.state})`);
}
