// StreamsGroupMember against the broker: joins, the KIP-1071 reconciliation rule between two
// members, fencing and rejoining, statuses, leaving, static membership.
import { randomUUID } from 'node:crypto';
import { Admin } from '@platformatic/kafka';
import { MissingSourceTopicError } from '../../../errors/missing-source-topic.error';
import { StreamsGroupCoordinator } from './streams-group-coordinator';
import type { StreamsGroupStatusOutcome } from './streams-group-errors';
import type { StreamsTopology } from './streams-group-heartbeat-request';
import { StreamsGroupMember } from './streams-group-member';
import { NO_TASKS, type StreamsTaskSet } from './streams-task-set';
import { brokers, KafkaTestContext } from '../../../../../../test/support/kafka-test-context';
import { waitFor } from '../../../../../../test/support/wait-for';
import { unchangedHeartbeat } from '../../../../test-support/streams-group-heartbeat.fixture';

jest.setTimeout(90_000);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const until = (what: string, check: () => boolean, timeoutMs = 30_000): Promise<void> =>
  waitFor(check, timeoutMs, what, { intervalMs: 50 });

/** One member and what it was told; `owned` is what it has applied. */
class Recorder {
  owned: StreamsTaskSet = NO_TASKS;
  epochs: number[] = [];
  lost: string[] = [];
  statuses: StreamsGroupStatusOutcome[][] = [];
  failures: Error[] = [];
  /** Called with the tasks about to be taken: throw to record an overlap. */
  onAcquire: (tasks: string[]) => void = () => undefined;
  revokeDelayMs = 0;
  member!: StreamsGroupMember;

  create(
    coordinator: StreamsGroupCoordinator,
    topology: () => StreamsTopology,
    instanceId: string | null = null,
    userEndpoint: { host: string; port: number } | null = { host: '127.0.0.1', port: 9000 },
  ): StreamsGroupMember {
    this.member = new StreamsGroupMember(
      coordinator,
      {
        topology,
        processId: randomUUID(),
        userEndpoint,
        clientTags: [],
        instanceId,
        rebalanceTimeoutMs: 30_000,
        heartbeatIntervalMs: 500,
      },
      {
        reconcile: async (epoch, tasks) => {
          this.epochs.push(epoch);
          const revoked = this.owned.active.filter((t) => !tasks.active.includes(t));
          if (revoked.length > 0) {
            await sleep(this.revokeDelayMs);
            this.owned = {
              ...this.owned,
              active: this.owned.active.filter((t) => !revoked.includes(t)),
            };
          }
          this.onAcquire(tasks.active.filter((t) => !this.owned.active.includes(t)));
          this.owned = tasks;
        },
        lost: async (reason) => {
          this.lost.push(reason);
          this.owned = NO_TASKS;
        },
        endpoints: () => undefined,
        statuses: (outcomes) => this.statuses.push([...outcomes]),
        failed: (error) => this.failures.push(error),
        taskOffsets: () => Promise.resolve({ offsets: [], endOffsets: [] }),
        shutdownRequested: () => false,
      },
    );
    return this.member;
  }
}

