import { PunctuationType } from '../../../processor/punctuation';
import { PunctuationSchedule } from './punctuation-schedule';

/** The times a punctuator of `intervalMs` was called with, over successive `fire` times. */
function firings(type: PunctuationType, intervalMs: number, scheduledAt: number, times: number[]) {
  const schedule = new PunctuationSchedule();
  const calls: number[] = [];
  schedule.schedule('node', intervalMs, type, (t) => calls.push(t), scheduledAt);
  for (const time of times) schedule.fire(type, time, (_node, fn) => fn());
  return calls;
}

describe('PunctuationSchedule', () => {
  it('aligns stream-time punctuation to 0: due at the first record, then at the next multiples of the interval', () => {
    expect(
      firings(
        PunctuationType.STREAM_TIME,
        100,
        1_234,
        [-1, 1_234, 1_250, 1_299, 1_300, 1_399, 1_400],
      ),
    ).toEqual([1_234, 1_300, 1_400]);
  });

  it('fires once for a jump over several intervals and skips the missed ones', () => {
    expect(firings(PunctuationType.STREAM_TIME, 100, 0, [50, 475, 480, 499, 500])).toEqual([
      50, 475, 500,
    ]);
  });

  it('fires wall-clock punctuation one interval after it was scheduled, then every interval from there', () => {
    expect(
      firings(PunctuationType.WALL_CLOCK_TIME, 1_000, 5_300, [5_900, 6_300, 7_299, 7_350, 9_800]),
    ).toEqual([6_300, 7_350, 9_800]);
  });

  it('refuses an interval under 1 ms', () => {
    expect(() =>
      new PunctuationSchedule().schedule('n', 0, PunctuationType.STREAM_TIME, () => undefined, 0),
    ).toThrow(RangeError);
  });
});
