import { CommitFailedError } from '../../../errors/internals/commit-failed.error';
import { RebalanceInProgressError } from '../../../errors/internals/rebalance-in-progress.error';
import { UnknownMemberError } from '../../../errors/internals/unknown-member.error';
import { MembershipWatch } from './membership-watch';

describe('MembershipWatch', () => {
  const SESSION_MS = 10_000;
  let now = 1_000_000;
  let spy: jest.SpyInstance<number, []>;
  beforeEach(() => {
    now = 1_000_000;
    spy = jest.spyOn(Date, 'now').mockImplementation(() => now);
  });
  afterEach(() => spy.mockRestore());

  function watch() {
    const doubts: boolean[] = [];
    const warnings: string[] = [];
    const membership = new MembershipWatch(
      SESSION_MS,
      { setMembershipInDoubt: (inDoubt) => void doubts.push(inDoubt) },
      { warn: (message) => void warnings.push(message) },
    );
    return { membership, doubts, warnings };
  }

  it('falls into doubt once no heartbeat was answered for longer than the session, until one is', () => {
    const { membership, doubts, warnings } = watch();
    now += SESSION_MS;
    membership.check(true);
    expect(doubts).toEqual([]); // exactly the session: not yet
    now += 1;
    membership.check(true);
    membership.check(true); // said once
    expect(doubts).toEqual([true]);
    expect(warnings).toEqual([
      "no heartbeat answered for 10001 ms (session.timeout.ms 10000): the group may have given this member's tasks to another; queries stop reading them as the active copy until it answers",
    ]);
    membership.confirmed();
    membership.confirmed();
    expect(doubts).toEqual([true, false]);
    expect(warnings[1]).toBe('the group answered again: queries read the active tasks again');
  });

  it('keeps counting from the last answer: heartbeats on time never raise a doubt', () => {
    const { membership, doubts } = watch();
    for (let i = 0; i < 10; i++) {
      now += 3_000;
      membership.confirmed();
      membership.check(true);
    }
    expect(doubts).toEqual([]);
  });

  it('has no doubt while the member joins a rebalance, nor without tasks', () => {
    const { membership, doubts } = watch();
    membership.joiningGroup();
    now += 60_000;
    membership.check(true); // joining: the coordinator holds the member until the assignment
    membership.confirmed(); // assigned
    now += 20_000;
    membership.check(false); // no tasks: nothing to answer wrongly
    expect(doubts).toEqual([]);
    membership.check(true);
    expect(doubts).toEqual([true]);
  });

  it('is in doubt at once when the group refuses a commit for a member it no longer knows', () => {
    const { membership, doubts, warnings } = watch();
    // Only rebalancing: the member still holds its tasks.
    membership.refused(
      new CommitFailedError('app', { cause: new RebalanceInProgressError('app') }),
    );
    expect(doubts).toEqual([]);
    const dropped = new CommitFailedError('app', { cause: new UnknownMemberError('app', 'm-1') });
    membership.refused(dropped);
    membership.refused(dropped);
    expect(doubts).toEqual([true]);
    expect(warnings[0]).toMatch(/^the group no longer counts this member \(CommitFailedError: /);
    membership.joiningGroup();
    membership.confirmed(); // assigned again
    expect(doubts).toEqual([true, false]);
  });
});
