import { InvalidWindowError } from '../../errors/invalid-window.error';
import { SlidingWindows } from './sliding-windows';

describe('SlidingWindows', () => {
  it('keeps the time difference and grace, with no grace by default', () => {
    const windows = SlidingWindows.ofTimeDifferenceAndGrace(10_000, 2_000);
    expect(windows.timeDifferenceMs()).toBe(10_000);
    expect(windows.gracePeriodMs()).toBe(2_000);
    expect(SlidingWindows.ofTimeDifferenceWithNoGrace(10_000).gracePeriodMs()).toBe(0);
    expect(windows.toString()).toBe('SlidingWindows{timeDifferenceMs=10000, graceMs=2000}');
  });

  it('compares by difference and grace', () => {
    const windows = SlidingWindows.ofTimeDifferenceAndGrace(10, 5);
    expect(windows.equals(SlidingWindows.ofTimeDifferenceAndGrace(10, 5))).toBe(true);
    expect(windows.equals(SlidingWindows.ofTimeDifferenceAndGrace(10, 6))).toBe(false);
    expect(windows.equals(SlidingWindows.ofTimeDifferenceWithNoGrace(10))).toBe(false);
  });

  it('refuses a difference that is not positive and a negative grace', () => {
    expect(() => SlidingWindows.ofTimeDifferenceWithNoGrace(0)).toThrow(
      new InvalidWindowError(
        'sliding window time difference must be a positive integer of milliseconds, got 0',
      ),
    );
    expect(() => SlidingWindows.ofTimeDifferenceAndGrace(10, -1)).toThrow(
      new InvalidWindowError('grace period must be a non-negative integer of milliseconds, got -1'),
    );
    expect(() => SlidingWindows.ofTimeDifferenceWithNoGrace(1.5)).toThrow(InvalidWindowError);
  });
});
