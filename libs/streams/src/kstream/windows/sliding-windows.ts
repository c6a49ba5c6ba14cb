import { requireDurationMs } from '../../windowing/internals/window-time';

/**
 * Sliding windows, as Kafka Streams' `SlidingWindows`: per key, one window for every distinct
 * set of records that lie within `timeDifferenceMs` of each other. Windows are not aligned to
 * the epoch but to the records: a record at `t` creates (or updates) the window `[t - d, t]`
 * that ends with it, and the window `[t + 1, t + 1 + d]` that starts just after it when a later
 * record falls in it. Both bounds are inclusive; the windowed keys carry `start` and
 * `end = start + d`.
 *
 * A record whose window `[t, t + d]` ends before `stream time - grace` is dropped as late.
 * Aggregations over sliding windows keep their windows in a window store retained for at
 * least `2 * d + grace`.
 *
 * All durations are plain integer numbers of milliseconds.
 */
export class SlidingWindows {
  private constructor(
    private readonly differenceMs: number,
    private readonly graceMs: number,
  ) {}

  /**
   * Windows of records at most `timeDifferenceMs` apart (inclusive), with no grace period.
   *
   * @throws InvalidWindowError when the difference is not a positive integer (fix the
   *   definition; Kafka Streams accepts 0 and then fails on the first record).
   */
  static ofTimeDifferenceWithNoGrace(timeDifferenceMs: number): SlidingWindows {
    return SlidingWindows.ofTimeDifferenceAndGrace(timeDifferenceMs, 0);
  }

  /**
   * Windows of records at most `timeDifferenceMs` apart (inclusive) that accept out-of-order
   * records until stream time passes `window end + afterWindowEndMs`.
   *
   * @throws InvalidWindowError when the difference is not a positive integer or the grace is
   *   negative or not an integer (fix the definition).
   */
  static ofTimeDifferenceAndGrace(
    timeDifferenceMs: number,
    afterWindowEndMs: number,
  ): SlidingWindows {
    requireDurationMs(timeDifferenceMs, 'sliding window time difference', true);
    requireDurationMs(afterWindowEndMs, 'grace period', false);
    return new SlidingWindows(timeDifferenceMs, afterWindowEndMs);
  }

  /** The largest time difference between two records of one window, in milliseconds. */
  timeDifferenceMs(): number {
    return this.differenceMs;
  }

  /** The grace period, in milliseconds. */
  gracePeriodMs(): number {
    return this.graceMs;
  }

  /** Same time difference and grace. */
  equals(other: unknown): boolean {
    return (
      other instanceof SlidingWindows &&
      other.differenceMs === this.differenceMs &&
      other.graceMs === this.graceMs
    );
  }

  toString(): string {
    return `SlidingWindows{timeDifferenceMs=${this.differenceMs}, graceMs=${this.graceMs}}`;
  }
}
