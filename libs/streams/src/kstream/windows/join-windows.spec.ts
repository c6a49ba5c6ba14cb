import { InvalidWindowError } from '../../errors/invalid-window.error';
import { JoinWindows } from './join-windows';

describe('JoinWindows', () => {
  it('joins records within the difference on both sides, size before + after', () => {
    const windows = JoinWindows.ofTimeDifferenceAndGrace(10, 5);
    expect([windows.beforeMs, windows.afterMs, windows.size(), windows.gracePeriodMs()]).toEqual([
      10, 10, 20, 5,
    ]);
    expect(JoinWindows.ofTimeDifferenceWithNoGrace(10).gracePeriodMs()).toBe(0);
    expect(windows.toString()).toBe('JoinWindows{beforeMs=10, afterMs=10, graceMs=5}');
  });

  it('changes before and after separately, keeping the grace', () => {
    const windows = JoinWindows.ofTimeDifferenceAndGrace(10, 5).before(0).after(30);
    expect([windows.beforeMs, windows.afterMs, windows.size(), windows.gracePeriodMs()]).toEqual([
      0, 30, 30, 5,
    ]);
    expect(windows.equals(JoinWindows.ofTimeDifferenceAndGrace(30, 5).before(0))).toBe(true);
    expect(JoinWindows.ofTimeDifferenceWithNoGrace(10).after(-5).size()).toBe(5);
  });

  it('refuses negative differences, grace and intervals', () => {
    expect(() => JoinWindows.ofTimeDifferenceWithNoGrace(-1)).toThrow(
      new InvalidWindowError(
        'join window time difference must be a non-negative integer of milliseconds, got -1',
      ),
    );
    expect(() => JoinWindows.ofTimeDifferenceAndGrace(1, -1)).toThrow(InvalidWindowError);
    expect(() => JoinWindows.ofTimeDifferenceWithNoGrace(10).after(-11)).toThrow(
      new InvalidWindowError(
        'join window interval (before + after) must not be negative, got 10 + -11',
      ),
    );
    expect(() => JoinWindows.ofTimeDifferenceWithNoGrace(10).before(0.5)).toThrow(
      new InvalidWindowError('join window before must be an integer of milliseconds, got 0.5'),
    );
  });
});
