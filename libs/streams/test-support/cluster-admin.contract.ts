import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { BrokersUnreachableError } from '../src/errors/brokers-unreachable.error';
import { GroupNotDeletedError } from '../src/errors/internals/group-not-deleted.error';
import { UnknownTopicError } from '../src/errors/internals/unknown-topic.error';
import { UnstableOffsetsError } from '../src/errors/internals/unstable-offsets.error';
import type { ClusterAdmin, NewTopic, TopicMetadata } from '../src/client/cluster-admin';
import { kafkajsRecordProducerFactory } from '../src/client/kafkajs/kafkajs-record-producer';
import { groupOnlyMetadata } from '../src/client/record-producer';
import { fetchTopicOffsetsSettled } from '../src/client/topic-admin';
import {
  KafkaTestContext,
  randomSuffix,
  testKafka,
} from '../../../test/support/kafka-test-context';

/** One client's way to create the port's adapter and to act on the cluster as a plain client. */
export interface ClusterAdminContractClient {
  /** A new adapter over a new client of the test broker, not connected. */
  admin(): ClusterAdmin;
  /** A new adapter whose client knows only a closed port, failing fast (no or few retries). */
  unreachableAdmin(unreachable: string): ClusterAdmin;
  /** Appends `count` records to a partition with this client's producer. */
  produce(topic: string, partition: number, count: number): Promise<void>;
  /**
   * Joins `groupId` with this client's consumer subscribed to `topic`, commits `offsets` (next
   * offsets to read, by partition) if any, and stays a member until the returned function is
   * called.
   */
  joinGroup(
    groupId: string,
    topic: string,
    offsets?: Readonly<Record<number, number>>,
  ): Promise<() => Promise<void>>;
  /** Closes what the client opened for the suite. */
  close(): Promise<void>;
}

/** The broker's node id (a single-node test broker leads every partition). */
const leaderOf = (metadata: TopicMetadata): number => metadata.partitions[0]?.leader ?? -1;

/**
 * The {@link ClusterAdmin} contract against the test broker: every operation the engine uses,
 * with exact results, and the typed errors its callers act on. Each test works in topics and
 * groups of its own (random names), deleted afterwards.
 */
