import { InvalidWindowError } from '../../errors/invalid-window.error';
import { SessionWindow } from '../../windowing/session-window';
import { SessionWindows } from './session-windows';
import { TimeWindow } from '../../windowing/time-window';
import { TimeWindows } from './time-windows';
import { Windowed } from '../../windowing/windowed';

const MINUTE = 60_000;
const FIVE_MINUTES = 5 * MINUTE;

/** `[start, end]` pairs of `windowsFor`, in map order. */
function bounds(windows: Map<number, TimeWindow>): [number, number][] {
  return [...windows.entries()].map(([start, window]) => {
    expect(window.start).toBe(start);
    return [window.start, window.end];
  });
}

describe('TimeWindows', () => {
  describe('tumbling (size 5 min)', () => {
    const windows = TimeWindows.ofSizeWithNoGrace(FIVE_MINUTES);

    it('puts a timestamp on a boundary in the window starting there', () => {
      expect(bounds(windows.windowsFor(0))).toEqual([[0, 300_000]]);
      expect(bounds(windows.windowsFor(300_000))).toEqual([[300_000, 600_000]]);
    });

    it('puts a timestamp off a boundary in the epoch-aligned window around it', () => {
      expect(bounds(windows.windowsFor(1))).toEqual([[0, 300_000]]);
      expect(bounds(windows.windowsFor(299_999))).toEqual([[0, 300_000]]);
      expect(bounds(windows.windowsFor(300_001))).toEqual([[300_000, 600_000]]);
      // 2024-01-01T00:03:20.123Z lands in the window starting at 00:00.
      expect(bounds(windows.windowsFor(1_704_067_400_123))).toEqual([
        [1_704_067_200_000, 1_704_067_500_000],
      ]);
    });

    it('has end = start + size, no grace, advance = size', () => {
      expect(windows.size()).toBe(300_000);
      expect(windows.sizeMs).toBe(300_000);
      expect(windows.advanceMs).toBe(300_000);
      expect(windows.gracePeriodMs()).toBe(0);
      expect(TimeWindows.ofSizeAndGrace(FIVE_MINUTES, 30_000).gracePeriodMs()).toBe(30_000);
    });
  });

  describe('hopping (size 5 min, advance 1 min)', () => {
    const windows = TimeWindows.ofSizeWithNoGrace(FIVE_MINUTES).advanceBy(MINUTE);

    it('returns every window containing the timestamp, ascending by start', () => {
      expect(bounds(windows.windowsFor(420_000))).toEqual([
        [180_000, 480_000],
        [240_000, 540_000],
        [300_000, 600_000],
        [360_000, 660_000],
        [420_000, 720_000],
      ]);
      expect(bounds(windows.windowsFor(479_999))).toEqual([
        [180_000, 480_000],
        [240_000, 540_000],
        [300_000, 600_000],
        [360_000, 660_000],
        [420_000, 720_000],
      ]);
      expect(bounds(windows.windowsFor(480_000))).toEqual([
        [240_000, 540_000],
        [300_000, 600_000],
        [360_000, 660_000],
        [420_000, 720_000],
        [480_000, 780_000],
      ]);
    });

    it('starts no window before the epoch', () => {
      expect(bounds(windows.windowsFor(0))).toEqual([[0, 300_000]]);
      expect(bounds(windows.windowsFor(61_000))).toEqual([
        [0, 300_000],
        [60_000, 360_000],
      ]);
    });

    it('handles an advance that does not divide the size (size 5 min, advance 2 min)', () => {
      const uneven = TimeWindows.ofSizeWithNoGrace(FIVE_MINUTES).advanceBy(2 * MINUTE);
      expect(bounds(uneven.windowsFor(600_000))).toEqual([
        [360_000, 660_000],
        [480_000, 780_000],
        [600_000, 900_000],
      ]);
    });

    it('keeps size and grace, and leaves the original definition unchanged', () => {
      const graced = TimeWindows.ofSizeAndGrace(FIVE_MINUTES, 10_000);
      const hopping = graced.advanceBy(MINUTE);
      expect([hopping.size(), hopping.advanceMs, hopping.gracePeriodMs()]).toEqual([
        300_000, 60_000, 10_000,
      ]);
      expect(graced.advanceMs).toBe(300_000);
      expect(
        hopping.equals(TimeWindows.ofSizeAndGrace(FIVE_MINUTES, 10_000).advanceBy(MINUTE)),
      ).toBe(true);
      expect(hopping.equals(graced)).toBe(false);
    });
  });

  it('rejects invalid definitions and timestamps with InvalidWindowError', () => {
    const windows = TimeWindows.ofSizeWithNoGrace(FIVE_MINUTES);
    expect(() => windows.windowsFor(-1)).toThrow(InvalidWindowError);
    expect(() => windows.windowsFor(1.5)).toThrow(InvalidWindowError);
    expect(() => TimeWindows.ofSizeWithNoGrace(0)).toThrow(InvalidWindowError);
    expect(() => TimeWindows.ofSizeAndGrace(FIVE_MINUTES, -1)).toThrow(InvalidWindowError);
    expect(() => windows.advanceBy(0)).toThrow(InvalidWindowError);
    expect(() => windows.advanceBy(FIVE_MINUTES + 1)).toThrow(InvalidWindowError);
    try {
      windows.windowsFor(-1);
    } catch (error: unknown) {
      expect(error).toMatchObject({ code: 'INVALID_WINDOW', retriable: false });
    }
  });
});

