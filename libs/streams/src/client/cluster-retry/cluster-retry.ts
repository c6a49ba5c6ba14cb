// The one place every Kafka call the engine writes itself retries a transient cluster fault.
import { ClusterFaultTimeoutError } from '../../errors/cluster-fault-timeout.error';
import type { StateLogger } from '../../logging/logger';
import {
  boundOf,
  retryBackoff,
  type ClusterRetrySettings,
  type RetryBound,
} from './cluster-retry-settings';
import type { FaultClassifier, TransientFault } from './transient-fault';

/** One call to run through {@link ClusterRetry.run}. */
export interface RetriedCall<T> {
  /** What the call does, for logs and the timeout error, e.g. `OffsetCommit of group g`. */
  readonly name: string;
  /** `delivery` (sends, transactions: `delivery.timeout.ms`) or `api` (`default.api.timeout.ms`). */
  readonly bound: RetryBound;
  /** A bound of the caller's, in ms, instead of the setting's (a lag read for a health check). */
  readonly boundMs?: number;
  /** One attempt (1, 2, ...). */
  attempt(attempt: number): Promise<T>;
  /**
   * After a transient fault, before the pause: forget the leader or coordinator the attempt used
   * (refresh the metadata, look the coordinator up again). Its errors are ignored (the next
   * attempt meets them).
   */
  onFault?(fault: TransientFault, error: unknown): void | Promise<void>;
  /** Faults this call also retries (e.g. a just-created topic unknown to a lagging broker). */
  readonly alsoRetry?: FaultClassifier;
  /** True once the call should end (its client closes): the last error is thrown as it is. */
  stopped?(): boolean;
}

/** What {@link ClusterRetry} needs besides the settings; tests replace the clock. */
export interface ClusterRetryOptions {
  /** The client's classification of its own errors. */
  readonly classify: FaultClassifier;
  /**
   * Where retried calls are told: the first retry at debug, every 10th as a warning, the
   * success after more than 10 attempts at info (after fewer, at debug); a refused answer
   * (`TransientFault.refusedAnswer`) as a warning each time.
   */
  readonly logger?: StateLogger;
  readonly now?: () => number;
  readonly sleep?: (ms: number) => Promise<void>;
  readonly random?: () => number;
}

/**
 * Kafka's retry policy for transient cluster faults, for both clients: a call that fails with a
 * fault its client's classifier recognizes (a leader or coordinator that moved, a refused or
 * reset connection, a request timeout, too few in-sync replicas) has its leader or coordinator
 * forgotten (`onFault`) and is attempted again after Kafka's exponential back-off
 * (`retry.backoff.ms` doubling up to `retry.backoff.max.ms`, ±20 %), for as long as its bound
 * (`delivery.timeout.ms` or `default.api.timeout.ms`) allows the next attempt to start. Each
 * request of an attempt is itself bounded by `request.timeout.ms` (the clients' request timeout).
 *
 * Errors: a non-transient error is thrown at once, as it is; a fault that outlasts the bound
 * throws `ClusterFaultTimeoutError` (retriable; its cause: the last error), which the stream
 * thread's uncaught-exception handler receives (default: replace the thread); a stopped call
 * throws its last error as it is.
 */
export class ClusterRetry {
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly random: () => number;

  constructor(
    readonly settings: ClusterRetrySettings,
    private readonly options: ClusterRetryOptions,
  ) {
    this.now = options.now ?? Date.now;
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.random = options.random ?? Math.random;
  }

  /** The transient fault in `error`, by the client's classifier. */
  classify(error: unknown): TransientFault | undefined {
    return this.options.classify(error);
  }

  /**
   * For a call the client itself retried for the bound (kafkajs' producer, whose retry counts
   * come from `retriesWithin`): the `ClusterFaultTimeoutError` of its transient fault, or
   * `undefined` when the error is no transient fault (the caller throws it as it is).
   */
  exhausted(
    name: string,
    bound: RetryBound,
    error: unknown,
    attempts: number,
  ): ClusterFaultTimeoutError | undefined {
    const fault = this.options.classify(error);
    if (!fault) return undefined;
    const { name: boundName, ms } = boundOf(this.settings, bound);
    return new ClusterFaultTimeoutError(name, boundName, ms, attempts, fault.reason, {
      cause: error,
    });
  }

  /** Runs `call` until it succeeds, fails for good, or its fault outlasts the bound. */
  async run<T>(call: RetriedCall<T>): Promise<T> {
    const bound =
      call.boundMs === undefined
        ? boundOf(this.settings, call.bound)
        : { name: "the call's timeout", ms: call.boundMs };
    const started = this.now();
    for (let attempt = 1; ; attempt++) {
      try {
        const result = await call.attempt(attempt);
        if (attempt > 1) {
          const seconds = ((this.now() - started) / 1000).toFixed(1);
          const line = `${call.name} succeeded after ${attempt} attempts (${seconds} s)`;
          if (attempt > 10) this.options.logger?.info(line);
          else this.options.logger?.debug(line);
        }
        return result;
      } catch (error) {
        const fault = this.options.classify(error) ?? call.alsoRetry?.(error);
        if (!fault || call.stopped?.()) throw error;
        await Promise.resolve(call.onFault?.(fault, error)).catch(() => undefined);
        const pause = retryBackoff(this.settings, attempt, this.random);
        const elapsed = this.now() - started;
        if (elapsed + pause >= bound.ms) {
          throw new ClusterFaultTimeoutError(
            call.name,
            bound.name,
            bound.ms,
            attempt,
            fault.reason,
            {
              cause: error,
            },
          );
        }
        // A fault a few retries overcome is common (a leader moves): told at debug; one that
        // lasts, at every 10th attempt, as a warning. A refused answer is rare and says a broker
        // hung: told as a warning each time.
        if (fault.refusedAnswer) {
          this.options.logger?.warn(
            `${call.name}: answer refused (${fault.reason}); the broker answered from before it was fenced (hung or paused); asking again after a metadata refresh`,
          );
        } else if (attempt === 1 || attempt % 10 === 0) {
          const line = `${call.name} failed (${fault.reason}); retrying with back-off within ${bound.name} (attempt ${attempt}, ${Math.round(elapsed / 1000)} s of ${Math.round(bound.ms / 1000)} s)`;
          if (attempt === 1) this.options.logger?.debug(line);
          else this.options.logger?.warn(line);
        }
        await this.sleep(pause);
        if (call.stopped?.()) throw error;
      }
    }
  }
}
