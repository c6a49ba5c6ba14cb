import { StateDirectoryLockedError } from '../../../errors/state-directory-locked.error';
import { StreamsError } from '../../../errors/streams.error';
import type { StateLogger } from '../../../logging/logger';

/** What a {@link StartupWait} needs. */
export interface StartupWaitOptions {
  /** `task.timeout.ms`: how long a start waits for a cause that may resolve itself. */
  readonly taskTimeoutMs: number;
  readonly logger: StateLogger;
  /** Told of each cause the start waits on (the typed error), and of its end (`undefined`). */
  readonly onProblem: (problem: StreamsError | undefined) => void;
  /** True once the client is closing: stop waiting. */
  readonly stopped: () => boolean;
  /** Pause between attempts, in ms; default 1000. */
  readonly retryDelayMs?: number;
  readonly now?: () => number;
}

/**
 * How `KafkaStreams.start()` waits on a cause that may resolve itself without a change to the
 * application (a source topic not created yet, a state directory that a stopping process still
 * holds): the step is tried again every second, the cause reported (`startupProblem`, so
 * readiness names it) and logged once with what to do, until `task.timeout.ms` has passed since
 * the first cause of this start; then the step's error fails the start.
 */
export class StartupWait {
  private firstProblemAt: number | undefined;
  private readonly logged = new Set<string>();

  constructor(private readonly options: StartupWaitOptions) {}

  /**
   * Runs `step` until it succeeds. An error `waitable` accepts is reported and the step tried
   * again while `task.timeout.ms` lasts; any other error is thrown at once.
   *
   * @throws the step's last error once `task.timeout.ms` ran out or the client is closing; any
   *   error `waitable` refuses, as it is.
   */
  async retry<T>(step: () => Promise<T>, waitable: (error: unknown) => boolean): Promise<T> {
    const now = this.options.now ?? Date.now;
    for (let waited = false; ; waited = true) {
      try {
        const result = await step();
        if (waited) {
          this.options.onProblem(undefined);
          this.options.logger.info('the start goes on: the cause it waited for is resolved');
        }
        return result;
      } catch (error) {
        if (!waitable(error) || !(error instanceof StreamsError)) throw error;
        this.firstProblemAt ??= now();
        const elapsed = now() - this.firstProblemAt;
        if (elapsed >= this.options.taskTimeoutMs || this.options.stopped()) throw error;
        this.options.onProblem(error);
        this.logOnce(error);
        await new Promise((resolve) => setTimeout(resolve, this.options.retryDelayMs ?? 1000));
        if (this.options.stopped()) throw error;
      }
    }
  }

  /** One line per cause (code and message) at `warn`, with what the start does about it. */
  private logOnce(error: StreamsError): void {
    const key = `${error.code}\u0000${error.message}`;
    if (this.logged.has(key)) {
      this.options.logger.debug(`still waiting: ${error.message}`);
      return;
    }
    this.logged.add(key);
    const seconds = Math.round(this.options.taskTimeoutMs / 1000);
    this.options.logger.warn(
      `${error.name} [${error.code}]: ${error.message}; the start waits for it until task.timeout.ms (${seconds} s), then fails`,
    );
  }
}

/**
 * Whether a state directory lock failed because another live process holds it (it may be an
 * instance still shutting down): worth waiting for. Another instance in this process never is.
 */
export function heldByAnotherProcess(error: unknown): boolean {
  return error instanceof StateDirectoryLockedError && !error.sameProcess;
}

/** A failed start in one line: the error's class and code (what to look up and alert on), its message. */
export function startFailureLine(failure: unknown): string {
  if (!(failure instanceof Error)) return String(failure);
  const code = failure instanceof StreamsError ? ` [${failure.code}]` : '';
  return `${failure.name}${code}: ${failure.message}`;
}