describe('TimeWindow and SessionWindow', () => {
  it('time windows are half-open', () => {
    const window = new TimeWindow(0, 300_000);
    expect(window.contains(0)).toBe(true);
    expect(window.contains(299_999)).toBe(true);
    expect(window.contains(300_000)).toBe(false);
    expect(window.overlap(new TimeWindow(300_000, 600_000))).toBe(false);
    expect(window.overlap(new TimeWindow(299_999, 599_999))).toBe(true);
    expect(() => new TimeWindow(5, 5)).toThrow(InvalidWindowError);
    expect(() => new TimeWindow(-5, 5)).toThrow(InvalidWindowError);
    expect(() => window.overlap(new SessionWindow(0, 1))).toThrow(InvalidWindowError);
  });

  it('session windows are closed and may be one instant', () => {
    const window = new SessionWindow(10, 10);
    expect(window.contains(10)).toBe(true);
    expect(window.overlap(new SessionWindow(10, 20))).toBe(true);
    expect(window.overlap(new SessionWindow(11, 20))).toBe(false);
    expect(() => new SessionWindow(10, 9)).toThrow(InvalidWindowError);
  });

  it('compares and prints like Kafka Streams', () => {
    expect(new TimeWindow(0, 5).equals(new TimeWindow(0, 5))).toBe(true);
    expect(new TimeWindow(0, 5).equals(new SessionWindow(0, 5))).toBe(false);
    expect(new TimeWindow(0, 5).toString()).toBe('Window{startMs=0, endMs=5}');
    const windowed = new Windowed('alice', new TimeWindow(0, 300_000));
    expect(windowed.toString()).toBe('[alice@0/300000]');
    expect(windowed.equals(new Windowed('alice', new TimeWindow(0, 300_000)))).toBe(true);
    expect(windowed.equals(new Windowed('bob', new TimeWindow(0, 300_000)))).toBe(false);
  });
});

describe('SessionWindows', () => {
  it('keeps gap and grace', () => {
    const sessions = SessionWindows.ofInactivityGapWithNoGrace(5_000);
    expect([sessions.inactivityGap(), sessions.gracePeriodMs()]).toEqual([5_000, 0]);
    const graced = SessionWindows.ofInactivityGapAndGrace(5_000, 1_000);
    expect([graced.inactivityGap(), graced.gracePeriodMs()]).toEqual([5_000, 1_000]);
    expect(graced.equals(SessionWindows.ofInactivityGapAndGrace(5_000, 1_000))).toBe(true);
  });

  it('rejects a zero gap and a negative grace', () => {
    expect(() => SessionWindows.ofInactivityGapWithNoGrace(0)).toThrow(InvalidWindowError);
    expect(() => SessionWindows.ofInactivityGapAndGrace(5_000, -1)).toThrow(InvalidWindowError);
  });
});
