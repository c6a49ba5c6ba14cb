import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import type { Producer } from 'kafkajs';
import type { ClusterAdmin } from '../src/runtime/internals/cluster-admin';
import type {
  GroupAssignRequest,
  GroupConsumer,
  GroupConsumerFactory,
  GroupFetchedBatch,
  TopicPartitions,
} from '../src/runtime/internals/group-consumer';
import { KafkaTestContext, randomSuffix } from '../../../test/support/kafka-test-context';
import { waitFor } from '../../../test/support/wait-for';
import { EXPECTED_HEADERS, MESSAGES_WITH_HEADERS } from './record-headers.fixture';

/** One client's group consumers, and its admin adapter to read committed offsets back. */
export interface GroupConsumerContractClient {
  readonly consumers: GroupConsumerFactory;
  /** A connected admin adapter of the same client. */
  admin(): Promise<ClusterAdmin>;
  close(): Promise<void>;
}

/** What one member of a test group saw. */
interface Member {
  readonly name: string;
  readonly consumer: GroupConsumer;
  /** Its subscription user data (`member:<name>` until changed). */
  userData: string;
  /** Each assignment received: generation, partitions (sorted), user data as text. */
  readonly assignments: {
    generationId: number;
    memberId: string;
    partitions: string[];
    userData: string;
  }[];
  /** Records received, as `topic:partition@offset=value`. */
  readonly records: string[];
  readonly batches: GroupFetchedBatch[];
  revoked: number;
}

const flat = (partitions: readonly TopicPartitions[]): string[] =>
  partitions.flatMap((p) => p.partitions.map((n) => `${p.topic}:${n}`)).sort();

/**
 * The {@link GroupConsumer} contract against the test broker: two members of one group joined
 * with the engine's assignor hooks, their assignments and user data, the fetch from committed
 * offsets, pause, resume and seek, commits read back through the admin port, a member leaving,
 * and an enforced rebalance. The test assignor sorts members by their user data and gives
 * partition p to member p % n, with `for:<user data>` as each member's assignment user data.
 */
