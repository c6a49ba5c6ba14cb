import { WindowRates } from './window-rates';

describe('WindowRates', () => {
  it('gives the growth per second of a total over the last 30 to 60 s', () => {
    const rates = new WindowRates();
    rates.beginRead();
    expect(rates.rate('processed', 100, 0)).toBe(0); // first seen: the baseline
    rates.beginRead();
    expect(rates.rate('processed', 400, 10_000)).toBe(10); // 300 in 10 s, over 30 s at least
    rates.beginRead();
    expect(rates.rate('processed', 700, 30_000)).toBe(20); // 600 in 30 s; a new window opens
    rates.beginRead();
    expect(rates.rate('processed', 1_000, 45_000)).toBe(20); // 900 in 45 s
    rates.beginRead();
    expect(rates.rate('processed', 1_000, 60_000)).toBe(10); // 300 in 30 s, from 700 at 30 s
  });

  it('reports the growth and its time span (for ratios of two totals)', () => {
    const rates = new WindowRates();
    rates.beginRead();
    rates.growth('hits', 10, 0);
    expect(rates.growth('hits', 25, 5_000)).toEqual({ growth: 15, elapsedMs: 5_000 });
  });

  it('starts again from the total when it went back (its counter was replaced)', () => {
    const rates = new WindowRates();
    rates.beginRead();
    rates.rate('t', 500, 0);
    rates.beginRead();
    expect(rates.rate('t', 30, 1_000)).toBe(0);
    rates.beginRead();
    expect(rates.rate('t', 60, 2_000)).toBe(1); // 30 more since, over 30 s
  });

  it('forgets a key the read before did not touch', () => {
    const rates = new WindowRates();
    rates.beginRead();
    rates.rate('gone', 100, 0);
    rates.rate('kept', 100, 0);
    rates.beginRead();
    rates.rate('kept', 130, 1_000);
    rates.beginRead(); // 'gone' was not read by the read before: forgotten
    expect(rates.growth('gone', 400, 2_000)).toEqual({ growth: 0, elapsedMs: 0 });
    expect(rates.growth('kept', 160, 2_000)).toEqual({ growth: 60, elapsedMs: 2_000 });
  });
});
