import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Connection, describeQuorumV2, findCoordinatorV6 } from '@platformatic/kafka';
// kafkajs with the engine's fixes (no TimeoutNegativeWarning on Node 24): importing
// @nest-streams/streams installs them, before anything loads kafkajs.
import '@nest-streams/streams';
import { Kafka, logLevel, type Admin } from 'kafkajs';
import {
  clusterNodeCommand,
  startCluster,
  stopCluster,
  readClusterLayout,
  readClusterState,
  type ClusterState,
  processState,
  type ProcessState,
} from '@nest-streams/testing/kafka';

const REPO_ROOT = join(__dirname, '..', '..');

/** FindCoordinator's key types. */
const GROUP_KEY = 0;
const TRANSACTION_KEY = 1;

/** One partition's replicas as the cluster's metadata names them. */
export interface PartitionReplicas {
  readonly topic: string;
  readonly partition: number;
  /** The leader's node id; -1 when the partition has none. */
  readonly leader: number;
  readonly replicas: readonly number[];
  readonly isr: readonly number[];
}

/**
 * A local KRaft cluster of this test's own (three nodes by default, each broker+controller,
 * every topic replicated on every node with min ISR 2), in its own home folder, started with the
 * project's broker tool (`libs/testing/src/kafka/cluster.ts`) in this process. It finds which node leads a
 * partition, coordinates a group or a transactional id, or is the active controller, and kills
 * (SIGKILL), stops (SIGSTOP), resumes (SIGCONT) or restarts one node by id; the shared broker
 * is never touched.
 */
export class KafkaCluster {
  private state: ClusterState;

  private constructor(
    readonly home: string,
    state: ClusterState,
  ) {
    this.state = state;
  }

  /**
   * Starts a cluster of `nodes` nodes in a new temporary home (the classpath cached by the
   * checkout's `.kafka/` is copied, so nothing is resolved again).
   *
   * @throws BrokerToolError when Java or the jars are missing or a node does not come up.
   */
  static async start(nodes = 3, log?: (line: string) => void): Promise<KafkaCluster> {
    const home = mkdtempSync(join(tmpdir(), 'kafka-cluster-home-'));
    const sharedHome = join(REPO_ROOT, '.kafka');
    if (existsSync(sharedHome)) {
      for (const name of readdirSync(sharedHome).filter((n) => /^classpath-.*\.txt$/.test(n))) {
        copyFileSync(join(sharedHome, name), join(home, name));
      }
    }
    try {
      return new KafkaCluster(home, await startCluster({ nodes, home, log }));
    } catch (error) {
      rmSync(home, { recursive: true, force: true });
      throw error;
    }
  }

  /** Every node's broker listener, `127.0.0.1:<port>`. */
  get brokers(): string[] {
    return this.state.brokers.split(',');
  }

  /** The node ids, from 1. */
  get nodeIds(): number[] {
    return this.state.nodes.map((n) => n.nodeId);
  }

  /** The broker listener of node `nodeId`. */
  address(nodeId: number): string {
    const node = this.state.nodes.find((n) => n.nodeId === nodeId);
    if (!node) throw new RangeError(`no node ${nodeId}: the nodes are ${this.nodeIds.join(', ')}`);
    return node.broker;
  }

  /** What node `nodeId`'s process does now: `running`, `stopped` (SIGSTOP) or `gone`. */
  nodeState(nodeId: number): ProcessState {
    const node = this.state.nodes.find((n) => n.nodeId === nodeId);
    return node ? processState(node.pid) : 'gone';
  }

  /** Nodes whose process runs (neither killed nor frozen). */
  runningNodes(): number[] {
    return this.nodeIds.filter((id) => this.nodeState(id) === 'running');
  }

  /**
   * A kafkajs client of the cluster that retries long enough to outlast a node's death (the
   * controller fences a dead broker after `broker.session.timeout.ms`, 9 s, and moves its
   * leaderships only then).
   */
  kafka(clientId: string): Kafka {
    return new Kafka({
      clientId,
      brokers: this.brokers,
      logLevel: process.env.KAFKAJS_LOG ? logLevel.INFO : logLevel.NOTHING,
      connectionTimeout: 3000,
      requestTimeout: 15_000,
      retry: { retries: 12, initialRetryTime: 300, maxRetryTime: 5000 },
    });
  }

  /** Leader, replicas and ISR of every partition of `topics` (all topics when none given). */
  async partitions(topics?: string[]): Promise<PartitionReplicas[]> {
    return this.withAdmin(async (admin) => {
      const names = topics ?? (await admin.listTopics());
      const metadata = await admin.fetchTopicMetadata({ topics: names });
      return metadata.topics.flatMap((t) =>
        t.partitions.map((p) => ({
          topic: t.name,
          partition: p.partitionId,
          leader: p.leader,
          replicas: p.replicas,
          isr: p.isr,
        })),
      );
    });
  }

  /** The node leading `topic`'s partition `partition` (-1 when it has no leader). */
  async leaderOf(topic: string, partition: number): Promise<number> {
    const found = (await this.partitions([topic])).find((p) => p.partition === partition);
    if (!found) throw new Error(`${topic} has no partition ${partition}`);
    return found.leader;
  }

  /** The node coordinating consumer or streams group `groupId` (FindCoordinator, key type 0). */
  groupCoordinatorOf(groupId: string): Promise<number> {
    return this.coordinatorOf(GROUP_KEY, groupId);
  }

  /** The node coordinating the transactions of `transactionalId` (FindCoordinator, key type 1). */
  transactionCoordinatorOf(transactionalId: string): Promise<number> {
    return this.coordinatorOf(TRANSACTION_KEY, transactionalId);
  }

