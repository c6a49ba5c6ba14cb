import { GroupCoordinatorUnconfirmedError } from '../../errors/internals/group-coordinator-unconfirmed.error';
import { PartitionLeaderNotAvailableError } from '../../errors/internals/partition-leader-not-available.error';
import type { KafkajsCluster, KafkajsPartitionMetadata } from './kafkajs-cluster';
import { KafkajsConfirmedReads, type ConfirmedReadsBroker } from './kafkajs-confirmed-reads';

/** What one fake broker answers. */
interface FakeNode {
  /** partition -> [log start, high watermark] this node answers ListOffsets with. */
  offsets?: Record<number, [number, number]>;
  /** partition -> leader, as this node's metadata names it; 'hang' never answers, 'fail' rejects. */
  leaders?: Record<number, number> | 'hang' | 'fail';
  /** The group coordinator this node names (it names none when absent). */
  coordinator?: number;
  /** topic -> partition -> committed offset this node answers OffsetFetch with. */
  committed?: Record<string, Record<number, number>>;
}

/**
 * A kafkajs cluster of fake brokers, its metadata naming `leaders` (partition -> node), the
 * group coordinator found `coordinator` (node).
 */
function fakeCluster(
  leaders: Record<number, number>,
  nodes: Record<number, FakeNode>,
  coordinator = 1,
) {
  const calls: string[] = [];
  const broker = (nodeId: number): ConfirmedReadsBroker => ({
    nodeId,
    brokerAddress: `127.0.0.1:${9090 + nodeId}`,
    offsetFetch: async ({ topics }) => {
      calls.push(`offsetFetch@${nodeId}`);
      const { committed = {} } = nodes[nodeId];
      return {
        responses: topics.map(({ topic, partitions }) => ({
          topic,
          partitions: partitions.map(({ partition }) => ({
            partition,
            offset: String(committed[topic]?.[partition] ?? -1),
          })),
        })),
      };
    },
    findGroupCoordinator: async () => {
      calls.push(`findGroupCoordinator@${nodeId}`);
      const named = nodes[nodeId].coordinator;
      if (named === undefined) throw new Error(`node ${nodeId} names no coordinator`);
      return { coordinator: { nodeId: named, host: '127.0.0.1', port: 9090 + named } };
    },
    listOffsets: async ({ topics }) => {
      const { offsets = {} } = nodes[nodeId];
      const [{ topic, partitions }] = topics;
      calls.push(`listOffsets@${nodeId}:${partitions[0].timestamp}`);
      return {
        responses: [
          {
            topic,
            partitions: partitions.map(({ partition, timestamp }) => ({
              partition,
              offset: String(offsets[partition][timestamp === -2 ? 0 : 1]),
            })),
          },
        ],
      };
    },
    metadata: async ([topic]) => {
      calls.push(`metadata@${nodeId}`);
      const named = nodes[nodeId].leaders;
      if (named === 'hang') return new Promise(() => {});
      if (named === undefined || named === 'fail') throw new Error(`node ${nodeId} failed`);
      return {
        topicMetadata: [
          {
            topic,
            partitionMetadata: Object.entries(named).map(([p, leader]) => ({
              partitionId: Number(p),
              leader,
            })),
          },
        ],
      };
    },
  });
  const partitionMetadata = (): KafkajsPartitionMetadata[] =>
    Object.entries(leaders).map(([p, leader]) => ({
      partitionId: Number(p),
      leader,
      replicas: [],
      isr: [],
    }));
  const cluster: KafkajsCluster<ConfirmedReadsBroker> = {
    connect: async () => {},
    disconnect: async () => {},
    addTargetTopic: async () => {},
    addMultipleTargetTopics: async () => {},
    refreshMetadata: async () => {
      calls.push('refreshMetadata');
    },
    refreshMetadataIfNecessary: async () => {},
    findTopicPartitionMetadata: () => partitionMetadata(),
    findLeaderForPartitions: () => ({}),
    getNodeIds: () => Object.keys(nodes), // strings, as kafkajs' are
    findBroker: async ({ nodeId }) => broker(Number(nodeId)),
    findGroupCoordinator: async () => broker(coordinator),
  };
  return { offsets: new KafkajsConfirmedReads(() => cluster), calls };
}

