import { InvalidWindowError } from '../errors/invalid-window.error';
import { requireEpochMillis } from './internals/window-time';

/**
 * A window of event time: `start` and `end` in epoch milliseconds (plain integer numbers, as
 * every time in this library). What `end` means depends on the kind: a {@link TimeWindow} is
 * half-open, `[start, end)`; a {@link SessionWindow} is closed, `[start, end]`.
 *
 * Windows are immutable values; compare them with {@link Window.equals}.
 */
export abstract class Window {
  /**
   * @throws InvalidWindowError when `start` is negative or not an integer, or `end < start`:
   *   fix the caller (windows are computed from validated timestamps).
   */
  protected constructor(
    /** Start of the window, epoch milliseconds, inclusive. */
    readonly start: number,
    /** End of the window, epoch milliseconds (exclusive for time windows, inclusive for sessions). */
    readonly end: number,
  ) {
    requireEpochMillis(start, 'window start');
    requireEpochMillis(end, 'window end');
    if (end < start) {
      throw new InvalidWindowError(
        `window end (${end}) must not be smaller than its start (${start})`,
      );
    }
  }

  /**
   * Whether this window and `other` share at least one instant.
   *
   * @throws InvalidWindowError when `other` is of another kind (a time window against a
   *   session window): compare windows of one windowed operation only.
   */
  abstract overlap(other: Window): boolean;

  /** Same kind, same start, same end. */
  equals(other: unknown): boolean {
    return (
      other instanceof Window &&
      other.constructor === this.constructor &&
      other.start === this.start &&
      other.end === this.end
    );
  }

  /** `Window{startMs=<start>, endMs=<end>}`, as Kafka Streams prints windows. */
  toString(): string {
    return `Window{startMs=${this.start}, endMs=${this.end}}`;
  }
}
