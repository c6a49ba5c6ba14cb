import { mergeSessions, sessionMergeBounds } from './session-merge';
import { SessionWindow } from '../../windowing/session-window';

const GAP = 5_000;

interface Session {
  window: SessionWindow;
  count: number;
}

/** Runs records through the merge rule the way the session aggregation does, in memory. */
function sessionize(timestamps: number[]): [number, number, number][] {
  let sessions: Session[] = [];
  for (const timestamp of timestamps) {
    const { window, merged } = mergeSessions(timestamp, GAP, sessions);
    sessions = sessions.filter((session) => !merged.includes(session));
    const count = merged.reduce((sum, session) => sum + session.count, 1);
    sessions.push({ window, count });
  }
  return sessions
    .map((s): [number, number, number] => [s.window.start, s.window.end, s.count])
    .sort((a, b) => a[0] - b[0]);
}

describe('mergeSessions', () => {
  it('starts a new session when nothing is within the gap', () => {
    const result = mergeSessions(1_000, GAP, []);
    expect([result.window.start, result.window.end]).toEqual([1_000, 1_000]);
    expect(result.merged).toEqual([]);
  });

  it('joins a session exactly gap after its end, and splits at gap + 1', () => {
    expect(sessionize([0, 5_000])).toEqual([[0, 5_000, 2]]);
    expect(sessionize([0, 5_001])).toEqual([
      [0, 0, 1],
      [5_001, 5_001, 1],
    ]);
  });

  it('joins a session exactly gap before its start (out of order), and splits at gap + 1', () => {
    expect(sessionize([10_000, 5_000])).toEqual([[5_000, 10_000, 2]]);
    expect(sessionize([10_000, 4_999])).toEqual([
      [4_999, 4_999, 1],
      [10_000, 10_000, 1],
    ]);
  });

  it('merges two sessions when a record falls within the gap of both', () => {
    // [0, 5000] and [10001, 10001] are split; 7500 is within 5000 of both.
    expect(sessionize([0, 5_000, 10_001])).toEqual([
      [0, 5_000, 2],
      [10_001, 10_001, 1],
    ]);
    expect(sessionize([0, 5_000, 10_001, 7_500])).toEqual([[0, 10_001, 4]]);
  });

  it('keeps a record inside an existing session in that session', () => {
    const existing = { window: new SessionWindow(1_000, 9_000), count: 3 };
    const result = mergeSessions(4_000, GAP, [existing]);
    expect(result.window.equals(existing.window)).toBe(true);
    expect(result.merged).toEqual([existing]);
  });

  it('ignores sessions outside the bounds it computes for findSessions', () => {
    expect(sessionMergeBounds(20_000, GAP)).toEqual({
      earliestSessionEndTime: 15_000,
      latestSessionStartTime: 25_000,
    });
    const far = { window: new SessionWindow(0, 14_999), count: 1 };
    const near = { window: new SessionWindow(25_000, 30_000), count: 1 };
    const result = mergeSessions(20_000, GAP, [far, near]);
    expect(result.merged).toEqual([near]);
    expect([result.window.start, result.window.end]).toEqual([20_000, 30_000]);
  });
});
