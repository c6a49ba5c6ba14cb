import { requireDurationMs } from '../../windowing/internals/window-time';

/**
 * Session windows, as Kafka Streams' `SessionWindows`: per key, records closer to each other
 * than the inactivity gap form one session; a session's window runs from its first record's
 * timestamp to its last (`[start, end]`, both inclusive), so sessions vary in size and are not
 * aligned to the epoch.
 *
 * A record with timestamp `t` joins (and merges) every existing session of its key with
 * `start - gap <= t <= end + gap`; a record exactly `gap` after a session's end still joins it,
 * one at `gap + 1` starts a new session (see `mergeSessions`).
 *
 * All durations are plain integer numbers of milliseconds.
 */
export class SessionWindows {
  private constructor(
    private readonly gapMs: number,
    private readonly graceMs: number,
  ) {}

  /**
   * Sessions split by `inactivityGapMs`, with no grace period.
   *
   * @throws InvalidWindowError when the gap is not a positive integer (fix the definition).
   */
  static ofInactivityGapWithNoGrace(inactivityGapMs: number): SessionWindows {
    return SessionWindows.ofInactivityGapAndGrace(inactivityGapMs, 0);
  }

  /**
   * Sessions split by `inactivityGapMs`, accepting out-of-order records until stream time
   * passes `session end + gap + grace`.
   *
   * @throws InvalidWindowError when the gap is not a positive integer or the grace is negative
   *   or not an integer (fix the definition).
   */
  static ofInactivityGapAndGrace(inactivityGapMs: number, graceMs: number): SessionWindows {
    requireDurationMs(inactivityGapMs, 'inactivity gap', true);
    requireDurationMs(graceMs, 'grace period', false);
    return new SessionWindows(inactivityGapMs, graceMs);
  }

  /** The inactivity gap, in milliseconds. */
  inactivityGap(): number {
    return this.gapMs;
  }

  /** The grace period, in milliseconds. */
  gracePeriodMs(): number {
    return this.graceMs;
  }

  /** Same gap and grace. */
  equals(other: unknown): boolean {
    return (
      other instanceof SessionWindows &&
      other.gapMs === this.gapMs &&
      other.graceMs === this.graceMs
    );
  }

  toString(): string {
    return `SessionWindows{gapMs=${this.gapMs}, graceMs=${this.graceMs}}`;
  }
}
