// The 4.x broker's answers to our StreamsGroupHeartbeat and StreamsGroupDescribe (v0).
import { randomUUID } from 'node:crypto';
import { Admin } from '@platformatic/kafka';
import { StreamsGroupCoordinator } from './streams-group-coordinator';
import type { StreamsGroupHeartbeatRequest } from './streams-group-heartbeat-request';
import type { StreamsGroupHeartbeatResponse } from './streams-group-heartbeat-response';
import { brokers, KafkaTestContext } from '../../../../../../test/support/kafka-test-context';

jest.setTimeout(60_000);

describe('StreamsGroupHeartbeat v0 against the broker', () => {
  const context = new KafkaTestContext();
  const groupId = context.applicationId;
  let admin: Admin;
  let input: string;

  beforeAll(async () => {
    input = await context.createTopic(context.topicName('sgh-in'), 2);
    admin = new Admin({ clientId: 'streams-group-spec', bootstrapBrokers: brokers() });
  });

  afterAll(async () => {
    await admin.close();
    await context.cleanup();
  });

  function join(memberId: string): StreamsGroupHeartbeatRequest {
    return {
      groupId,
      memberId,
      memberEpoch: 0,
      endpointInformationEpoch: 0,
      instanceId: null,
      rackId: null,
      rebalanceTimeoutMs: 30_000,
      topology: {
        epoch: 1,
        subtopologies: [
          {
            subtopologyId: '0',
            sourceTopics: [input],
            sourceTopicRegex: [],
            stateChangelogTopics: [
              {
                name: `${groupId}-counts-changelog`,
                partitions: 0,
                replicationFactor: 0,
                topicConfigs: [{ key: 'cleanup.policy', value: 'compact' }],
              },
            ],
            repartitionSinkTopics: [],
            repartitionSourceTopics: [],
            copartitionGroups: [],
          },
        ],
      },
      activeTasks: [],
      standbyTasks: [],
      warmupTasks: [],
      processId: randomUUID(),
      userEndpoint: { host: '127.0.0.1', port: 8080 },
      clientTags: [],
      taskOffsets: [],
      taskEndOffsets: [],
      shutdownApplication: false,
    };
  }

  /** A heartbeat of a member that joined, at `memberEpoch`: topology and endpoint not sent again. */
  function joined(memberId: string, memberEpoch: number): StreamsGroupHeartbeatRequest {
    return {
      ...join(memberId),
      memberEpoch,
      topology: null,
      processId: null,
      userEndpoint: null,
      rebalanceTimeoutMs: -1,
    };
  }

  it('answers a join (epoch 0 with the topology) with the member id, an epoch and every task', async () => {
    const coordinator = new StreamsGroupCoordinator(admin, groupId);
    const memberId = randomUUID();
    // As the engine does: a 4.4.0 broker answers UNKNOWN_SERVER_ERROR (-1) while the new source
    // topic is missing from its metadata (streamsGroupErrorAction: retry).
    let first = await coordinator.heartbeat(join(memberId));
    for (let tries = 0; first.errorCode === -1 && tries < 50; tries++) {
      await new Promise((r) => setTimeout(r, 200));
      first = await coordinator.heartbeat(join(memberId));
    }
    expect(first.errorCode).toBe(0);
    expect(first.memberId).toBe(memberId);
    expect(first.memberEpoch).toBeGreaterThan(0);
    expect(first.heartbeatIntervalMs).toBeGreaterThan(0);

    // The broker may create the changelog first (MISSING_INTERNAL_TOPICS) and assign once the
    // group is ready: heartbeat (reporting nothing owned) until the tasks come.
    let response: StreamsGroupHeartbeatResponse = first;
    const seen: StreamsGroupHeartbeatResponse[] = [first];
    const deadline = Date.now() + 30_000;
    while (!response.activeTasks?.length && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
      response = await coordinator.heartbeat(joined(memberId, response.memberEpoch));
      expect(response.errorCode).toBe(0);
      seen.push(response);
    }
    expect(response.activeTasks).toEqual([{ subtopologyId: '0', partitions: [0, 1] }]);
    expect(response.standbyTasks).toEqual([]);
    expect(response.warmupTasks).toEqual([]);
    // Until then the statuses say why: the changelog is missing (3, the coordinator creates it)
    // and the assignment waits for the initial rebalance delay (5, ASSIGNMENT_DELAYED, 4.4).
    const codes = new Set(seen.flatMap((r) => (r.status ?? []).map((s) => s.statusCode)));
    expect([...codes].every((c) => c === 3 || c === 5)).toBe(true);
    expect(seen[0].status?.map((s) => s.statusCode)).toContain(3);
    expect(response.status).toEqual([]);
    expect(response.endpointInformationEpoch).toBeGreaterThan(0);

    // Acknowledge the tasks: the routing map names this member's endpoint with its partitions.
    const acked = await coordinator.heartbeat({
      ...joined(memberId, response.memberEpoch),
      activeTasks: [{ subtopologyId: '0', partitions: [0, 1] }],
    });
    expect(acked.errorCode).toBe(0);
    const endpoints = acked.partitionsByUserEndpoint ?? response.partitionsByUserEndpoint;
    expect(endpoints?.map((e) => e.userEndpoint)).toEqual([{ host: '127.0.0.1', port: 8080 }]);
    expect(endpoints?.[0].activePartitions).toEqual(
      expect.arrayContaining([{ topic: input, partitions: [0, 1] }]),
    );

    const described = await coordinator.describe();
    expect(described.errorCode).toBe(0);
    expect(described.groupState).toBe('Stable');
    expect(
      described.topology?.subtopologies?.map((s) => [s.subtopologyId, s.sourceTopics]),
    ).toEqual([['0', [input]]]);
    expect(described.topology?.subtopologies?.[0].stateChangelogTopics).toEqual([
      {
        name: `${groupId}-counts-changelog`,
        partitions: 2,
        replicationFactor: expect.any(Number) as number,
        topicConfigs: expect.arrayContaining([
          { key: 'cleanup.policy', value: 'compact' },
        ]) as never,
      },
    ]);
    expect(described.members.map((m) => [m.memberId, m.userEndpoint])).toEqual([
      [memberId, { host: '127.0.0.1', port: 8080 }],
    ]);
    expect(described.members[0].assignment.activeTasks).toEqual([
      { subtopologyId: '0', partitions: [0, 1] },
    ]);

    const left = await coordinator.heartbeat({
      ...join(memberId),
      memberEpoch: -1,
      topology: null,
      activeTasks: null,
      standbyTasks: null,
      warmupTasks: null,
    });
    expect(left.errorCode).toBe(0);
    expect(left.memberEpoch).toBe(-1);
  });

  it('answers a heartbeat of an unknown member with UNKNOWN_MEMBER_ID (25)', async () => {
    const coordinator = new StreamsGroupCoordinator(admin, groupId);
    const response = await coordinator.heartbeat({
      ...join(randomUUID()),
      memberEpoch: 5,
      topology: null,
    });
    expect(response.errorCode).toBe(25);
  });
});
