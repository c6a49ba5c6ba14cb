import { dueAtMs, dueCount, malformedSpacing } from './pacing';

describe('pacing', () => {
  it('makes one record due at once and then rate per second', () => {
    expect(dueCount(0, 100)).toBe(1);
    expect(dueCount(9, 100)).toBe(1);
    expect(dueCount(10, 100)).toBe(2);
    expect(dueCount(1000, 100)).toBe(101);
    expect(dueCount(-5, 100)).toBe(1);
    expect(dueAtMs(100, 100)).toBe(1000);
  });

  it('makes everything due without a rate', () => {
    expect(dueCount(0, undefined)).toBe(Number.POSITIVE_INFINITY);
    expect(dueCount(0, 0)).toBe(Number.POSITIVE_INFINITY);
  });

  it('spreads malformed records over a known event count', () => {
    expect(malformedSpacing(1000, 9)).toBe(100);
    expect(malformedSpacing(3, 10)).toBe(1);
    expect(malformedSpacing(undefined, 5)).toBe(10);
    expect(malformedSpacing(1000, 0)).toBe(Number.POSITIVE_INFINITY);
  });
});
