/**
 * A broker hung (SIGSTOP) while the controller moved its leaderships away answers, the moment it
 * resumes, the requests queued at it, from its log as it was: kafkajs' own
 * `admin.fetchTopicOffsets` then gives a high watermark from before the hang. On a three-node
 * cluster of its own, each client's cluster admin (as the engine makes it) must answer the new
 * leader's high watermark exactly. The same for a group's committed offsets when the hung
 * broker coordinated the group, and for the coordinator a member's heartbeat answer came from.
 */
import { Admin } from '@platformatic/kafka';
import type { Kafka } from './kafkajs/kafkajs';
import { KafkaCluster } from '../../../../test/support/kafka-cluster';
import type { StreamsLogger } from '../logging/logger';
import { DEFAULT_CLUSTER_RETRY_SETTINGS } from './cluster-retry/cluster-retry-settings';
import type { ClusterAdmin } from './cluster-admin';
import { createKafkaClientAdapters } from './kafka-client';
import type { KafkaClientName } from './kafka-client-settings';
import { fetchTopicOffsetsSettled } from './topic-admin';
import { KafkajsConfirmedReads } from './kafkajs/kafkajs-confirmed-reads';
import { PlatformaticConfirmedReads } from './platformatic/platformatic-confirmed-reads';
import { GroupCoordinatorUnconfirmedError } from '../errors/internals/group-coordinator-unconfirmed.error';

jest.setTimeout(240_000);

const quiet: StreamsLogger = { error() {}, warn() {}, info() {}, debug() {} };
let cluster: KafkaCluster;

beforeAll(async () => {
  cluster = await KafkaCluster.start(3);
}, 300_000);

afterAll(async () => {
  await cluster?.destroy();
});

/**
 * Sends `count` records to partition 0 and resolves with the offset after them. kafkajs'
 * producer can resolve a send without a partition whose leader it could not find (its metadata
 * of a moment when the partition had none): such a send is made again.
 */
async function produce(
  kafka: Kafka,
  topic: string,
  prefix: string,
  count: number,
): Promise<number> {
  const producer = kafka.producer();
  await producer.connect();
  try {
    for (;;) {
      const sent = await producer.send({
        topic,
        acks: -1,
        messages: Array.from({ length: count }, (_, i) => ({
          value: `${prefix}${i}`,
          partition: 0,
        })),
      });
      const written = sent.find((r) => r.partition === 0 && r.errorCode === 0);
      if (written?.baseOffset !== undefined) return Number(written.baseOffset) + count;
    }
  } finally {
    await producer.disconnect();
  }
}

