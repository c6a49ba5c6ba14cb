import { nearestRank, summarizeMillis, summarizeNanos } from './percentiles';

describe('nearestRank', () => {
  it('picks the smallest value with at least q of the values at or below it', () => {
    const sorted = Array.from({ length: 100 }, (_, i) => i + 1); // 1..100
    expect(nearestRank(sorted, 0.5)).toBe(50);
    expect(nearestRank(sorted, 0.99)).toBe(99);
    expect(nearestRank(sorted, 1)).toBe(100);
    expect(nearestRank(sorted, 0.001)).toBe(1);
  });

  it('never interpolates between two values', () => {
    expect(nearestRank([10, 20], 0.5)).toBe(10);
    expect(nearestRank([10, 20], 0.51)).toBe(20);
    expect(nearestRank([7], 0.99)).toBe(7);
  });

  it('rejects an empty series and quantiles outside (0, 1]', () => {
    expect(() => nearestRank([], 0.5)).toThrow(RangeError);
    expect(() => nearestRank([1], 0)).toThrow(RangeError);
    expect(() => nearestRank([1], 1.5)).toThrow(RangeError);
  });
});

describe('summarizeNanos', () => {
  it('sorts a copy and converts nanoseconds to milliseconds', () => {
    // 1,000 durations: 999 of 2 µs and one of 5 ms, in a shuffled order.
    const durations = Array.from({ length: 1000 }, (_, i) => (i === 321 ? 5_000_000 : 2_000));
    const summary = summarizeNanos(durations);
    expect(summary).toEqual({
      count: 1000,
      p50Ms: 0.002,
      p99Ms: 0.002,
      maxMs: 5,
      meanMs: (999 * 2_000 + 5_000_000) / 1000 / 1e6,
    });
    expect(durations[321]).toBe(5_000_000); // input untouched
  });

  it('puts the 99th percentile on the slow tail when more than 1% is slow', () => {
    const durations = [...Array<number>(980).fill(1_000_000), ...Array<number>(20).fill(9_000_000)];
    const summary = summarizeNanos(durations);
    expect(summary.p50Ms).toBe(1);
    expect(summary.p99Ms).toBe(9);
  });
});

describe('summarizeMillis', () => {
  it('keeps milliseconds', () => {
    expect(summarizeMillis([3, 1, 2])).toEqual({
      count: 3,
      p50Ms: 2,
      p99Ms: 3,
      maxMs: 3,
      meanMs: 2,
    });
  });
});
