// The @platformatic/kafka group consumer as a static member (KIP-345, `groupInstanceId`),
// against the real broker: closing without leaving, a successor taking the assignment back in
// the same generation, and fencing when another process takes the id.
import { FencedInstanceIdError } from '../../errors/internals/fenced-instance-id.error';
import { GroupConsumerHarness } from '../../../test-support/group-consumer.harness';
import { GROUP_CONSUMER_CLIENTS } from '../../../test-support/group-consumer-clients';
import { waitFor } from '../../../../../test/support/wait-for';

describe('@platformatic/kafka: a static group member (real broker)', () => {
  const group = new GroupConsumerHarness(() =>
    GROUP_CONSUMER_CLIENTS['@platformatic/kafka']('static-member-spec'),
  );
  beforeEach(() => group.setUp());
  afterEach(() => group.tearDown());

  const members = async (): Promise<string[]> => {
    const { groups } = await (await group.ctx.admin()).describeGroups([group.groupId]);
    return groups[0].members.map((m) => m.memberId).sort();
  };

  it('closes without leaving; a successor with its id gets its assignment back in the same generation, the other member unaware', async () => {
    const a = await group.startMember('a', { groupInstanceId: 'static-a' });
    const b = await group.startMember('b', { groupInstanceId: 'static-b' });
    await group.sharedWith(a, b);
    const generation = group.last(b).generationId;
    const before = { a: a.assignments.length, revoked: a.revoked, assigns: group.requests.length };
    expect(b.consumer.groupMetadata()).toEqual({
      groupId: group.groupId,
      memberId: group.last(b).memberId,
      generationId: generation,
      groupInstanceId: 'static-b',
    });
    const both = await members();
    expect(both).toHaveLength(2);

    await group.stopMember(b);
    // No LeaveGroup: the broker still counts b.
    expect(await members()).toEqual(both);

    const b2 = await group.startMember('b2', { groupInstanceId: 'static-b' });
    await waitFor(() => group.last(b2) !== undefined, 30_000, 'the successor assigned');
    // The assignment b had, as the leader made it for b, in the same generation: no rebalance.
    expect(group.last(b2)).toEqual({
      generationId: generation,
      memberId: group.last(b2).memberId,
      partitions: group.last(b).partitions,
      userData: 'for:member:b',
    });
    expect(group.last(b2).memberId).not.toBe(group.last(b).memberId);
    // The broker replaced b's member id with b2's.
    expect(await members()).toEqual(
      [group.last(a).memberId, group.last(b2).memberId].sort((x, y) => x.localeCompare(y)),
    );
    // Its offsets commit in that generation, with the instance id.
    await b2.consumer.commitOffsets([{ topic: group.topic, partition: 1, offset: 0 }]);
    await new Promise((r) => setTimeout(r, 1_000));
    expect({ a: a.assignments.length, revoked: a.revoked, assigns: group.requests.length }).toEqual(
      before,
    );
    expect(a.records.filter((r) => r.startsWith('failed'))).toEqual([]);

    // The leader (a, the first to join) comes back the same way: KIP-814's skipAssignment, no
    // assignor run.
    await group.stopMember(a);
    const a2 = await group.startMember('a2', { groupInstanceId: 'static-a' });
    await waitFor(() => group.last(a2) !== undefined, 30_000, 'the leader back');
    expect(group.last(a2)).toMatchObject({
      generationId: generation,
      partitions: group.last(a).partitions,
      userData: 'for:member:a',
    });
    expect(group.requests).toHaveLength(before.assigns);
    expect(b2.assignments).toHaveLength(1);
  });

  it('fails with FencedInstanceIdError once another member joins with its id: its commits too, and it does not rejoin', async () => {
    await group.produce(0, ['x0']);
    const older = await group.startMember('older', { groupInstanceId: 'static-x' });
    await waitFor(() => older.records.length === 1, 30_000, 'the older member reads');
    const newer = await group.startMember('newer', { groupInstanceId: 'static-x' });
    await waitFor(() => group.last(newer) !== undefined, 30_000, 'the newer member assigned');
    const failed = `failed: another process joined consumer group ${group.groupId} with this member's group instance id 'static-x': this client is fenced and stops`;
    await waitFor(() => older.records.includes(failed), 30_000, 'the older member fenced', {
      context: () => JSON.stringify(older.records),
    });
    const commit = await older.consumer
      .commitOffsets([{ topic: group.topic, partition: 0, offset: 1 }])
      .catch((error: unknown) => error);
    expect(commit).toBeInstanceOf(FencedInstanceIdError);
    expect(commit).toMatchObject({ code: 'FENCED_INSTANCE_ID', groupInstanceId: 'static-x' });
    // Reported once, and the id stays with the newer member.
    await new Promise((r) => setTimeout(r, 1_500));
    expect(older.records.filter((r) => r.startsWith('failed'))).toEqual([failed]);
    expect(await members()).toEqual([group.last(newer).memberId]);
    expect(group.last(newer).partitions).toHaveLength(4);
    expect(newer.records).toEqual([`${group.topic}:0@0=x0`]);
  });
});
