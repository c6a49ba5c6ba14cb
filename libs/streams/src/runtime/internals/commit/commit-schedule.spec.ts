import { CommitSchedule, MAX_EXACTLY_ONCE_HOLD_MS } from './commit-schedule';

describe('CommitSchedule', () => {
  it('is due once the interval passed since the last commit', () => {
    const schedule = new CommitSchedule(100, false);
    const start = Date.now();
    schedule.committing(start);
    expect(schedule.due(start + 99)).toBe(false);
    expect(schedule.due(start + 100)).toBe(true);
  });

  it('holds commits from the rebalance until the assignment', () => {
    const schedule = new CommitSchedule(100, true);
    const start = Date.now();
    schedule.rebalancing();
    expect(schedule.holds(start + 600_000)).toBe(true);
    schedule.assigned();
    expect(schedule.holds()).toBe(false);
  });

  it('under exactly-once, at most 5 s', () => {
    const schedule = new CommitSchedule(100, true, MAX_EXACTLY_ONCE_HOLD_MS);
    expect(schedule.holds()).toBe(false);
    const start = Date.now();
    schedule.rebalancing();
    expect(schedule.holds(start + 4_000)).toBe(true);
    // Learning of the same rebalance again does not extend the hold.
    schedule.rebalancing();
    expect(schedule.holds(start + 5_001)).toBe(false);
    schedule.assigned();
    expect(schedule.holds()).toBe(false);
  });

  it('never holds when not asked to (eager, or at-least-once)', () => {
    const schedule = new CommitSchedule(100, false);
    schedule.rebalancing();
    expect(schedule.holds()).toBe(false);
  });
});