describe('KafkajsConfirmedReads', () => {
  it("reads each partition's offsets from its leader, confirmed by a broker that did not answer", async () => {
    const { offsets, calls } = fakeCluster(
      { 0: 3, 1: 1 },
      {
        1: { offsets: { 1: [5, 40] } },
        2: { leaders: { 0: 3, 1: 1 } },
        3: { offsets: { 0: [0, 200] } },
      },
    );
    await expect(offsets.fetchTopicOffsets('t')).resolves.toEqual([
      { partition: 0, low: 0, high: 200 },
      { partition: 1, low: 5, high: 40 },
    ]);
    expect(calls.filter((c) => c.startsWith('metadata'))).toEqual(['metadata@2']);
    expect(calls.filter((c) => c.startsWith('listOffsets')).sort()).toEqual([
      'listOffsets@1:-1',
      'listOffsets@1:-2',
      'listOffsets@3:-1',
      'listOffsets@3:-2',
    ]);
  });

  it('refuses the answer of a broker another broker no longer names the leader, then asks the metadata again', async () => {
    const { offsets, calls } = fakeCluster(
      { 0: 3 },
      {
        1: { leaders: { 0: 1 } },
        2: { leaders: { 0: 1 } },
        3: { offsets: { 0: [0, 100] } },
      },
    );
    const refused = offsets.fetchTopicOffsets('t');
    await expect(refused).rejects.toThrow(PartitionLeaderNotAvailableError);
    await expect(refused).rejects.toThrow(
      'LEADER_MOVED_WHILE_ASKED: partition(s) 0 (answered by node 3, led by node 1)',
    );
    expect(calls).not.toContain('refreshMetadata');
    await offsets.fetchTopicOffsets('t').catch(() => undefined);
    expect(calls).toContain('refreshMetadata');
  });

  it('is not held up by a hung broker among those it asks to confirm', async () => {
    const { offsets } = fakeCluster(
      { 0: 1 },
      {
        1: { offsets: { 0: [0, 9] } },
        2: { leaders: 'hang' },
        3: { leaders: 'fail' },
        4: { leaders: { 0: 1 } },
      },
    );
    await expect(offsets.fetchTopicOffsets('t')).resolves.toEqual([
      { partition: 0, low: 0, high: 9 },
    ]);
  });

  it('fails retriably when no other broker answers its metadata', async () => {
    const { offsets } = fakeCluster(
      { 0: 1 },
      { 1: { offsets: { 0: [0, 9] } }, 2: { leaders: 'fail' }, 3: { leaders: 'fail' } },
    );
    await expect(offsets.fetchTopicOffsets('t')).rejects.toThrow(
      'UNCONFIRMED: no broker other than node(s) 1 answered',
    );
  });

  it('asks nobody else on a cluster of one broker', async () => {
    const { offsets, calls } = fakeCluster(
      { 0: 1, 1: 1 },
      { 1: { offsets: { 0: [0, 3], 1: [1, 4] } } },
    );
    await expect(offsets.fetchTopicOffsets('t')).resolves.toEqual([
      { partition: 0, low: 0, high: 3 },
      { partition: 1, low: 1, high: 4 },
    ]);
    expect(calls.some((c) => c.startsWith('metadata'))).toBe(false);
  });

  it('fails retriably, asking no broker, while a partition has no leader or the metadata no partition', async () => {
    const leaderless = fakeCluster({ 0: 1, 1: -1 }, { 1: { offsets: { 0: [0, 3] } } });
    await expect(leaderless.offsets.fetchTopicOffsets('t')).rejects.toThrow(
      'LEADER_NOT_AVAILABLE: 1',
    );
    expect(leaderless.calls).toEqual([]);
    const empty = fakeCluster({}, { 1: {} });
    await expect(empty.offsets.fetchTopicOffsets('t')).rejects.toThrow('NO_PARTITIONS_IN_METADATA');
  });

  describe('committed offsets', () => {
    const committed = { a: { 0: 10, 1: 11 }, b: { 0: 20 } };

    it("reads them from the group's coordinator, confirmed by another broker, in topic and partition order", async () => {
      const { offsets, calls } = fakeCluster(
        { 0: 1, 1: 1 },
        { 1: { committed }, 2: { coordinator: 1 }, 3: { coordinator: 1 } },
      );
      await expect(offsets.fetchCommittedOffsets('g', ['b', 'a'])).resolves.toEqual([
        { topic: 'b', partition: 0, offset: 20 },
        { topic: 'a', partition: 0, offset: 10 },
        { topic: 'a', partition: 1, offset: 11 },
      ]);
      expect(calls).toContain('offsetFetch@1');
      expect(calls).not.toContain('findGroupCoordinator@1');
    });

    it('refuses the offsets of a broker another broker no longer names the coordinator', async () => {
      const { offsets } = fakeCluster(
        { 0: 1 },
        { 1: { committed }, 2: { coordinator: 3 }, 3: { coordinator: 3 } },
      );
      const refused = offsets.fetchCommittedOffsets('g', ['a']);
      await expect(refused).rejects.toThrow(GroupCoordinatorUnconfirmedError);
      await expect(refused).rejects.toThrow(
        'COORDINATOR_MOVED_WHILE_ASKED: answered by node 1, coordinated by node 3',
      );
    });

    it('fails retriably when no other broker names the coordinator', async () => {
      const { offsets } = fakeCluster({ 0: 1 }, { 1: { committed }, 2: {}, 3: {} });
      await expect(offsets.fetchCommittedOffsets('g', ['a'])).rejects.toThrow(
        'UNCONFIRMED: no broker other than node(s) 1 answered',
      );
    });
  });

  describe("the coordinator that answered a member's heartbeat", () => {
    it('is confirmed when another broker names the broker at that address', async () => {
      const { offsets, calls } = fakeCluster({}, { 1: {}, 2: { coordinator: 1 }, 3: {} });
      await expect(offsets.confirmGroupCoordinator('g', '127.0.0.1:9091')).resolves.toBeUndefined();
      expect(calls).not.toContain('findGroupCoordinator@1'); // it would name itself
    });

    it('is refused when another broker names another coordinator (a hung broker answered)', async () => {
      const { offsets, calls } = fakeCluster(
        {},
        { 1: { coordinator: 1 }, 2: { coordinator: 3 }, 3: { coordinator: 3 } },
      );
      const refused = offsets.confirmGroupCoordinator('g', '127.0.0.1:9091');
      await expect(refused).rejects.toThrow(GroupCoordinatorUnconfirmedError);
      await expect(refused).rejects.toThrow(
        'COORDINATOR_MOVED_WHILE_ASKED: answered by 127.0.0.1:9091, coordinated by node 3 at 127.0.0.1:9093',
      );
      expect(calls).not.toContain('refreshMetadata'); // the hung broker might be asked
    });

    it('fails retriably when no other broker answers', async () => {
      const { offsets } = fakeCluster({}, { 1: { coordinator: 1 }, 2: {}, 3: {} });
      await expect(offsets.confirmGroupCoordinator('g', '127.0.0.1:9091')).rejects.toThrow(
        'UNCONFIRMED: no broker other than 127.0.0.1:9091 answered',
      );
    });

    it('asks nobody on a cluster of one broker', async () => {
      const { offsets, calls } = fakeCluster({}, { 1: { coordinator: 1 } });
      await expect(offsets.confirmGroupCoordinator('g', '127.0.0.1:9091')).resolves.toBeUndefined();
      expect(calls).not.toContain('findGroupCoordinator@1');
    });
  });
});
