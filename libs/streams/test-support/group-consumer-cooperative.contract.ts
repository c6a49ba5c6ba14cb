import { expect, it } from '@jest/globals';
import { waitFor } from '../../../test/support/wait-for';
import type { GroupConsumerHarness } from './group-consumer.harness';

/**
 * The cooperative rebalance protocol (KIP-429) of a {@link GroupConsumer} whose client has one,
 * with the harness's cooperative test assignor: a member keeps fetching its partitions through
 * a rebalance, gives up only those the assignment takes away, and rejoins so that their new
 * owner gets them in a follow-up rebalance.
 */
export function describeCooperativeGroupConsumerCases(group: GroupConsumerHarness): void {
  const last = group.last.bind(group);
  const owned = (partitions: number[]) => partitions.map((p) => `${group.topic}:${p}`);

  it('cooperative: keeps fetching through a rebalance, gives up only what moves, then rejoins for its new owner', async () => {
    group.cooperativeAssign = true;
    const a = await group.startMember('a', { rebalanceProtocol: 'cooperative' });
    await waitFor(() => last(a)?.partitions.length === 4, 30_000, 'a alone owns 4 partitions');
    const alone = last(a);
    await group.produce(0, ['p0-before']);
    await waitFor(() => a.records.length === 1, 30_000, 'a reads partition 0');

    // While the group rebalances for b, the leader (a) holds the assignment back until a has
    // read a record produced meanwhile: an eager member fetches nothing then, and this waits in
    // vain.
    let duringRebalance: string[] | undefined;
    group.beforeAssign = async (members) => {
      if (members.length !== 2 || duringRebalance) return;
      await group.produce(2, ['p2-during']);
      await waitFor(
        () => a.records.some((r) => r.endsWith('=p2-during')),
        10_000,
        'a reads partition 2 during the rebalance',
      );
      duringRebalance = [...a.records];
    };
    const b = await group.startMember('b', { rebalanceProtocol: 'cooperative' });
    await waitFor(
      () => last(b)?.partitions.length === 2 && last(a)?.partitions.length === 2,
      30_000,
      'a gave 1 and 3 up, b got them in the follow-up rebalance',
    );
    expect(duringRebalance).toEqual([
      `${group.topic}:0@0=p0-before`,
      `${group.topic}:2@0=p2-during`,
    ]);
    expect(last(a).partitions).toEqual(owned([0, 2]));
    expect(last(b).partitions).toEqual(owned([1, 3]));
    // a never lost 0 and 2: every assignment it received had them.
    for (const assignment of a.assignments)
      expect(assignment.partitions).toEqual(expect.arrayContaining(owned([0, 2])));
    // Two rebalances: b's first assignment was empty (1 and 3 were still a's).
    expect(b.assignments[0].partitions).toEqual([]);
    expect(last(b).generationId).toBe(b.assignments[0].generationId + 1);
    expect(last(a).generationId).toBe(last(b).generationId);
    expect(last(a).generationId).toBeGreaterThan(alone.generationId);
    expect(a.lost).toBe(0);
    expect(a.consumer.groupMetadata()).toEqual({
      groupId: group.groupId,
      memberId: alone.memberId,
      generationId: last(a).generationId,
      groupInstanceId: null,
    });

    // b reads its partitions; a goes on with its own, from where it was.
    await group.produce(1, ['p1-after']);
    await group.produce(0, ['p0-after']);
    await waitFor(
      () => b.records.includes(`${group.topic}:1@0=p1-after`),
      30_000,
      'b reads partition 1',
    );
    await waitFor(
      () => a.records.includes(`${group.topic}:0@1=p0-after`),
      30_000,
      'a reads partition 0 on',
    );
    expect(a.records.filter((r) => r.startsWith(`${group.topic}:0@`))).toEqual([
      `${group.topic}:0@0=p0-before`,
      `${group.topic}:0@1=p0-after`,
    ]);
  });
}
