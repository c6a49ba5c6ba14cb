import { RebalanceCommitHold } from './rebalance-commit-hold';

describe('RebalanceCommitHold', () => {
  it('holds commits from the rebalance until the assignment, at most 5 s', () => {
    const hold = new RebalanceCommitHold(true);
    expect(hold.holds()).toBe(false);
    const start = Date.now();
    hold.rebalancing();
    expect(hold.holds(start + 4_000)).toBe(true);
    // Learning of the same rebalance again does not extend the hold.
    hold.rebalancing();
    expect(hold.holds(start + 5_001)).toBe(false);
    hold.assigned();
    expect(hold.holds()).toBe(false);
  });

  it('never holds when disabled (eager, or at-least-once)', () => {
    const hold = new RebalanceCommitHold(false);
    hold.rebalancing();
    expect(hold.holds()).toBe(false);
  });
});
