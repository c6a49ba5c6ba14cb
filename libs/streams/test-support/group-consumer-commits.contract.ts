import { expect, it } from '@jest/globals';
import { CommitFailedError } from '../src/errors/internals/commit-failed.error';
import { MemberFencedError } from '../src/errors/internals/member-fenced.error';
import type { TopicPartitionOffset } from '../src/client/group-consumer';
import { waitFor } from '../../../test/support/wait-for';
import type { GroupConsumerHarness } from './group-consumer.harness';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The {@link GroupConsumer} contract's commit cases around a rebalance, registered in the
 * contract's `describe` (its `group` set up before each): the eager revocation commit (a member
 * commits what it processed in `onRevoking`, in its ending generation, and the group waits for
 * it before the next generation forms: the partitions' next owners read on from exactly there,
 * nothing read twice), and a commit in a generation the group left behind (sent while the
 * group completes its next rebalance: ILLEGAL_GENERATION), refused with a `CommitFailedError`
 * whose cause is the typed group error.
 */
export function describeGroupConsumerCommitCases(group: GroupConsumerHarness): void {
  it('commits in onRevoking, in the ending generation, before the next one forms: the new owners read on from exactly what the old one processed', async () => {
    const counts = [3, 5, 2, 4];
    for (const [p, n] of counts.entries()) {
      await group.produce(
        p,
        Array.from({ length: n }, (_, i) => `p${p}-${i}`),
      );
    }
    const commits: { generationId: number; offsets: TopicPartitionOffset[]; at: number }[] = [];
    const refused: unknown[] = [];
    const a = await group.startMember('a', {
      onRevoking: async (member) => {
        const metadata = member.consumer.groupMetadata();
        const offsets = group.processedOffsets(member);
        if (!metadata || offsets.length === 0) return;
        // A commit that takes its time, as flushing stores can: the rejoin waits for it.
        await sleep(1_000);
        try {
          await member.consumer.commitOffsets(offsets);
          commits.push({ generationId: metadata.generationId, offsets, at: Date.now() });
        } catch (error) {
          refused.push(error);
        }
      },
    });
    await waitFor(
      () => group.last(a)?.partitions.length === 4 && a.records.length === 14,
      30_000,
      'a owns 4 partitions and processed their 14 records',
    );
    const first = group.last(a).generationId;
    expect(await group.committed()).toEqual([]);

    const b = await group.startMember('b');
    await group.sharedWith(a, b);
    const processed = counts.map((offset, partition) => ({
      topic: group.topic,
      partition,
      offset,
    }));
    expect(refused).toEqual([]);
    expect(commits.map(({ generationId, offsets }) => ({ generationId, offsets }))).toEqual([
      { generationId: first, offsets: processed },
    ]);
    expect(commits[0].at).toBeLessThanOrEqual(b.assignedAt[0]);
    expect(group.last(b).generationId).toBeGreaterThan(first);
    expect(await group.committed()).toEqual(processed);

    // Each partition's owner in the new generation reads on from the commit: no record twice.
    for (const [p, n] of counts.entries()) await group.produce(p, [`p${p}-${n}`]);
    await waitFor(
      () => b.records.length === 2 && a.records.length === 16,
      30_000,
      'the new records are read',
    );
    await sleep(500);
    const topic = group.topic;
    expect([...b.records].sort()).toEqual([`${topic}:1@5=p1-5`, `${topic}:3@4=p3-4`]);
    expect(a.records.slice(14).sort()).toEqual([`${topic}:0@3=p0-3`, `${topic}:2@2=p2-2`]);
  });

  it('refuses a commit in a generation the group left behind with CommitFailedError, caused by the typed group error', async () => {
    await group.produce(0, ['x0', 'x1']);
    const a = await group.startMember('a');
    await waitFor(
      () => group.last(a)?.partitions.length === 4 && a.records.length === 2,
      30_000,
      'a owns 4 partitions and read partition 0',
    );
    const first = group.last(a).generationId;
    let stale: { generationId: number | undefined; result: unknown } | undefined;
    // The leader assigns the next generation while every member waits for its SyncGroup answer:
    // the group is at a newer generation (completing its rebalance) and a still holds its own.
    group.beforeAssign = async (members) => {
      if (members.length !== 2 || stale) return;
      stale = {
        generationId: a.consumer.groupMetadata()?.generationId,
        result: await a.consumer
          .commitOffsets([{ topic: group.topic, partition: 0, offset: 2 }])
          .then(
            () => 'committed',
            (error: unknown) => error,
          ),
      };
    };
    const b = await group.startMember('b');
    await waitFor(
      () => group.last(b)?.partitions.length === 2 && group.last(a)?.partitions.length === 2,
      30_000,
      'a and b share the partitions',
    );

    expect(stale?.generationId).toBe(first);
    expect(group.last(a).generationId).toBeGreaterThan(first);
    const error = stale?.result;
    expect(error).toBeInstanceOf(CommitFailedError);
    expect((error as CommitFailedError).groupId).toBe(group.groupId);
    const cause = (error as CommitFailedError).cause;
    expect(cause).toBeInstanceOf(MemberFencedError);
    expect(cause).toMatchObject({ groupId: group.groupId, reason: 'illegal-generation' });
    expect(await group.committed()).toEqual([]);
  });
}
