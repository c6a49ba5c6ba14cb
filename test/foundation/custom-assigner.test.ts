import { AssignerProtocol, Consumer, PartitionAssigner } from 'kafkajs';
import { KafkaTestContext } from '../support/kafka-test-context';

/** The host map the leader publishes to every member, as the cluster layer will. */
interface HostMap {
  [endpoint: string]: number[];
}

/**
 * A round-robin assigner whose subscription user data carries the member's endpoint and whose
 * assignment user data carries the whole host map (endpoint -> partitions).
 */
function hostMapAssigner(endpoint: string): PartitionAssigner {
  return ({ cluster }) => ({
    name: 'HostMapTestAssigner',
    version: 1,
    protocol: ({ topics }) => ({
      name: 'HostMapTestAssigner',
      metadata: AssignerProtocol.MemberMetadata.encode({
        version: 1,
        topics,
        userData: Buffer.from(JSON.stringify({ endpoint })),
      }),
    }),
    assign: async ({ members, topics }) => {
      const endpoints = members
        .map((m) => ({
          memberId: m.memberId,
          endpoint: (
            JSON.parse(
              AssignerProtocol.MemberMetadata.decode(m.memberMetadata)!.userData.toString(),
            ) as {
              endpoint: string;
            }
          ).endpoint,
        }))
        .sort((a, b) => a.endpoint.localeCompare(b.endpoint));
      const topic = topics[0];
      const partitions = cluster
        .findTopicPartitionMetadata(topic)
        .map((p) => p.partitionId)
        .sort((a, b) => a - b);
      const hostMap: HostMap = Object.fromEntries(
        endpoints.map((e) => [e.endpoint, [] as number[]]),
      );
      partitions.forEach((p, i) => hostMap[endpoints[i % endpoints.length].endpoint].push(p));
      const userData = Buffer.from(JSON.stringify(hostMap));
      return endpoints.map((e) => ({
        memberId: e.memberId,
        memberAssignment: AssignerProtocol.MemberAssignment.encode({
          version: 1,
          assignment: { [topic]: hostMap[e.endpoint] },
          userData,
        }),
      }));
    },
  });
}

async function stableGroup(consumer: Consumer, members: number) {
  for (let attempt = 0; attempt < 100; attempt++) {
    const group = await consumer.describeGroup();
    const assigned = group.members.filter((m) => m.memberAssignment.length > 0);
    if (
      group.state === 'Stable' &&
      group.members.length === members &&
      assigned.length === members
    ) {
      return group;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('group did not become stable');
}

describe('custom partition assigner with member user data', () => {
  const ctx = new KafkaTestContext();
  const consumers: Consumer[] = [];
  afterAll(async () => {
    await Promise.all(consumers.map((c) => c.disconnect()));
    await ctx.cleanup();
  });

  it('lets every member read every member endpoint and assignment back through describeGroup', async () => {
    const topic = await ctx.createTopic(ctx.topicName('assign'), 6);
    const groupId = `${ctx.applicationId}-group`;
    const endpoints = ['127.0.0.1:18081', '127.0.0.1:18082'];
    for (const endpoint of endpoints) {
      const consumer = ctx.kafka.consumer({
        groupId,
        partitionAssigners: [hostMapAssigner(endpoint)],
        sessionTimeout: 10_000,
        rebalanceTimeout: 10_000,
        heartbeatInterval: 500,
      });
      await consumer.connect();
      await consumer.subscribe({ topics: [topic], fromBeginning: true });
      await consumer.run({ eachMessage: async () => undefined });
      consumers.push(consumer);
    }

    const expectedHostMap: HostMap = { '127.0.0.1:18081': [0, 2, 4], '127.0.0.1:18082': [1, 3, 5] };
    for (const consumer of consumers) {
      const group = await stableGroup(consumer, 2);
      expect(group.protocol).toBe('HostMapTestAssigner');
      const seen = group.members.map((m) => {
        const metadata = AssignerProtocol.MemberMetadata.decode(m.memberMetadata)!;
        const assignment = AssignerProtocol.MemberAssignment.decode(m.memberAssignment)!;
        return {
          endpoint: (JSON.parse(metadata.userData.toString()) as { endpoint: string }).endpoint,
          partitions: assignment.assignment[topic],
          hostMap: JSON.parse(assignment.userData.toString()) as HostMap,
        };
      });
      seen.sort((a, b) => a.endpoint.localeCompare(b.endpoint));
      expect(seen).toEqual([
        { endpoint: endpoints[0], partitions: [0, 2, 4], hostMap: expectedHostMap },
        { endpoint: endpoints[1], partitions: [1, 3, 5], hostMap: expectedHostMap },
      ]);
    }
  });
});
