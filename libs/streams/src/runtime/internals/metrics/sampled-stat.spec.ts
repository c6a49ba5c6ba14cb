import { SAMPLE_WINDOW_MS, SampledStat } from './sampled-stat';

describe('SampledStat', () => {
  it('reports NaN figures and a zero rate before any value', () => {
    const stat = new SampledStat(1_000);
    expect(stat.read(2_000)).toEqual({
      total: 0,
      sum: 0,
      rate: 0,
      avg: NaN,
      min: NaN,
      max: NaN,
    });
  });

  it('reports count, sum, mean, min and max, and a rate over at least one window', () => {
    const stat = new SampledStat(0);
    for (const value of [4, 1, 7]) stat.record(value);
    // 3 values in 10 s: the rate's window is never shorter than 30 s (as Kafka pads it).
    expect(stat.read(10_000)).toEqual({ total: 3, sum: 12, rate: 0.1, avg: 4, min: 1, max: 7 });
  });

  it('moves its window when read 30 s after it opened, keeping the window before', () => {
    const stat = new SampledStat(0);
    stat.record(10);
    stat.record(20);
    expect(stat.read(SAMPLE_WINDOW_MS).total).toBe(2); // the first window closes here
    stat.record(3);
    // The window before (2 values) and the current one (1): 3 values in 45 s.
    expect(stat.read(45_000)).toEqual({
      total: 3,
      sum: 33,
      rate: 3 / 45,
      avg: 11,
      min: 3,
      max: 20,
    });
    // 60 s: the first window is dropped from the figures, never from the totals.
    stat.record(5);
    expect(stat.read(60_000)).toEqual({ total: 4, sum: 38, rate: 2 / 30, avg: 4, min: 3, max: 5 });
    // Two minutes: the windows (60 to 120 s) hold nothing any more.
    expect(stat.read(120_000)).toMatchObject({ total: 4, sum: 38, rate: 0, avg: NaN, max: NaN });
  });

  it('records negative values (a record from the future has a negative latency)', () => {
    const stat = new SampledStat(0);
    stat.record(-5);
    stat.record(5);
    expect(stat.read(1)).toMatchObject({ min: -5, max: 5, avg: 0 });
  });
});
