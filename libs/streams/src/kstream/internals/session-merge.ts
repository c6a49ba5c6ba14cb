import { SessionWindow } from '../../windowing/session-window';
import { requireDurationMs, requireEpochMillis } from '../../windowing/internals/window-time';

/** A session found in the store: its window and whatever the caller carries along. */
export interface SessionLike {
  readonly window: SessionWindow;
}

/** What a new record does to the sessions of its key. */
export interface SessionMerge<S extends SessionLike> {
  /** The session the record ends up in: the union of its own instant and every merged one. */
  readonly window: SessionWindow;
  /**
   * The existing sessions the record joins, in the order given. Each must be removed from the
   * store (and a tombstone forwarded for it) before the merged session is written; their
   * aggregates are combined with the session merger. Empty when the record starts a new
   * session.
   */
  readonly merged: S[];
}

/**
 * The store query that finds every session a record at `timestamp` can join:
 * sessions ending at or after `timestamp - gap` and starting at or before `timestamp + gap`
 * (the arguments of `findSessions`).
 *
 * @throws InvalidWindowError for a negative timestamp or a non-positive gap (fix the caller).
 */
export function sessionMergeBounds(
  timestamp: number,
  inactivityGapMs: number,
): { earliestSessionEndTime: number; latestSessionStartTime: number } {
  requireEpochMillis(timestamp, 'record timestamp');
  requireDurationMs(inactivityGapMs, 'inactivity gap', true);
  return {
    earliestSessionEndTime: timestamp - inactivityGapMs,
    latestSessionStartTime: timestamp + inactivityGapMs,
  };
}

/**
 * Kafka Streams' session-merge rule, as a pure function: a record at `timestamp` joins every
 * session with `start - gap <= timestamp <= end + gap` (so a record exactly `gap` after a
 * session's end joins it, one at `gap + 1` does not), and the resulting window spans the
 * record and all joined sessions. A record that falls between two sessions within the gap of
 * both merges them into one.
 *
 * `sessions` may be a superset (sessions that cannot be joined are ignored), so the result of
 * `findSessions(key, ...sessionMergeBounds(timestamp, gap))` can be passed as is.
 *
 * Late records are not judged here: the caller drops the record when the merged window's
 * `end` is before `streamTime - gap - grace`.
 *
 * @throws InvalidWindowError for a negative timestamp or a non-positive gap (fix the caller).
 */
export function mergeSessions<S extends SessionLike>(
  timestamp: number,
  inactivityGapMs: number,
  sessions: Iterable<S>,
): SessionMerge<S> {
  const { earliestSessionEndTime, latestSessionStartTime } = sessionMergeBounds(
    timestamp,
    inactivityGapMs,
  );
  let start = timestamp;
  let end = timestamp;
  const merged: S[] = [];
  for (const session of sessions) {
    const { window } = session;
    if (window.end >= earliestSessionEndTime && window.start <= latestSessionStartTime) {
      merged.push(session);
      start = Math.min(start, window.start);
      end = Math.max(end, window.end);
    }
  }
  return { window: new SessionWindow(start, end), merged };
}