describe('StreamsGroupMember against the broker', () => {
  const context = new KafkaTestContext();
  let admin: Admin;
  let input: string;
  const members: StreamsGroupMember[] = [];

  const topologyOf =
    (groupId: string, source: string): (() => StreamsTopology) =>
    () => ({
      epoch: 0,
      subtopologies: [
        {
          subtopologyId: '0',
          sourceTopics: [source],
          sourceTopicRegex: [],
          stateChangelogTopics: [
            {
              name: `${groupId}-store-changelog`,
              partitions: 0,
              replicationFactor: 0,
              topicConfigs: [],
            },
          ],
          repartitionSinkTopics: [],
          repartitionSourceTopics: [],
          copartitionGroups: [],
        },
      ],
    });

  beforeAll(async () => {
    input = await context.createTopic(context.topicName('sgm-in'), 4);
    admin = new Admin({ clientId: 'streams-group-member-spec', bootstrapBrokers: brokers() });
  });

  afterEach(async () => {
    for (const m of members.splice(0)) await m.close();
  });

  afterAll(async () => {
    await admin.close();
    await context.cleanup();
  });

  function start(recorder: Recorder, groupId: string, instanceId: string | null = null) {
    const member = recorder.create(
      new StreamsGroupCoordinator(admin, groupId),
      topologyOf(groupId, input),
      instanceId,
    );
    members.push(member);
    return member.start();
  }

  it('splits the tasks between two members, the second taking a task only once the first released it', async () => {
    const groupId = `${context.applicationId}-split`;
    const a = new Recorder();
    const b = new Recorder();
    await start(a, groupId);
    await until('a owns every task', () => a.owned.active.length === 4);
    expect(a.owned.active).toEqual(['0_0', '0_1', '0_2', '0_3']);

    a.revokeDelayMs = 2000;
    const overlaps: string[] = [];
    b.onAcquire = (tasks) => overlaps.push(...tasks.filter((t) => a.owned.active.includes(t)));
    await start(b, groupId);
    await until(
      'both own two tasks',
      () => a.owned.active.length === 2 && b.owned.active.length === 2,
    );
    expect(overlaps).toEqual([]);
    expect([...a.owned.active, ...b.owned.active].sort()).toEqual(['0_0', '0_1', '0_2', '0_3']);
    expect(a.failures).toEqual([]);
    expect(b.failures).toEqual([]);

    // b leaves: a gets every task back.
    await b.member.close();
    await until('a owns every task again', () => a.owned.active.length === 4);
    expect(b.member.memberEpoch).toBe(-1);
  });

  it('rejoins at epoch 0 with the same member id when the group no longer knows it, its tasks lost', async () => {
    const groupId = `${context.applicationId}-fenced`;
    const a = new Recorder();
    await start(a, groupId);
    await until('a owns every task', () => a.owned.active.length === 4);
    // Another client makes the member leave behind its back.
    const coordinator = new StreamsGroupCoordinator(admin, groupId);
    const left = await coordinator.heartbeat(unchangedHeartbeat(groupId, a.member.memberId, -1));
    expect(left.errorCode).toBe(0);
    await until('a lost its tasks', () => a.lost.length === 1);
    expect(a.lost).toEqual(['UNKNOWN_MEMBER_ID']);
    await until('a owns every task after rejoining', () => a.owned.active.length === 4);
    const described = await coordinator.describe();
    expect(described.members.map((m) => m.memberId)).toEqual([a.member.memberId]);
    expect(a.failures).toEqual([]);
  });

  it('reports missing source topics as a fatal MissingSourceTopicError status', async () => {
    const groupId = `${context.applicationId}-missing`;
    const missing = context.topicName('absent');
    const a = new Recorder();
    // Without a user endpoint: see the next test.
    const member = a.create(
      new StreamsGroupCoordinator(admin, groupId),
      topologyOf(groupId, missing),
      null,
      null,
    );
    members.push(member);
    await member.start();
    await until('a status', () => a.statuses.length > 0);
    const outcome = a.statuses[0].find((o) => o.status.statusCode === 1);
    expect(outcome?.fatal).toBe(true);
    expect(outcome?.error).toBeInstanceOf(MissingSourceTopicError);
    expect((outcome?.error as MissingSourceTopicError).topics).toEqual([missing]);
    expect(a.owned).toEqual(NO_TASKS);
    expect(a.epochs).toEqual([]);
  });

  it('is refused (UNKNOWN_SERVER_ERROR, a 4.4.0 broker bug, retried for 2 s) when it joins with a user endpoint and a source topic is missing', async () => {
    const groupId = `${context.applicationId}-missing-endpoint`;
    const a = new Recorder();
    const member = a.create(
      new StreamsGroupCoordinator(admin, groupId),
      topologyOf(groupId, context.topicName('absent')),
    );
    await expect(member.start()).rejects.toMatchObject({
      code: 'STREAMS_GROUP_REJECTED',
      kafkaError: 'UNKNOWN_SERVER_ERROR',
    });
  });

  it('a static member leaves with epoch -2 and its successor with the same instance id gets its tasks', async () => {
    const groupId = `${context.applicationId}-static`;
    const a = new Recorder();
    await start(a, groupId, 'instance-1');
    await until('a owns every task', () => a.owned.active.length === 4);
    const coordinator = new StreamsGroupCoordinator(admin, groupId);
    expect((await coordinator.describe()).members.map((m) => m.instanceId)).toEqual(['instance-1']);
    await a.member.close();
    expect(a.member.memberEpoch).toBe(-2);
    // The broker keeps the static member, at epoch -2, with its tasks.
    const away = (await coordinator.describe()).members;
    expect(away.map((m) => [m.memberId, m.memberEpoch, m.instanceId])).toEqual([
      [a.member.memberId, -2, 'instance-1'],
    ]);
    expect(away[0].assignment.activeTasks).toEqual([
      { subtopologyId: '0', partitions: [0, 1, 2, 3] },
    ]);
    const b = new Recorder();
    await start(b, groupId, 'instance-1');
    await until('b owns every task', () => b.owned.active.length === 4);
    expect(b.failures).toEqual([]);
    const back = (await coordinator.describe()).members;
    expect(back.map((m) => [m.memberId, m.instanceId])).toEqual([
      [b.member.memberId, 'instance-1'],
    ]);
  });
});