  /**
   * The active KRaft controller: the leader of `__cluster_metadata` as DescribeQuorum answers
   * (a broker forwards it to the controllers). Under KRaft the `controller` of a Metadata or
   * DescribeCluster answer to a client is any live broker, not the active controller.
   */
  async activeController(): Promise<number> {
    return this.askRunningNode('DescribeQuorum', async (connection) => {
      const answer = await describeQuorumV2.api.async(connection, [
        { topicName: '__cluster_metadata', partitions: [{ partitionIndex: 0 }] },
      ]);
      const partition = answer.topics[0]?.partitions[0];
      if (!partition || partition.errorCode !== 0 || partition.leaderId < 0) {
        throw new Error(`DescribeQuorum named no leader: ${JSON.stringify(answer)}`);
      }
      return partition.leaderId;
    });
  }

  /** SIGKILLs node `nodeId` (a crash) and resolves once its process is gone. */
  async kill(nodeId: number): Promise<void> {
    await clusterNodeCommand('kill', nodeId, { home: this.home });
  }

  /** SIGSTOPs node `nodeId` (hung, not dead: its sockets stay open, nothing answers). */
  async stop(nodeId: number): Promise<void> {
    await clusterNodeCommand('stop', nodeId, { home: this.home });
  }

  /** SIGCONTs a stopped node. */
  async resume(nodeId: number): Promise<void> {
    await clusterNodeCommand('resume', nodeId, { home: this.home });
  }

  /**
   * Restarts node `nodeId` on its ports with its data (SIGTERM first when it runs: a
   * controlled shutdown) and resolves once it answers and is listed again.
   */
  async restart(nodeId: number): Promise<void> {
    this.state = await clusterNodeCommand('restart', nodeId, { home: this.home, log: () => {} });
  }

  /**
   * Waits until every node is a registered, unfenced broker of the cluster's metadata (a topic
   * created with the default replication factor of 3 needs all three) and every partition of
   * every topic, internal ones included, has a leader and all its replicas in sync; resolves
   * with the ms it took.
   *
   * @throws Error after `timeoutMs`, naming the partitions still short of replicas.
   */
  async waitForFullIsr(timeoutMs = 120_000): Promise<number> {
    const started = Date.now();
    let short: PartitionReplicas[] = [];
    for (;;) {
      try {
        const listed = await this.withAdmin(
          async (admin) => (await admin.describeCluster()).brokers,
        );
        short = (await this.partitions()).filter(
          (p) => p.leader < 0 || p.isr.length < p.replicas.length,
        );
        if (short.length === 0 && listed.length === this.nodeIds.length) {
          return Date.now() - started;
        }
      } catch {
        // a node still coming back: ask again
      }
      if (Date.now() - started > timeoutMs) {
        const first = short
          .slice(0, 5)
          .map((p) => `${p.topic}/${p.partition} leader ${p.leader} isr [${p.isr.join(',')}]`);
        throw new Error(
          `${short.length} partitions short of in-sync replicas after ${timeoutMs} ms: ${first.join('; ')}`,
        );
      }
      await new Promise((r) => setTimeout(r, 500));
    }
  }

  /** Node `nodeId`'s `server.log`. */
  serverLog(nodeId: number): string {
    const node = readClusterLayout(this.home)?.nodes.find((n) => n.nodeId === nodeId);
    const file = node ? join(node.logsDir, 'server.log') : '';
    return file && existsSync(file) ? readFileSync(file, 'utf8') : '';
  }

  /** Stops every node (frozen ones too) and removes the home. */
  async destroy(): Promise<void> {
    try {
      if (readClusterState(this.home)) await stopCluster({ home: this.home, graceMs: 10_000 });
    } finally {
      rmSync(this.home, { recursive: true, force: true });
    }
  }

  private async coordinatorOf(keyType: number, key: string): Promise<number> {
    return this.askRunningNode(`FindCoordinator(${key})`, async (connection) => {
      const { coordinators } = await findCoordinatorV6.api.async(connection, keyType, [key]);
      const found = coordinators[0];
      if (!found || found.errorCode !== 0) {
        throw new Error(`FindCoordinator(${key}): error ${found?.errorCode}`);
      }
      return found.nodeId;
    });
  }

  private async withAdmin<T>(use: (admin: Admin) => Promise<T>): Promise<T> {
    const admin = this.kafka('kafka-cluster-probe').admin();
    await admin.connect();
    try {
      return await use(admin);
    } finally {
      await admin.disconnect().catch(() => undefined);
    }
  }

  /**
   * Asks each running node in turn (a frozen one would never answer), within 5 s each, until
   * one answers without an error; over and over for up to 60 s (the first FindCoordinator of a
   * cluster creates `__consumer_offsets` and answers COORDINATOR_NOT_AVAILABLE meanwhile; a
   * quorum without a leader answers none for a few seconds).
   *
   * @throws Error with the last error when no node answered in time.
   */
  private async askRunningNode<T>(
    what: string,
    ask: (connection: Connection) => Promise<T>,
    timeoutMs = 60_000,
  ): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    let last: unknown = new Error('no node is running');
    while (Date.now() < deadline) {
      for (const nodeId of this.runningNodes()) {
        const [host, port] = this.address(nodeId).split(':');
        const connection = new Connection('kafka-cluster-probe', {
          connectTimeout: 3000,
          requestTimeout: 5000,
        });
        try {
          await connection.connect(host, Number(port));
          return await ask(connection);
        } catch (error) {
          last = error;
        } finally {
          await connection.close().catch(() => undefined);
        }
      }
      await new Promise((r) => setTimeout(r, 500));
    }
    throw new Error(`${what}: no node answered within ${timeoutMs} ms: ${String(last)}`);
  }
}
