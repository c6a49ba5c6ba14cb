// The streams-protocol GroupConsumer against the broker, with a listener that applies each
// assignment as the stream thread does (resumes the input once applied).
import { randomUUID } from 'node:crypto';
import { Admin } from '@platformatic/kafka';
import {
  decodeInfo,
  encodeInfo,
  type AssignmentInfo,
  type SubscriptionInfo,
} from '../../cluster/internals/assignment-info';
import type { GroupConsumer, GroupConsumerStart, StreamsGroupSpec } from '../group-consumer';
import { PlatformaticClusterAdmin } from './platformatic-cluster-admin';
import { platformaticStreamsGroupConsumerFactory } from './platformatic-streams-group-consumer';
import { brokers, KafkaTestContext } from '../../../../../test/support/kafka-test-context';
import { waitFor } from '../../../../../test/support/wait-for';

jest.setTimeout(90_000);

const until = (what: string, check: () => boolean, timeoutMs = 30_000): Promise<void> =>
  waitFor(check, timeoutMs, what, { intervalMs: 50 });

/** One member and what the engine would have seen. */
interface Member {
  readonly consumer: GroupConsumer;
  readonly processId: string;
  readonly infos: AssignmentInfo[];
  readonly generations: number[];
  readonly records: string[];
  revoking: number;
  /** Tasks owned (applied), as the thread would run them. */
  owned: readonly string[];
}

describe('PlatformaticStreamsGroupConsumer against the broker', () => {
  const context = new KafkaTestContext();
  let input: string;
  const members: Member[] = [];
  const groupId = `${context.applicationId}-adapter`;
  const spec: StreamsGroupSpec = {
    subtopologies: () => [
      {
        id: '0',
        sourceTopics: [input],
        repartitionSourceTopics: [],
        repartitionSinkTopics: [],
        changelogTopics: [
          { name: `${groupId}-store-changelog`, configs: { 'cleanup.policy': 'compact' } },
        ],
        copartitionGroups: [],
      },
    ],
    taskEndOffsetSums: () => Promise.resolve({}),
  };

  beforeAll(async () => {
    input = await context.createTopic(context.topicName('sgc-in'), 4);
    const producer = context.kafka.producer();
    await producer.connect();
    await producer.send({
      topic: input,
      messages: [0, 1, 2, 3].map((p) => ({ partition: p, key: `k${p}`, value: `v${p}` })),
    });
    await producer.disconnect();
  });

  afterAll(async () => {
    for (const m of members) await m.consumer.close();
    await context.cleanup();
  });

  async function start(port: number): Promise<Member> {
    const processId = randomUUID();
    const subscription: SubscriptionInfo = {
      version: 1,
      processId,
      endpoint: `127.0.0.1:${port}`,
      queryEndpoint: `127.0.0.1:${port + 10_000}`,
      taskOffsetSums: {},
      previousActive: [],
    };
    const consumer = platformaticStreamsGroupConsumerFactory({
      clientId: 'streams-group-consumer-spec',
      bootstrapBrokers: brokers(),
    })({
      groupId,
      assignor: {
        name: 'unused',
        subscriptionUserData: () => encodeInfo(subscription),
        assign: () => Promise.reject(new Error('the broker assigns')),
      },
      sessionTimeoutMs: 6000,
      heartbeatIntervalMs: 1000,
      rebalanceTimeoutMs: 20_000,
      maxWaitTimeMs: 100,
      rebalanceProtocol: 'cooperative',
      streamsGroup: spec,
    });
    const member: Member = {
      consumer,
      processId,
      infos: [],
      generations: [],
      records: [],
      revoking: 0,
      owned: [],
    };
    const listener: GroupConsumerStart['listener'] = {
      onRebalancing: () => undefined,
      onRevoking: async () => void member.revoking++,
      onAssigned: async (assignment) => {
        consumer.pause(assignment.partitions);
        const info = decodeInfo<AssignmentInfo>(await assignment.userData());
        member.infos.push(info);
        member.generations.push(assignment.generationId);
        member.owned = info.active;
        consumer.resume(assignment.partitions);
      },
      onLost: async () => undefined,
      onFetch: () => undefined,
      onFailed: (error) => {
        throw error;
      },
    };
    await consumer.start({
      topics: [input],
      listener,
      handleBatch: async (batch) => {
        for (const r of batch.records) member.records.push(`${r.partition}:${String(r.value)}`);
        return true;
      },
    });
    members.push(member);
    return member;
  }

  it('assigns every task to one member, fetches them, commits with its epoch, then splits them with a second member', async () => {
    const a = await start(7001);
    await until('a runs every task', () => a.owned.length === 4);
    await until('a fetched every record', () => a.records.length === 4);
    expect([...a.records].sort()).toEqual(['0:v0', '1:v1', '2:v2', '3:v3']);
    const first = a.infos[a.infos.length - 1];
    expect(first.active).toEqual(['0_0', '0_1', '0_2', '0_3']);
    expect(first.processId).toBe(a.processId);
    expect(a.consumer.groupMetadata()).toEqual({
      groupId,
      memberId: expect.any(String) as string,
      generationId: a.generations[a.generations.length - 1],
      groupInstanceId: null,
    });

    await a.consumer.commitOffsets([{ topic: input, partition: 2, offset: 1 }]);
    const admin = new PlatformaticClusterAdmin(
      new Admin({ clientId: 'streams-group-consumer-spec', bootstrapBrokers: brokers() }),
      brokers(),
    );
    await admin.connect();
    const committed = await admin.fetchCommittedOffsets(groupId, [input]);
    expect(committed.filter((c) => c.offset >= 0)).toEqual([
      { topic: input, partition: 2, offset: 1 },
    ]);
    await admin.disconnect();

    const b = await start(7002);
    await until('the tasks split 2/2', () => a.owned.length === 2 && b.owned.length === 2);
    // a committed (onRevoking) before giving tasks up.
    expect(a.revoking).toBeGreaterThan(0);
    expect([...a.owned, ...b.owned].sort()).toEqual(['0_0', '0_1', '0_2', '0_3']);
    // b fetched its tasks from the committed offsets (partition 2 from 1: nothing left there).
    await until('b fetched', () => b.records.length >= 1);
    expect(b.records.every((r) => b.owned.includes(`0_${r.split(':')[0]}`))).toBe(true);
    expect(b.records).not.toContain('2:v2');

    // Both host maps converge on the same owners, with process ids and query endpoints.
    const hostsOf = (m: Member) =>
      (m.infos[m.infos.length - 1]?.hosts ?? [])
        .map((h) => [h.processId, h.endpoint, h.queryEndpoint, [...h.active].sort()])
        .sort((x, y) => String(x[1]).localeCompare(String(y[1])));
    const expected = () => [
      [a.processId, '127.0.0.1:7001', '127.0.0.1:17001', [...a.owned].sort()],
      [b.processId, '127.0.0.1:7002', '127.0.0.1:17002', [...b.owned].sort()],
    ];
    await until(
      'both host maps agree',
      () =>
        JSON.stringify(hostsOf(a)) === JSON.stringify(expected()) &&
        JSON.stringify(hostsOf(b)) === JSON.stringify(expected()),
    );
  });
});
