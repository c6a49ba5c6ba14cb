import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { waitFor } from '../../../test/support/wait-for';
import { describeGroupConsumerCommitCases } from './group-consumer-commits.contract';
import { describeCooperativeGroupConsumerCases } from './group-consumer-cooperative.contract';
import { GroupConsumerHarness, type GroupConsumerContractClient } from './group-consumer.harness';
import { EXPECTED_HEADERS, MESSAGES_WITH_HEADERS } from './record-headers.fixture';

export type { GroupConsumerContractClient } from './group-consumer.harness';

/**
 * The {@link GroupConsumer} contract against the test broker: two members of one group joined
 * with the engine's assignor hooks, their assignments and user data, the fetch from committed
 * offsets, pause, resume and seek, commits read back through the admin port, a member leaving,
 * an enforced rebalance, and the commits around a rebalance
 * ({@link describeGroupConsumerCommitCases}). The test assignor (see
 * {@link GroupConsumerHarness}) sorts members by their user data and gives partition p to
 * member p % n, with `for:<user data>` as each member's assignment user data. A client with a
 * cooperative protocol (`cooperative`) passes {@link describeCooperativeGroupConsumerCases} too.
 */
export function describeGroupConsumerContract(
  client: string,
  create: () => GroupConsumerContractClient,
  { cooperative = false }: { cooperative?: boolean } = {},
): void {
  describe(`${client}: group consumer contract (real broker)`, () => {
    const group = new GroupConsumerHarness(create);
    const startMember = group.startMember.bind(group);
    const last = group.last.bind(group);
    const produce = group.produce.bind(group);

    beforeEach(() => group.setUp());
    afterEach(() => group.tearDown());

    it('gives two members disjoint, complete assignments with their own user data, the leader seeing both subscriptions', async () => {
      const a = await startMember('a');
      await waitFor(() => last(a)?.partitions.length === 4, 30_000, 'a alone owns 4 partitions');
      expect(last(a).userData).toBe('for:member:a');
      expect(group.requests[group.requests.length - 1]).toEqual({
        members: ['member:a'],
        partitionCounts: [[group.topic, 4]],
      });

      const b = await startMember('b');
      await waitFor(
        () => last(b)?.partitions.length === 2 && last(a)?.partitions.length === 2,
        30_000,
        'a and b share the partitions',
      );
      expect(last(a).partitions).toEqual([`${group.topic}:0`, `${group.topic}:2`]);
      expect(last(b).partitions).toEqual([`${group.topic}:1`, `${group.topic}:3`]);
      expect(last(a).userData).toBe('for:member:a');
      expect(last(b).userData).toBe('for:member:b');
      expect(group.requests[group.requests.length - 1]).toEqual({
        members: ['member:a', 'member:b'],
        partitionCounts: [[group.topic, 4]],
      });
      expect(last(a).generationId).toBe(last(b).generationId);
      expect(last(a).generationId).toBeGreaterThan(a.assignments[0].generationId);
      expect(a.consumer.groupMetadata()).toEqual({
        groupId: group.groupId,
        memberId: last(a).memberId,
        generationId: last(a).generationId,
        groupInstanceId: null,
      });
      expect(b.consumer.groupMetadata()?.memberId).toBe(last(b).memberId);
      expect(last(a).memberId).not.toBe(last(b).memberId);
    });

    it('fetches the assigned partitions from their committed offsets, commits, and reads the commit back', async () => {
      await produce(0, ['a0', 'a1', 'a2', 'a3']);
      await produce(3, ['d0', 'd1']);
      const first = await startMember('a');
      await waitFor(() => last(first)?.partitions.length === 4, 30_000, 'a owns 4 partitions');
      await first.consumer.commitOffsets([
        { topic: group.topic, partition: 0, offset: 2 },
        { topic: group.topic, partition: 3, offset: 1 },
      ]);
      expect(await group.committed()).toEqual([
        { topic: group.topic, partition: 0, offset: 2 },
        { topic: group.topic, partition: 3, offset: 1 },
      ]);
      await group.stopMember(first);

      const second = await startMember('b');
      await waitFor(() => second.records.length >= 3, 30_000, 'b reads from the commits');
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect([...second.records].sort()).toEqual([
        `${group.topic}:0@2=a2`,
        `${group.topic}:0@3=a3`,
        `${group.topic}:3@1=d1`,
      ]);
      expect(second.batches.map((b) => [b.partition, b.nextOffset]).sort()).toEqual([
        [0, 4],
        [3, 2],
      ]);
    });

    it('hands records over with their headers exactly as produced, every field as the port says', async () => {
      await group.producer.send({
        topic: group.topic,
        messages: MESSAGES_WITH_HEADERS.map((m) => ({ ...m, partition: 2 })),
      });
      const a = await startMember('a');
      await waitFor(
        () => a.records.length >= MESSAGES_WITH_HEADERS.length,
        30_000,
        'a reads the records with headers',
      );
      const consumed = a.batches.flatMap((b) => b.records);
      expect(consumed).toStrictEqual(
        MESSAGES_WITH_HEADERS.map((m, i) => ({
          topic: group.topic,
          partition: 2,
          offset: i,
          timestamp: consumed[i].timestamp,
          key: null,
          value: Buffer.from(m.value as string),
          headers: EXPECTED_HEADERS[i],
        })),
      );
      expect(consumed.every((r) => Number.isInteger(r.timestamp) && r.timestamp > 0)).toBe(true);
    });

    it('fetches at most maxBytesPerPartition of a partition at a time, every record in order', async () => {
      // 24 record batches of one ~250-byte record each: 1 KiB holds at most 4 of them.
      const values = Array.from({ length: 24 }, (_, i) => `${i}`.padStart(200, '.'));
      for (const value of values) await produce(1, [value]);
      const a = await startMember('a', { maxBytesPerPartition: 1024 });
      await waitFor(() => a.records.length >= values.length, 30_000, 'a reads every record');
      expect(a.records).toEqual(values.map((v, i) => `${group.topic}:1@${i}=${v}`));
      const sizes = a.batches.map((b) => b.records.length);
      expect(Math.max(...sizes)).toBeLessThanOrEqual(4);
      expect(sizes.reduce((x, y) => x + y, 0)).toBe(values.length);
    });

    it('tells each partition’s lag: what the broker holds beyond the records handed over', async () => {
      await produce(1, ['b0', 'b1', 'b2']);
      await produce(2, ['c0', 'c1']);
      const a = await startMember('a');
      await waitFor(() => a.records.length === 5, 30_000, 'a reads the five records');
      // Partitions 1 and 2 came in one fetch: while the first batch was handled, it counted as
      // handed over (its partition's lag 0) and the other's records were still on the broker.
      const [first, second] = a.lagsAtBatches;
      expect(a.lagsAtBatches).toHaveLength(2);
      expect(first.lags[first.partition]).toBe(0);
      expect(first.lags[first.partition === 1 ? 2 : 1]).toBe(first.partition === 1 ? 2 : 3);
      expect(second.lags[second.partition]).toBe(0);
      expect(second.lags[first.partition]).toBe(0);
      // Every assigned partition is known caught up once fetched, the empty ones too.
      const lags = () => [0, 1, 2, 3].map((p) => a.consumer.currentLag?.(group.topic, p));
      await waitFor(() => lags().every((lag) => lag === 0), 30_000, 'every lag known to be 0');
      a.consumer.seek(group.topic, 1, 1);
      expect(a.consumer.currentLag?.(group.topic, 1)).toBeUndefined();
      expect(a.consumer.currentLag?.(group.topic, 7)).toBeUndefined(); // not assigned
    });

    it('holds paused partitions back until resumed, and seeks', async () => {
      const a = await startMember('a');
      await waitFor(() => last(a)?.partitions.length === 4, 30_000, 'a owns 4 partitions');
      a.consumer.pause([{ topic: group.topic, partitions: [1] }]);
      await produce(1, ['b0', 'b1', 'b2']);
      await produce(2, ['c0']);
      await waitFor(() => a.records.length === 1, 30_000, 'the unpaused partition is read');
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(a.records).toEqual([`${group.topic}:2@0=c0`]);

      a.consumer.resume([{ topic: group.topic, partitions: [1] }]);
      await waitFor(() => a.records.length === 4, 30_000, 'the resumed partition is read');
      expect(a.records.slice(1)).toEqual([
        `${group.topic}:1@0=b0`,
        `${group.topic}:1@1=b1`,
        `${group.topic}:1@2=b2`,
      ]);

      a.consumer.seek(group.topic, 1, 1);
      await waitFor(() => a.records.length === 6, 30_000, 'the partition is read again from 1');
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(a.records.slice(4)).toEqual([`${group.topic}:1@1=b1`, `${group.topic}:1@2=b2`]);
    });

    it('gives the partitions of a member that leaves to the other', async () => {
      const a = await startMember('a');
      await waitFor(() => last(a)?.partitions.length === 4, 30_000, 'a owns 4 partitions');
      const b = await startMember('b');
      await waitFor(() => last(b)?.partitions.length === 2, 30_000, 'b joins');
      await waitFor(() => last(a)?.partitions.length === 2, 30_000, 'a shares');
      const shared = last(a).generationId;

      await group.stopMember(b);
      // Within half the session timeout: the member left, the group did not wait for it to expire.
      const left = Date.now();
      await waitFor(() => last(a)?.generationId > shared, 30_000, 'a rebalances alone');
      expect(Date.now() - left).toBeLessThan(5_000);
      expect(last(a).partitions).toEqual([0, 1, 2, 3].map((p) => `${group.topic}:${p}`));
      expect(last(a).userData).toBe('for:member:a');
      expect(group.requests[group.requests.length - 1].members).toEqual(['member:a']);
      expect(a.revoked).toBeGreaterThanOrEqual(1);
    });

    it('rejoins as the same member on enforceRebalance, with its new subscription', async () => {
      const a = await startMember('a');
      await waitFor(() => last(a)?.partitions.length === 4, 30_000, 'a owns 4 partitions');
      const b = await startMember('b');
      await waitFor(
        () => last(b)?.partitions.length === 2 && last(a)?.partitions.length === 2,
        30_000,
        'a and b share the partitions',
      );
      const before = { a: last(a), b: last(b) };

      b.userData = 'member:c'; // sorts after a still; its assignment data follows
      await b.consumer.enforceRebalance();
      await waitFor(
        () =>
          last(b).generationId > before.b.generationId &&
          last(a).generationId > before.a.generationId,
        30_000,
        'both members in a new generation',
      );
      expect(last(b).memberId).toBe(before.b.memberId);
      expect(last(a).memberId).toBe(before.a.memberId);
      expect(last(b).userData).toBe('for:member:c');
      expect(last(b).partitions).toEqual([`${group.topic}:1`, `${group.topic}:3`]);
      expect(group.requests[group.requests.length - 1].members).toEqual(['member:a', 'member:c']);
    });

    describeGroupConsumerCommitCases(group);
    if (cooperative) describeCooperativeGroupConsumerCases(group);
  });
}
