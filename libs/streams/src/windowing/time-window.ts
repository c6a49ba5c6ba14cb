import { InvalidWindowError } from '../errors/invalid-window.error';
import { Window } from './window';

/**
 * A fixed-size window of a tumbling or hopping {@link TimeWindows} definition: half-open,
 * `[start, end)`, with `end = start + size`. A record with timestamp `t` belongs to it when
 * `start <= t < end`.
 */
export class TimeWindow extends Window {
  /**
   * @throws InvalidWindowError when `start` is negative or not an integer, or `end <= start`
   *   (a time window is never empty): fix the caller.
   */
  constructor(start: number, end: number) {
    super(start, end);
    if (end === start) {
      throw new InvalidWindowError(`time window end (${end}) must be greater than its start`);
    }
  }

  /** Whether `timestamp` falls inside `[start, end)`. */
  contains(timestamp: number): boolean {
    return this.start <= timestamp && timestamp < this.end;
  }

  /**
   * Half-open overlap: `start < other.end && other.start < end`.
   *
   * @throws InvalidWindowError when `other` is not a time window (fix the caller).
   */
  overlap(other: Window): boolean {
    if (!(other instanceof TimeWindow)) {
      throw new InvalidWindowError(`cannot compare TimeWindow with ${other.constructor.name}`);
    }
    return this.start < other.end && other.start < this.end;
  }
}