export function describeGroupConsumerContract(
  client: string,
  create: () => GroupConsumerContractClient,
): void {
  describe(`${client}: group consumer contract (real broker)`, () => {
    let ctx: KafkaTestContext;
    let harness: GroupConsumerContractClient;
    let producer: Producer;
    let groupId: string;
    let topic: string;
    let requests: { members: string[]; partitionCounts: [string, number][] }[];
    const members: Member[] = [];

    const assign = async ({ members: subs, partitionCounts }: GroupAssignRequest) => {
      requests.push({
        members: subs.map((m) => m.userData.toString()).sort(),
        partitionCounts: [...partitionCounts],
      });
      const sorted = [...subs].sort((a, b) =>
        a.userData.toString().localeCompare(b.userData.toString()),
      );
      return sorted.map((member, index) => ({
        memberId: member.memberId,
        partitions: [...partitionCounts].map(([name, count]) => ({
          topic: name,
          partitions: Array.from({ length: count }, (_, p) => p).filter(
            (p) => p % sorted.length === index,
          ),
        })),
        userData: Buffer.from(`for:${member.userData.toString()}`),
      }));
    };

    const startMember = async (name: string): Promise<Member> => {
      const member: Member = {
        name,
        userData: `member:${name}`,
        assignments: [],
        records: [],
        batches: [],
        revoked: 0,
        consumer: harness.consumers({
          groupId,
          assignor: {
            name: 'contract-assignor',
            subscriptionUserData: () => Buffer.from(member.userData),
            assign,
          },
          sessionTimeoutMs: 10_000,
          heartbeatIntervalMs: 300,
          rebalanceTimeoutMs: 20_000,
          maxWaitTimeMs: 100,
        }),
      };
      members.push(member);
      await member.consumer.start({
        topics: [topic],
        listener: {
          onRebalancing: () => undefined,
          onRevoking: async () => void member.revoked++,
          onAssigned: (assignment) => {
            void assignment.userData().then((data) =>
              member.assignments.push({
                generationId: assignment.generationId,
                memberId: assignment.memberId,
                partitions: flat(assignment.partitions),
                userData: data.toString(),
              }),
            );
          },
          onFetch: () => undefined,
          onFailed: (error) => void member.records.push(`failed: ${error.message}`),
        },
        handleBatch: async (batch) => {
          member.batches.push(batch);
          for (const r of batch.records) {
            member.records.push(`${r.topic}:${r.partition}@${r.offset}=${String(r.value)}`);
          }
          return true;
        },
      });
      return member;
    };
    const last = (m: Member) => m.assignments[m.assignments.length - 1];
    const produce = async (partition: number, values: string[]) => {
      await producer.send({
        topic,
        messages: values.map((value) => ({ partition, value })),
      });
    };

    beforeEach(async () => {
      ctx = new KafkaTestContext();
      harness = create();
      groupId = `${ctx.applicationId}-group-${randomSuffix()}`;
      topic = await ctx.createTopic(ctx.topicName('group-input'), 4);
      requests = [];
      producer = ctx.kafka.producer();
      await producer.connect();
    });

    afterEach(async () => {
      for (const m of members.splice(0)) await m.consumer.close();
      await producer.disconnect();
      const admin = await harness.admin();
      await admin.deleteGroups([groupId]).catch(() => undefined);
      await admin.disconnect();
      await harness.close();
      await ctx.cleanup();
    });

    it('gives two members disjoint, complete assignments with their own user data, the leader seeing both subscriptions', async () => {
      const a = await startMember('a');
      await waitFor(() => last(a)?.partitions.length === 4, 30_000, 'a alone owns 4 partitions');
      expect(last(a).userData).toBe('for:member:a');
      expect(requests[requests.length - 1]).toEqual({
        members: ['member:a'],
        partitionCounts: [[topic, 4]],
      });

      const b = await startMember('b');
      await waitFor(
        () => last(b)?.partitions.length === 2 && last(a)?.partitions.length === 2,
        30_000,
        'a and b share the partitions',
      );
      expect(last(a).partitions).toEqual([`${topic}:0`, `${topic}:2`]);
      expect(last(b).partitions).toEqual([`${topic}:1`, `${topic}:3`]);
      expect(last(a).userData).toBe('for:member:a');
      expect(last(b).userData).toBe('for:member:b');
      expect(requests[requests.length - 1]).toEqual({
        members: ['member:a', 'member:b'],
        partitionCounts: [[topic, 4]],
      });
      expect(last(a).generationId).toBe(last(b).generationId);
      expect(last(a).generationId).toBeGreaterThan(a.assignments[0].generationId);
      expect(a.consumer.groupMetadata()).toEqual({
        groupId,
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
        { topic, partition: 0, offset: 2 },
        { topic, partition: 3, offset: 1 },
      ]);
      const admin = await harness.admin();
      expect(await admin.fetchCommittedOffsets(groupId, [topic])).toEqual([
        { topic, partition: 0, offset: 2 },
        { topic, partition: 3, offset: 1 },
      ]);
      await admin.disconnect();
      await first.consumer.close();
      members.splice(members.indexOf(first), 1);

      const second = await startMember('b');
      await waitFor(() => second.records.length >= 3, 30_000, 'b reads from the commits');
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect([...second.records].sort()).toEqual([
        `${topic}:0@2=a2`,
        `${topic}:0@3=a3`,
        `${topic}:3@1=d1`,
      ]);
      expect(second.batches.map((b) => [b.partition, b.nextOffset]).sort()).toEqual([
        [0, 4],
        [3, 2],
      ]);
    });

    it('hands records over with their headers exactly as produced, every field as the port says', async () => {
      await producer.send({
        topic,
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
          topic,
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

    it('holds paused partitions back until resumed, and seeks', async () => {
      const a = await startMember('a');
      await waitFor(() => last(a)?.partitions.length === 4, 30_000, 'a owns 4 partitions');
      a.consumer.pause([{ topic, partitions: [1] }]);
      await produce(1, ['b0', 'b1', 'b2']);
      await produce(2, ['c0']);
      await waitFor(() => a.records.length === 1, 30_000, 'the unpaused partition is read');
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(a.records).toEqual([`${topic}:2@0=c0`]);

      a.consumer.resume([{ topic, partitions: [1] }]);
      await waitFor(() => a.records.length === 4, 30_000, 'the resumed partition is read');
      expect(a.records.slice(1)).toEqual([`${topic}:1@0=b0`, `${topic}:1@1=b1`, `${topic}:1@2=b2`]);

      a.consumer.seek(topic, 1, 1);
      await waitFor(() => a.records.length === 6, 30_000, 'the partition is read again from 1');
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(a.records.slice(4)).toEqual([`${topic}:1@1=b1`, `${topic}:1@2=b2`]);
    });

    it('gives the partitions of a member that leaves to the other', async () => {
      const a = await startMember('a');
      await waitFor(() => last(a)?.partitions.length === 4, 30_000, 'a owns 4 partitions');
      const b = await startMember('b');
      await waitFor(() => last(b)?.partitions.length === 2, 30_000, 'b joins');
      await waitFor(() => last(a)?.partitions.length === 2, 30_000, 'a shares');
      const shared = last(a).generationId;

      await b.consumer.close();
      members.splice(members.indexOf(b), 1);
      // Within half the session timeout: the member left, the group did not wait for it to expire.
      const left = Date.now();
      await waitFor(() => last(a)?.generationId > shared, 30_000, 'a rebalances alone');
      expect(Date.now() - left).toBeLessThan(5_000);
      expect(last(a).partitions).toEqual([0, 1, 2, 3].map((p) => `${topic}:${p}`));
      expect(last(a).userData).toBe('for:member:a');
      expect(requests[requests.length - 1].members).toEqual(['member:a']);
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
      expect(last(b).partitions).toEqual([`${topic}:1`, `${topic}:3`]);
      expect(requests[requests.length - 1].members).toEqual(['member:a', 'member:c']);
    });
  });
}
