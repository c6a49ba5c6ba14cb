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

  function watch(confirmCoordinator?: () => Promise<void>) {
    const doubts: boolean[] = [];
    const warnings: string[] = [];
    const membership = new MembershipWatch(
      SESSION_MS,
      { setMembershipInDoubt: (inDoubt) => void doubts.push(inDoubt) },
      { warn: (message) => void warnings.push(message) },
      confirmCoordinator,
    );
    return { membership, doubts, warnings };
  }

  /** A coordinator check whose answers the test gives, one per call, in order. */
  function checks() {
    const pending: { resolve: () => void; reject: (e: Error) => void }[] = [];
    const confirm = jest.fn(
      () => new Promise<void>((resolve, reject) => pending.push({ resolve, reject })),
    );
    return { confirm, pending };
  }
  const settle = () => new Promise((resolve) => setImmediate(resolve));

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

  it('counts a heartbeat answered in doubt only once its broker is confirmed as the coordinator', async () => {
    const { confirm, pending } = checks();
    const { membership, doubts, warnings } = watch(confirm);
    membership.heartbeatAnswered(); // no doubt: counts at once, nothing asked
    expect(confirm).not.toHaveBeenCalled();
    now += SESSION_MS + 1;
    membership.check(true);
    expect(doubts).toEqual([true]);
    // The hung former coordinator answers the heartbeats queued at it as it resumes.
    membership.heartbeatAnswered();
    membership.heartbeatAnswered(); // one check at a time
    expect(confirm).toHaveBeenCalledTimes(1);
    pending[0].reject(new Error('COORDINATOR_MOVED_WHILE_ASKED: answered by node 3'));
    await settle();
    expect(doubts).toEqual([true]); // still in doubt: queries read no active copy
    expect(warnings[1]).toBe(
      "a heartbeat was answered, but its broker is not confirmed as the group's coordinator " +
        '(Error: COORDINATOR_MOVED_WHILE_ASKED: answered by node 3): the answer may come from a ' +
        'broker that hung while the group moved; queries still read no active copy of its tasks',
    );
    membership.heartbeatAnswered();
    pending[1].reject(new Error('UNCONFIRMED'));
    await settle();
    expect(warnings).toHaveLength(2); // said once per doubt
    // The real coordinator answers.
    membership.heartbeatAnswered();
    pending[2].resolve();
    await settle();
    expect(doubts).toEqual([true, false]);
    expect(warnings[2]).toBe('the group answered again: queries read the active tasks again');
  });

  it('clears no later doubt with a confirmation that outlived its own', async () => {
    const { confirm, pending } = checks();
    const { membership, doubts } = watch(confirm);
    now += SESSION_MS + 1;
    membership.check(true);
    membership.heartbeatAnswered(); // checked...
    membership.joiningGroup();
    membership.confirmed(); // ...but assigned meanwhile,
    membership.refused(
      new CommitFailedError('app', { cause: new UnknownMemberError('app', 'm-1') }),
    ); // and dropped again
    pending[0].resolve();
    await settle();
    expect(doubts).toEqual([true, false, true]);
  });

  it('is confirmed by an assignment without asking', () => {
    const { confirm } = checks();
    const { membership, doubts } = watch(confirm);
    now += SESSION_MS + 1;
    membership.check(true);
    membership.joiningGroup();
    membership.confirmed();
    expect(doubts).toEqual([true, false]);
    expect(confirm).not.toHaveBeenCalled();
  });
});
