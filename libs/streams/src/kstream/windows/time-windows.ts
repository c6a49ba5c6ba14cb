import { InvalidWindowError } from '../../errors/invalid-window.error';
import { TimeWindow } from '../../windowing/time-window';
import { requireDurationMs, requireEpochMillis } from '../../windowing/internals/window-time';

/**
 * Fixed-size windows of event time, as Kafka Streams' `TimeWindows`: tumbling (the default:
 * consecutive, non-overlapping, `advance === size`) or hopping (`advanceBy(advance)` with
 * `advance < size`: overlapping windows, so one record belongs to `size / advance` windows).
 *
 * Windows are aligned to the epoch: every window starts at a multiple of the advance
 * (a 5-minute tumbling window starts at 00:00, 00:05, ...; never at the first record's time).
 * A window is `[start, start + size)`.
 *
 * All durations and times are plain integer numbers of milliseconds.
 *
 * Grace: a record arriving after `window end + grace` (in stream time) is dropped as late.
 * `ofSizeWithNoGrace` sets no grace; `ofSizeAndGrace` sets one explicitly.
 */
export class TimeWindows {
  private constructor(
    /** The size of every window, in milliseconds. */
    readonly sizeMs: number,
    /** How far each window starts after the previous one, in milliseconds. */
    readonly advanceMs: number,
    private readonly graceMs: number,
  ) {}

  /**
   * Tumbling windows of `sizeMs` with no grace period: a record for a window that stream time
   * has already passed the end of is dropped.
   *
   * @throws InvalidWindowError when `sizeMs` is not a positive integer (fix the definition).
   */
  static ofSizeWithNoGrace(sizeMs: number): TimeWindows {
    return TimeWindows.ofSizeAndGrace(sizeMs, 0);
  }

  /**
   * Tumbling windows of `sizeMs` that accept out-of-order records until stream time passes
   * `window end + graceMs`.
   *
   * @throws InvalidWindowError when `sizeMs` is not a positive integer or `graceMs` is
   *   negative or not an integer (fix the definition).
   */
  static ofSizeAndGrace(sizeMs: number, graceMs: number): TimeWindows {
    requireDurationMs(sizeMs, 'window size', true);
    requireDurationMs(graceMs, 'grace period', false);
    return new TimeWindows(sizeMs, sizeMs, graceMs);
  }

  /**
   * Hopping windows: the same size and grace, each window starting `advanceMs` after the
   * previous one. Returns a new definition; this one is unchanged.
   *
   * @throws InvalidWindowError when `advanceMs` is not an integer in `(0, size]` (fix it).
   */
  advanceBy(advanceMs: number): TimeWindows {
    if (!Number.isSafeInteger(advanceMs) || advanceMs <= 0 || advanceMs > this.sizeMs) {
      throw new InvalidWindowError(
        `window advance must be more than zero and at most the window size (${this.sizeMs} ms), got ${advanceMs}`,
      );
    }
    return new TimeWindows(this.sizeMs, advanceMs, this.graceMs);
  }

  /**
   * Every window that contains `timestamp`, keyed and ordered by window start (ascending).
   *
   * The first start is the smallest multiple of the advance whose window still reaches the
   * timestamp: `floor(max(0, timestamp - size + advance) / advance) * advance`; the following
   * ones step by the advance up to the timestamp itself. A tumbling definition always returns
   * exactly one window; a hopping one up to `ceil(size / advance)`, fewer near the epoch
   * (no window starts before 0).
   *
   * @throws InvalidWindowError when `timestamp` is negative or not an integer: drop such
   *   records (or fix their timestamps) before windowing.
   */
  windowsFor(timestamp: number): Map<number, TimeWindow> {
    requireEpochMillis(timestamp, 'record timestamp');
    const windows = new Map<number, TimeWindow>();
    let start =
      Math.floor(Math.max(0, timestamp - this.sizeMs + this.advanceMs) / this.advanceMs) *
      this.advanceMs;
    while (start <= timestamp) {
      windows.set(start, new TimeWindow(start, start + this.sizeMs));
      start += this.advanceMs;
    }
    return windows;
  }

  /** The size of every window, in milliseconds. */
  size(): number {
    return this.sizeMs;
  }

  /** The grace period, in milliseconds. */
  gracePeriodMs(): number {
    return this.graceMs;
  }

  /** Same size, advance and grace. */
  equals(other: unknown): boolean {
    return (
      other instanceof TimeWindows &&
      other.sizeMs === this.sizeMs &&
      other.advanceMs === this.advanceMs &&
      other.graceMs === this.graceMs
    );
  }

  toString(): string {
    return `TimeWindows{sizeMs=${this.sizeMs}, advanceMs=${this.advanceMs}, graceMs=${this.graceMs}}`;
  }
}
