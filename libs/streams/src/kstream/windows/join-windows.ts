import { InvalidWindowError } from '../../errors/invalid-window.error';
import { requireDurationMs } from '../../windowing/internals/window-time';

/**
 * The window of a stream-stream join, as Kafka Streams' `JoinWindows`: a record of this
 * stream at `t` joins the other stream's records of the same key with timestamps in
 * `[t - before, t + after]` (both `timeDifferenceMs` unless changed with `before`/`after`).
 *
 * Grace: records are kept (and out-of-order ones joined) until stream time passes
 * `t + after + grace`; then a left or outer join emits a record that found no partner with
 * `null` for the other side, once (Kafka Streams' behaviour since 3.1, where such results are
 * not emitted eagerly any more).
 *
 * All durations are plain integer numbers of milliseconds.
 */
export class JoinWindows {
  private constructor(
    /** How far before a record the other side's records join it, in ms. */
    readonly beforeMs: number,
    /** How far after a record the other side's records join it, in ms. */
    readonly afterMs: number,
    private readonly graceMs: number,
  ) {
    if (beforeMs + afterMs < 0) {
      throw new InvalidWindowError(
        `join window interval (before + after) must not be negative, got ${beforeMs} + ${afterMs}`,
      );
    }
  }

  /**
   * Records at most `timeDifferenceMs` apart join; out-of-order records are accepted until
   * stream time passes the window end plus `afterWindowEndMs`.
   *
   * @throws InvalidWindowError when the difference or the grace is negative or not an integer
   *   (fix the definition).
   */
  static ofTimeDifferenceAndGrace(timeDifferenceMs: number, afterWindowEndMs: number): JoinWindows {
    requireDurationMs(timeDifferenceMs, 'join window time difference', false);
    requireDurationMs(afterWindowEndMs, 'grace period', false);
    return new JoinWindows(timeDifferenceMs, timeDifferenceMs, afterWindowEndMs);
  }

  /**
   * Records at most `timeDifferenceMs` apart join, with no grace period.
   *
   * @throws InvalidWindowError as {@link JoinWindows.ofTimeDifferenceAndGrace}.
   */
  static ofTimeDifferenceWithNoGrace(timeDifferenceMs: number): JoinWindows {
    return JoinWindows.ofTimeDifferenceAndGrace(timeDifferenceMs, 0);
  }

  /**
   * The same window, the other side's records joining from `timeDifferenceMs` before this
   * side's record (may be negative: the window then starts after the record).
   *
   * @throws InvalidWindowError when the value is not an integer or makes `before + after`
   *   negative.
   */
  before(timeDifferenceMs: number): JoinWindows {
    requireInteger(timeDifferenceMs, 'before');
    return new JoinWindows(timeDifferenceMs, this.afterMs, this.graceMs);
  }

  /**
   * The same window, the other side's records joining up to `timeDifferenceMs` after this
   * side's record (may be negative: the window then ends before the record).
   *
   * @throws InvalidWindowError when the value is not an integer or makes `before + after`
   *   negative.
   */
  after(timeDifferenceMs: number): JoinWindows {
    requireInteger(timeDifferenceMs, 'after');
    return new JoinWindows(this.beforeMs, timeDifferenceMs, this.graceMs);
  }

  /** The window's size, `before + after` (the join stores' window size). */
  size(): number {
    return this.beforeMs + this.afterMs;
  }

  /** The grace period, in milliseconds. */
  gracePeriodMs(): number {
    return this.graceMs;
  }

  /** Same before, after and grace. */
  equals(other: unknown): boolean {
    return (
      other instanceof JoinWindows &&
      other.beforeMs === this.beforeMs &&
      other.afterMs === this.afterMs &&
      other.graceMs === this.graceMs
    );
  }

  toString(): string {
    return `JoinWindows{beforeMs=${this.beforeMs}, afterMs=${this.afterMs}, graceMs=${this.graceMs}}`;
  }
}

function requireInteger(value: number, what: string): void {
  if (!Number.isSafeInteger(value)) {
    throw new InvalidWindowError(
      `join window ${what} must be an integer of milliseconds, got ${value}`,
    );
  }
}