export function describeClusterAdminContract(
  client: string,
  create: () => ClusterAdminContractClient,
): void {
  describe(`${client}: cluster admin contract (real broker)`, () => {
    let ctx: KafkaTestContext;
    let harness: ClusterAdminContractClient;
    let admin: ClusterAdmin;
    const topicName = (label: string): string => `${ctx.applicationId}-${label}`;
    const groupName = (label: string): string => `${ctx.applicationId}-${label}-${randomSuffix()}`;

    /** Creates topics through the port and waits for every partition's leader. */
    const createTopics = async (topics: readonly NewTopic[]): Promise<void> => {
      await admin.createTopics(topics);
      const deadline = Date.now() + 30_000;
      for (;;) {
        const metadata = await admin
          .fetchTopicMetadata(topics.map((t) => t.topic))
          .catch(() => undefined);
        if (metadata?.every((m) => m.partitions.every((p) => p.leader >= 0))) return;
        if (Date.now() > deadline) throw new Error('the topics have no leaders after 30 s');
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };
    const plainTopic = (topic: string, partitions: number): NewTopic => ({
      topic,
      partitions,
      replicationFactor: 1,
      configs: {},
    });

    beforeEach(async () => {
      ctx = new KafkaTestContext();
      harness = create();
      admin = harness.admin();
      await admin.connect();
    });

    afterEach(async () => {
      await admin.disconnect();
      await harness.close();
      await ctx.cleanup();
    });

    it('creates topics each with its own configs, and describes those configs', async () => {
      const changelog = topicName('store-changelog');
      const repartition = topicName('repartition');
      await createTopics([
        {
          topic: changelog,
          partitions: 3,
          replicationFactor: -1,
          configs: { 'cleanup.policy': 'compact', 'message.timestamp.type': 'CreateTime' },
        },
        {
          topic: repartition,
          partitions: 2,
          replicationFactor: 1,
          configs: { 'cleanup.policy': 'delete', 'retention.ms': '-1' },
        },
      ]);
      const names = ['cleanup.policy', 'retention.ms', 'message.timestamp.type'];
      const described = await admin.describeTopicConfigs([changelog, repartition], names);
      expect(described[0].topic).toBe(changelog);
      expect(described[0].configs['cleanup.policy']).toBe('compact');
      expect(described[0].configs['message.timestamp.type']).toBe('CreateTime');
      expect(Object.keys(described[0].configs).sort()).toEqual([...names].sort());
      expect(described[1]).toEqual({
        topic: repartition,
        configs: {
          'cleanup.policy': 'delete',
          'retention.ms': '-1',
          'message.timestamp.type': described[1].configs['message.timestamp.type'],
        },
      });
      expect(described[0].configs['retention.ms']).not.toBe('-1');
    });

    it('accepts topics that exist already, and leaves them as they are', async () => {
      const existing = topicName('existing');
      const fresh = topicName('fresh');
      await createTopics([plainTopic(existing, 2)]);
      await expect(admin.createTopics([plainTopic(existing, 5)])).resolves.toBeUndefined();
      await createTopics([plainTopic(existing, 4), plainTopic(fresh, 3)]);
      const metadata = await admin.fetchTopicMetadata([existing, fresh]);
      expect(metadata.map((m) => [m.name, m.partitions.length])).toEqual([
        [existing, 2],
        [fresh, 3],
      ]);
    });

    it('lists topics, and names each partition with its leader, in the order asked', async () => {
      const a = topicName('a');
      const b = topicName('b');
      await createTopics([plainTopic(a, 3), plainTopic(b, 1)]);
      const listed = await admin.listTopics();
      expect(listed).toEqual(expect.arrayContaining([a, b]));
      expect(listed).not.toContain(topicName('never-created'));

      const metadata = await admin.fetchTopicMetadata([b, a]);
      const node = leaderOf(metadata[0]);
      expect(node).toBeGreaterThanOrEqual(0);
      const partition = (p: number) => ({
        partition: p,
        leader: node,
        replicas: [node],
        isr: [node],
      });
      expect(metadata).toEqual([
        { name: b, partitions: [partition(0)] },
        { name: a, partitions: [partition(0), partition(1), partition(2)] },
      ]);
    });

    it('throws UnknownTopicError for the metadata, offsets and configs of a missing topic', async () => {
      const missing = topicName('missing');
      const error = await admin.fetchTopicMetadata([missing]).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UnknownTopicError);
      expect((error as UnknownTopicError).code).toBe('UNKNOWN_TOPIC_OR_PARTITION');
      await expect(admin.fetchTopicOffsets(missing)).rejects.toBeInstanceOf(UnknownTopicError);
      await expect(
        admin.describeTopicConfigs([missing], ['cleanup.policy']),
      ).rejects.toBeInstanceOf(UnknownTopicError);
      await expect(admin.fetchCommittedOffsets(groupName('g'), [missing])).rejects.toBeInstanceOf(
        UnknownTopicError,
      );
    }, 90_000);

    it('answers each partition’s log start and high watermark', async () => {
      const topic = topicName('offsets');
      await createTopics([plainTopic(topic, 3)]);
      // A new partition's leader answers ListOffsets a moment after the metadata names it: the
      // adapter types that answer, and the engine's fetchTopicOffsetsSettled waits it out.
      expect(await fetchTopicOffsetsSettled(admin, topic)).toEqual([
        { partition: 0, low: 0, high: 0 },
        { partition: 1, low: 0, high: 0 },
        { partition: 2, low: 0, high: 0 },
      ]);
      await harness.produce(topic, 0, 5);
      await harness.produce(topic, 2, 2);
      // The log start moves when records are deleted (retention, kafka-delete-records).
      const tool = await ctx.admin();
      await tool.fetchTopicMetadata({ topics: [topic] });
      await tool.deleteTopicRecords({ topic, partitions: [{ partition: 0, offset: '3' }] });
      expect(await admin.fetchTopicOffsets(topic)).toEqual([
        { partition: 0, low: 3, high: 5 },
        { partition: 1, low: 0, high: 0 },
        { partition: 2, low: 0, high: 2 },
      ]);
    });

    it('answers the offsets a group committed, leaving out partitions without one', async () => {
      const topic = topicName('committed');
      const other = topicName('other');
      await createTopics([plainTopic(topic, 3), plainTopic(other, 1)]);
      await harness.produce(topic, 0, 6);
      await harness.produce(topic, 2, 2);
      const group = groupName('committer');
      const leave = await harness.joinGroup(group, topic, { 0: 4, 2: 1 });
      await leave();
      expect(await admin.fetchCommittedOffsets(group, [other, topic])).toEqual([
        { topic, partition: 0, offset: 4 },
        { topic, partition: 2, offset: 1 },
      ]);
      expect(await admin.fetchCommittedOffsets(group, [other])).toEqual([]);
      expect(await admin.fetchCommittedOffsets(groupName('never-committed'), [topic])).toEqual([]);
    });

    it("waits for stable offsets with require_stable: a pending transaction's offsets once it ends", async () => {
      const topic = topicName('stable');
      await createTopics([plainTopic(topic, 2)]);
      const group = groupName('transactional');
      if (!admin.supportsRequireStable) {
        await expect(
          admin.fetchCommittedOffsets(group, [topic], { requireStable: true }),
        ).rejects.toThrow(/require_stable/);
        return;
      }
      // A transaction (by the kafkajs engine adapter: any transactional producer does) holds
      // offsets of partition 1 and stays open while the stable read runs.
      const producer = kafkajsRecordProducerFactory(testKafka(`${group}-tx`)).transactional(
        `${group}-tx`,
        60_000,
      );
      await producer.connect();
      try {
        await producer.beginTransaction();
        await producer.sendOffsetsToTransaction(
          [{ topic, partition: 1, offset: 42 }],
          groupOnlyMetadata(group),
        );
        // Not stable: answered at once, without the open transaction's offset.
        expect(await admin.fetchCommittedOffsets(group, [topic])).toEqual([]);
        // Stable, with too little time: the typed, retriable error.
        const started = Date.now();
        const unstable = await admin
          .fetchCommittedOffsets(group, [topic], { requireStable: true, timeoutMs: 600 })
          .catch((e: unknown) => e);
        expect(unstable).toBeInstanceOf(UnstableOffsetsError);
        expect(unstable).toMatchObject({
          code: 'UNSTABLE_OFFSET_COMMIT',
          retriable: true,
          groupId: group,
        });
        expect(Date.now() - started).toBeGreaterThanOrEqual(500);
        // Stable: waits for the commit, then answers with the transaction's offset.
        const stable = admin.fetchCommittedOffsets(group, [topic], { requireStable: true });
        let answered = false;
        void stable.then(() => (answered = true));
        await new Promise((resolve) => setTimeout(resolve, 500));
        expect(answered).toBe(false);
        await producer.commitTransaction();
        expect(await stable).toEqual([{ topic, partition: 1, offset: 42 }]);
      } finally {
        await producer.disconnect();
      }
    }, 60_000);

    it('lists groups, deletes an empty one with its offsets, and refuses a live or unknown one', async () => {
      const topic = topicName('groups');
      await createTopics([plainTopic(topic, 1)]);
      await harness.produce(topic, 0, 3);
      const empty = groupName('empty');
      await (
        await harness.joinGroup(empty, topic, { 0: 2 })
      )();
      const live = groupName('live');
      const leaveLive = await harness.joinGroup(live, topic);
      try {
        const groups = await admin.listGroups();
        expect(groups).toContainEqual({ groupId: empty, protocolType: 'consumer' });
        expect(groups).toContainEqual({ groupId: live, protocolType: 'consumer' });

        const refused = await admin.deleteGroups([live]).catch((e: unknown) => e);
        expect(refused).toBeInstanceOf(GroupNotDeletedError);
        expect(refused).toMatchObject({ groupId: live, reason: 'not-empty' });
      } finally {
        await leaveLive();
      }

      await admin.deleteGroups([empty]);
      expect((await admin.listGroups()).map((g) => g.groupId)).not.toContain(empty);
      expect(await admin.fetchCommittedOffsets(empty, [topic])).toEqual([]);

      const unknown = await admin.deleteGroups([empty]).catch((e: unknown) => e);
      expect(unknown).toBeInstanceOf(GroupNotDeletedError);
      expect(unknown).toMatchObject({ groupId: empty, reason: 'not-found' });
      await admin.deleteGroups([live]);
    }, 90_000);

    it('describes a stable group with its members, an empty one without, an unknown one as Dead', async () => {
      const topic = topicName('described');
      await createTopics([plainTopic(topic, 2)]);
      const group = groupName('described');
      const leave = await harness.joinGroup(group, topic);
      try {
        const stable = await admin.describeGroup(group);
        expect(stable.state).toBe('Stable');
        expect(stable.members).toHaveLength(1);
        expect(stable.members[0].memberId).toMatch(/.+/);
        expect(stable.members[0].groupInstanceId).toBeNull();
        expect(Buffer.isBuffer(stable.members[0].assignmentUserData)).toBe(true);
      } finally {
        await leave();
      }
      expect(await admin.describeGroup(group)).toEqual({ state: 'Empty', members: [] });
      expect(await admin.describeGroup(groupName('never'))).toEqual({
        state: 'Dead',
        members: [],
      });
      await admin.deleteGroups([group]);
    }, 90_000);

    it('throws BrokersUnreachableError when no broker answers', async () => {
      const unreachable = harness.unreachableAdmin('127.0.0.1:1');
      try {
        const error = await unreachable.connect().catch((e: unknown) => e);
        expect(error).toBeInstanceOf(BrokersUnreachableError);
        expect((error as BrokersUnreachableError).brokers).toEqual(['127.0.0.1:1']);
      } finally {
        await unreachable.disconnect().catch(() => undefined);
      }
    }, 60_000);
  });
}
