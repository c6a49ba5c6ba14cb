import { MultipleErrors, NetworkError } from '@platformatic/kafka';
import type { EventEmitter } from 'node:events';
import { describeGroupConsumerContract } from '../../../test-support/group-consumer.contract';
import { GROUP_CONSUMER_CLIENTS } from '../../../test-support/group-consumer-clients';
import { GroupConsumerHarness, type Member } from '../../../test-support/group-consumer.harness';
import { waitFor } from '../../../../../test/support/wait-for';
import { PlatformaticGroupMember } from './platformatic-group-member';

describeGroupConsumerContract(
  '@platformatic/kafka',
  () => GROUP_CONSUMER_CLIENTS['@platformatic/kafka']('group-consumer-contract'),
  { cooperative: true },
);

/** What platformatic reports once its retries of a call to an unreachable coordinator are spent. */
const unreachable = (operation: string): MultipleErrors =>
  new MultipleErrors(`${operation} failed 4 times.`, [
    new NetworkError('Connection to 127.0.0.1:1 failed.'),
    new NetworkError('Connection to 127.0.0.1:1 failed.'),
  ]);

describe('@platformatic/kafka group consumer: its membership and start positions under faults (real broker)', () => {
  const group = new GroupConsumerHarness(() =>
    GROUP_CONSUMER_CLIENTS['@platformatic/kafka']('group-consumer-coordinator-faults'),
  );
  beforeEach(() => group.setUp());
  afterEach(async () => {
    jest.restoreAllMocks();
    await group.tearDown();
  });

  const assigned = async (name: string) => {
    const member = await group.startMember(name, { rebalanceProtocol: 'cooperative' });
    await waitFor(() => group.last(member)?.partitions.length === 4, 30_000, `${name} assigned`);
    return member;
  };
  /**
   * Waits until `member` is handed the 4 partitions again, in an assignment after the `before`th,
   * nothing failed. Counted, not compared by generation: a group left empty may be deleted by the
   * coordinator's periodic cleanup (it holds no offsets), and the next join starts it again at
   * generation 1.
   */
  const assignedAgain = async (member: Member, before: number): Promise<void> => {
    await waitFor(
      () => member.assignments.length > before && group.last(member).partitions.length === 4,
      30_000,
      `${member.name} assigned again`,
      {
        context: () => JSON.stringify({ assignments: member.assignments, records: member.records }),
      },
    );
    expect(member.records.filter((r) => r.startsWith('failed'))).toEqual([]);
  };

  describe('a coordinator that moves, hangs or restarts', () => {
    it('rejoin joins again when its LeaveGroup gets no answer, and the thread is not failed', async () => {
      const a = await assigned('a');
      const before = a.assignments.length;
      // platformatic's callback form, leaveGroup(force, callback), as the adapter calls it.
      const failingLeave = (_force: unknown, callback: (error: Error) => void): void =>
        callback(unreachable('leaveGroup'));
      jest
        .spyOn(PlatformaticGroupMember.prototype, 'leaveGroup')
        .mockImplementationOnce(failingLeave as never);

      await a.consumer.rejoin();

      await assignedAgain(a, before);
    });

    it('rejoin retries a JoinGroup that fails on an unreachable coordinator', async () => {
      const a = await assigned('a');
      const before = a.assignments.length;
      const join = jest.spyOn(PlatformaticGroupMember.prototype, 'joinGroup');
      join.mockRejectedValueOnce(unreachable('joinGroup'));
      join.mockRejectedValueOnce(unreachable('joinGroup'));

      await a.consumer.rejoin();

      expect(join).toHaveBeenCalledTimes(3);
      // Handed over once its partitions' committed offsets are fetched.
      await assignedAgain(a, before);
    });

    it('goes on joining when a rejoin platformatic started after a failed heartbeat gave up on an unreachable coordinator', async () => {
      const a = await assigned('a');
      const before = a.assignments.length;
      const member = (a.consumer as unknown as { member: EventEmitter }).member;

      member.emit('error', unreachable('joinGroup'));

      await assignedAgain(a, before);
    });

    it('fails on an error that is no cluster fault', async () => {
      const a = await assigned('a');
      const member = (a.consumer as unknown as { member: EventEmitter }).member;

      member.emit('error', new Error('the assignor threw'));

      expect(a.records.filter((r) => r.startsWith('failed'))).toEqual([
        'failed: the assignor threw',
      ]);
    });
  });

  describe('a membership that ended without a word', () => {
    it('joins again once neither heartbeats nor a join carried it for a rebalance and a session timeout', async () => {
      const a = await group.startMember('a', {
        rebalanceProtocol: 'cooperative',
        rebalanceTimeoutMs: 10_000,
      });
      await waitFor(() => group.last(a)?.partitions.length === 4, 30_000, 'a assigned');
      const before = a.assignments.length;
      // platformatic stops its heartbeats and leaves, telling the adapter nothing (as after a
      // rejoin of its own that failed for good): the member is out of the group.
      const member = (a.consumer as unknown as { member: PlatformaticGroupMember }).member;
      await member.leaveGroup(true);

      // rebalance (10 s) + session (10 s) timeouts without an answer, then a join.
      await assignedAgain(a, before);
    }, 60_000);
  });

  describe("a former owner's open transaction", () => {
    it('hands the assignment over only once the transaction holding its offsets ended, and fetches from what it committed', async () => {
      await group.produce(0, ['r0', 'r1', 'r2', 'r3', 'r4', 'r5', 'r6']);
      // A former owner processed partition 0 up to offset 5: its transaction holds the offsets.
      const former = group.ctx.kafka.producer({
        transactionalId: `${group.groupId}-former-owner`,
        maxInFlightRequests: 1,
        idempotent: true,
      });
      await former.connect();
      const transaction = await former.transaction();
      await transaction.sendOffsets({
        consumerGroupId: group.groupId,
        topics: [{ topic: group.topic, partitions: [{ partition: 0, offset: '5' }] }],
      });

      const a = await group.startMember('a', { rebalanceProtocol: 'cooperative' });
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      // The engine would restore the task now, from a changelog the open transaction writes to.
      expect(a.assignments).toEqual([]);
      expect(a.records).toEqual([]);

      await transaction.commit();
      await waitFor(() => a.records.length === 2, 30_000, 'a reads partition 0 on from 5');
      expect(a.assignments.map((x) => x.partitions.length)).toEqual([4]);
      expect(a.records).toEqual([`${group.topic}:0@5=r5`, `${group.topic}:0@6=r6`]);
      await former.disconnect();
    }, 60_000);
  });
});
