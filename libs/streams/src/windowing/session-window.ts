import { InvalidWindowError } from '../errors/invalid-window.error';
import { Window } from './window';

/**
 * The window of a session: closed, `[start, end]`, where `start` is the timestamp of the
 * session's first record and `end` the timestamp of its last. A session of one record has
 * `start === end`.
 */
export class SessionWindow extends Window {
  /**
   * @throws InvalidWindowError when `start` is negative or not an integer, or `end < start`:
   *   fix the caller.
   */
  constructor(start: number, end: number) {
    super(start, end);
  }

  /** Whether `timestamp` falls inside `[start, end]`. */
  contains(timestamp: number): boolean {
    return this.start <= timestamp && timestamp <= this.end;
  }

  /**
   * Closed overlap: neither window ends before the other starts.
   *
   * @throws InvalidWindowError when `other` is not a session window (fix the caller).
   */
  overlap(other: Window): boolean {
    if (!(other instanceof SessionWindow)) {
      throw new InvalidWindowError(`cannot compare SessionWindow with ${other.constructor.name}`);
    }
    return !(other.end < this.start || other.start > this.end);
  }
}
