import { EventSequence } from './events';
import { centsToSum, sumToCents, TruthRecorder, WINDOW_SIZE_MS } from './truth';

describe('TruthRecorder', () => {
  it('keeps counts and integer-cent sums per user, reported with 2 decimals', () => {
    const truth = new TruthRecorder('labs.events', 1, 3);
    truth.record('user-001', 1050, 0);
    truth.record('user-001', 1, 1);
    truth.record('user-002', 99_999, 2);
    truth.recordMalformed();
    expect(truth.totalsOf('user-001')).toEqual({ count: 2, sum: 10.51 });
    expect(truth.totalsOf('user-002')).toEqual({ count: 1, sum: 999.99 });
    expect(truth.totalsOf('user-003')).toBeUndefined();
    expect(truth.centsOf('user-001')).toBe(1051);
    expect(truth.events).toBe(3);
    expect(truth.malformed).toBe(1);
  });

  it('does not drift where float additions do', () => {
    const truth = new TruthRecorder('t', 1, 1);
    let floatSum = 0;
    for (let i = 0; i < 1000; i++) {
      truth.record('user-001', 10, i);
      floatSum += 0.1;
    }
    expect(floatSum).not.toBe(100);
    expect(truth.totalsOf('user-001')).toEqual({ count: 1000, sum: 100 });
    // A sum computed with floats by the application still compares exactly in cents.
    expect(sumToCents(floatSum)).toBe(truth.centsOf('user-001'));
  });

  it('adds up a seeded run exactly: totals agree with the events, sums with the cents', () => {
    const events = new EventSequence(7, 99).take(20_000);
    const truth = new TruthRecorder('t', 99, 7);
    for (const e of events) truth.record(e.userId, e.cents, 1_700_000_000_000 + e.index);
    const report = truth.report();
    expect(report.events).toBe(20_000);
    expect(Object.values(report.totals).reduce((n, t) => n + t.count, 0)).toBe(20_000);
    const cents = events.reduce((sum, e) => sum + e.cents, 0);
    const reported = Object.values(report.totals).reduce((sum, t) => sum + sumToCents(t.sum), 0);
    expect(reported).toBe(cents);
    for (const t of Object.values(report.totals)) {
      expect(sumToCents(t.sum) / 100).toBe(t.sum);
    }
  });

  it('reports users sorted, with 5-minute tumbling window counts', () => {
    const truth = new TruthRecorder('labs.events', 5, 10);
    const t0 = 1_700_000_100_000; // not on a window boundary
    truth.record('user-002', 100, t0);
    truth.record('user-001', 200, t0 + 1);
    truth.record('user-001', 300, t0 + WINDOW_SIZE_MS);
    const report = truth.report();
    expect(Object.keys(report.totals)).toEqual(['user-001', 'user-002']);
    const start = t0 - (t0 % WINDOW_SIZE_MS);
    expect(report.windows['user-001']).toEqual([
      { start, end: start + WINDOW_SIZE_MS, count: 1 },
      { start: start + WINDOW_SIZE_MS, end: start + 2 * WINDOW_SIZE_MS, count: 1 },
    ]);
    expect(report).toMatchObject({
      topic: 'labs.events',
      seed: 5,
      users: 10,
      events: 3,
      malformed: 0,
      firstTimestamp: t0,
      lastTimestamp: t0 + WINDOW_SIZE_MS,
      windowSizeMs: WINDOW_SIZE_MS,
    });
    expect(JSON.parse(JSON.stringify(report))).toEqual(report);
  });

  it('rounds cents to sums and back', () => {
    expect(centsToSum(123_456)).toBe(1234.56);
    expect(sumToCents(1234.56)).toBe(123_456);
    expect(sumToCents(0.1 + 0.2)).toBe(30);
    expect(() => new TruthRecorder('t', 1, 1).record('u', 1.5, 0)).toThrow(RangeError);
  });
});