async function until(what: string, condition: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!(await condition().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** The cluster admin the engine makes for `client`, the victim its first bootstrap broker. */
function engineAdmin(
  client: KafkaClientName,
  victim: number,
  others: readonly number[],
): ClusterAdmin {
  return createKafkaClientAdapters(
    {
      ...DEFAULT_CLUSTER_RETRY_SETTINGS,
      kafkaClient: client,
      clientId: 'hung-broker-test',
      // The victim first: platformatic asks its metadata and coordinators of the first
      // bootstrap broker that answers.
      bootstrapServers: [victim, ...others].map((id) => cluster.address(id)),
      checkCrcs: true,
      groupProtocol: 'classic',
    },
    quiet,
  ).clusterAdmin();
}

describe.each<KafkaClientName>(['kafkajs', '@platformatic/kafka'])(
  'offsets of a leader hung while its leadership moved (%s)',
  (client) => {
    it("answers the new leader's high watermark, not the one the hung broker answers as it resumes", async () => {
      const victim = cluster.nodeIds[2];
      const others = cluster.nodeIds.filter((id) => id !== victim);
      const topic = `hung-leader-${client.replace(/\W/g, '')}-${Date.now()}`;
      const kafka = cluster.kafka('hung-leader-test');
      const setup = kafka.admin();
      await setup.connect();
      let admin: ClusterAdmin | undefined;
      try {
        await setup.createTopics({
          topics: [
            {
              topic,
              replicaAssignment: [{ partition: 0, replicas: [victim, ...others] }],
              configEntries: [{ name: 'min.insync.replicas', value: '2' }],
            },
          ],
        });
        await until(
          'the victim leading',
          async () => (await cluster.leaderOf(topic, 0)) === victim,
        );
        expect(await produce(kafka, topic, 'before-', 100)).toBe(100);
        admin = engineAdmin(client, victim, others);
        await admin.connect();
        // The admin now knows the victim as the leader.
        expect(await fetchTopicOffsetsSettled(admin, topic)).toEqual([
          { partition: 0, low: 0, high: 100 },
        ]);

        await cluster.stop(victim);
        await until('another leader', async () => {
          const leader = await cluster.leaderOf(topic, 0);
          return leader >= 0 && leader !== victim;
        });
        expect(await produce(kafka, topic, 'during-', 100)).toBe(200);
        // Sent while the victim is hung: kafkajs' metadata still names it the leader.
        const asked = fetchTopicOffsetsSettled(admin, topic, 60_000);
        await new Promise((r) => setTimeout(r, 2_000));
        await cluster.resume(victim);

        expect(await asked).toEqual([{ partition: 0, low: 0, high: 200 }]);
      } finally {
        if (cluster.nodeState(victim) === 'stopped') await cluster.resume(victim);
        await admin?.disconnect();
        await setup.deleteTopics({ topics: [topic] }).catch(() => undefined);
        await setup.disconnect();
        await cluster.waitForFullIsr();
      }
    });
  },
);

describe.each<KafkaClientName>(['kafkajs', '@platformatic/kafka'])(
  'committed offsets of a coordinator hung while the coordination moved (%s)',
  (client) => {
    it('answers what the new coordinator holds, not what the hung broker answers as it resumes', async () => {
      const topic = `hung-coordinator-${client.replace(/\W/g, '')}-${Date.now()}`;
      const groupId = `${topic}-group`;
      // The group's coordinator hangs (a node that led nothing before may lead nothing now).
      const victim = await cluster.groupCoordinatorOf(groupId);
      const others = cluster.nodeIds.filter((id) => id !== victim);
      const kafka = cluster.kafka('hung-coordinator-test');
      const setup = kafka.admin();
      await setup.connect();
      let admin: ClusterAdmin | undefined;
      try {
        await setup.createTopics({ topics: [{ topic, numPartitions: 2, replicationFactor: 3 }] });
        await setup.setOffsets({ groupId, topic, partitions: [{ partition: 0, offset: '5' }] });
        admin = engineAdmin(client, victim, others);
        await admin.connect();
        expect(await admin.fetchCommittedOffsets(groupId, [topic])).toEqual([
          { topic, partition: 0, offset: 5 },
        ]);

        await cluster.stop(victim);
        await until('another coordinator', async () => {
          const coordinator = await cluster.groupCoordinatorOf(groupId);
          return coordinator >= 0 && coordinator !== victim;
        });
        // Committed through a running broker: kafkajs' admin waits on a broker it knows that hangs.
        const mover = new Admin({
          clientId: 'hung-coordinator-mover',
          bootstrapBrokers: others.map((id) => cluster.address(id)),
        });
        try {
          await mover.alterConsumerGroupOffsets({
            groupId,
            topics: [
              {
                name: topic,
                partitionOffsets: [
                  { partition: 0, offset: 9n },
                  { partition: 1, offset: 2n },
                ],
              },
            ],
          });
        } finally {
          await mover.close();
        }
        // Sent while the victim is hung, which coordinated the group until it was fenced.
        const asked = admin.fetchCommittedOffsets(groupId, [topic]);
        await new Promise((r) => setTimeout(r, 2_000));
        await cluster.resume(victim);

        expect(await asked).toEqual([
          { topic, partition: 0, offset: 9 },
          { topic, partition: 1, offset: 2 },
        ]);
      } finally {
        if (cluster.nodeState(victim) === 'stopped') await cluster.resume(victim);
        await admin?.disconnect();
        await setup.deleteGroups([groupId]).catch(() => undefined);
        await setup.deleteTopics({ topics: [topic] }).catch(() => undefined);
        await setup.disconnect();
        await cluster.waitForFullIsr();
      }
    });
  },
);

/** The adapter's check of the broker that answered a heartbeat, as `nodeId` names it. */
interface HeartbeatCheck {
  confirm(groupId: string, nodeId: number): Promise<void>;
  close(): Promise<void>;
}

function heartbeatCheck(client: KafkaClientName, bootstrap: readonly number[]): HeartbeatCheck {
  const brokers = bootstrap.map((id) => cluster.address(id));
  if (client === 'kafkajs') {
    // kafkajs names the broker that answered by its address (its request events).
    const reads = KafkajsConfirmedReads.of(cluster.kafka('hung-heartbeat-test'))!;
    return {
      confirm: (groupId, nodeId) => reads.confirmGroupCoordinator(groupId, cluster.address(nodeId)),
      close: () => reads.disconnect(),
    };
  }
  const admin = new Admin({ clientId: 'hung-heartbeat-test', bootstrapBrokers: brokers });
  const reads = new PlatformaticConfirmedReads(admin);
  return {
    confirm: (groupId, nodeId) => reads.confirmGroupCoordinator(groupId, nodeId),
    close: () => admin.close(),
  };
}

describe.each<KafkaClientName>(['kafkajs', '@platformatic/kafka'])(
  'the coordinator that answered a heartbeat, hung while the coordination moved (%s)',
  (client) => {
    it('is refused while the other brokers name the new coordinator, which is confirmed; the hung one holds nothing up', async () => {
      const topic = `hung-heartbeat-${client.replace(/\W/g, '')}-${Date.now()}`;
      const groupId = `${topic}-group`;
      const kafka = cluster.kafka('hung-heartbeat-setup');
      const setup = kafka.admin();
      await setup.connect();
      await setup.createTopics({ topics: [{ topic, numPartitions: 1, replicationFactor: 3 }] });
      await setup.setOffsets({ groupId, topic, partitions: [{ partition: 0, offset: '1' }] });
      const victim = await cluster.groupCoordinatorOf(groupId);
      const others = cluster.nodeIds.filter((id) => id !== victim);
      const check = heartbeatCheck(client, [victim, ...others]);
      try {
        await expect(check.confirm(groupId, victim)).resolves.toBeUndefined();
        const other = others[0];
        const refused = check.confirm(groupId, other);
        await expect(refused).rejects.toThrow(GroupCoordinatorUnconfirmedError);
        await expect(refused).rejects.toThrow(
          client === 'kafkajs'
            ? `COORDINATOR_MOVED_WHILE_ASKED: answered by ${cluster.address(other)}, coordinated by node ${victim}`
            : `COORDINATOR_MOVED_WHILE_ASKED: answered by node ${other}, coordinated by node ${victim}`,
        );

        await cluster.stop(victim);
        let moved = -1;
        await until('another coordinator', async () => {
          moved = await cluster.groupCoordinatorOf(groupId);
          return moved >= 0 && moved !== victim;
        });
        // The hung former coordinator would still name itself: its answer is not asked.
        await expect(check.confirm(groupId, victim)).rejects.toThrow(
          /COORDINATOR_MOVED_WHILE_ASKED: answered by .*, coordinated by node /,
        );
        await until('the new coordinator confirmed', async () => {
          await check.confirm(groupId, moved);
          return true;
        });
      } finally {
        if (cluster.nodeState(victim) === 'stopped') await cluster.resume(victim);
        await check.close();
        await setup.deleteGroups([groupId]).catch(() => undefined);
        await setup.deleteTopics({ topics: [topic] }).catch(() => undefined);
        await setup.disconnect();
        await cluster.waitForFullIsr();
      }
    });
  },
);
