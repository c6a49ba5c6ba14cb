import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { BrokerToolError } from './broker-error';
import { newClusterId } from './broker-layout';
import {
  clusterBrokers,
  clusterNode,
  newClusterLayout,
  readClusterLayout,
  writeClusterLayout,
  type ClusterLayout,
} from './cluster-layout';
import { spawnClusterNode, waitForClusterNodes } from './cluster-node';
import {
  readClusterState,
  removeClusterState,
  writeClusterState,
  type ClusterState,
} from './cluster-state';
import { distinctFreePorts, portIsFree } from './free-port';
import { kafkaJvm, type KafkaJvm } from './kafka-jvm';
import {
  isAlive,
  processState,
  signalGroup,
  sleep,
  terminateGroup,
  waitUntilGone,
} from './node-process';
import { KAFKA_HOME } from './paths';

/** Options of {@link startCluster}. */
export interface ClusterStartOptions {
  /** How many nodes, each broker+controller: 3 for a cluster that survives one dead node. */
  nodes: number;
  /** The cluster's home (data, logs, `cluster.json`); default `.kafka/` or NEST_STREAMS_KAFKA_HOME. */
  home?: string;
  /** Restart every node on its previous ports with its data, when `home` holds a formatted cluster. */
  reuseData?: boolean;
  /** Progress lines; defaults to stderr. */
  log?: (line: string) => void;
  /** How long to wait for every node to list every other one; default 120 s. */
  timeoutMs?: number;
}

/** What {@link clusterNodeCommand} does to one node. */
export type ClusterNodeAction = 'kill' | 'stop' | 'resume' | 'restart';

/** Options of {@link stopCluster} and {@link clusterNodeCommand}. */
export interface ClusterCommandOptions {
  home?: string;
  /** How long SIGTERM may take before SIGKILL (stop, restart); default 20 s. */
  graceMs?: number;
  /** Keep the data for a later `startCluster({ reuseData: true })` (stop only). */
  keepData?: boolean;
  /** How long a restarted node may take to be listed again; default 120 s. */
  timeoutMs?: number;
  log?: (line: string) => void;
}

const defaultLog = (line: string): void => {
  process.stderr.write(`[kafka] ${line}\n`);
};

/**
 * Starts a local KRaft cluster of `nodes` nodes, each broker+controller on loopback ports of
 * its own, every topic replicated on every node (see `clusterNodeProperties`), or returns the
 * one already running in the home. Resolves once every node lists every node.
 *
 * @throws BrokerToolError when the home runs a single broker or a cluster of another size
 *   (stop it first), Java or the jars are missing, a previous port is taken, or a node dies or
 *   does not come up in time (every node is then killed; the message has its log's tail).
 */
export async function startCluster(options: ClusterStartOptions): Promise<ClusterState> {
  const home = options.home ?? KAFKA_HOME;
  const log = options.log ?? defaultLog;
  if (!Number.isInteger(options.nodes) || options.nodes < 1 || options.nodes > 9) {
    throw new BrokerToolError(`--nodes takes 1 to 9 nodes, got ${options.nodes}.`);
  }
  if (existsSync(join(home, 'broker.json'))) {
    throw new BrokerToolError(
      `${home} runs the single-node broker: stop it first (nest-streams-kafka stop).`,
    );
  }
  const running = runningCluster(home);
  if (running && running.nodes.length === options.nodes) return running;
  if (running) {
    throw new BrokerToolError(
      `${home} runs a cluster of ${running.nodes.length} nodes: stop it first (nest-streams-kafka stop).`,
    );
  }
  const jvm = kafkaJvm(log);
  const previous = options.reuseData ? readClusterLayout(home) : undefined;
  if (previous && previous.nodes.length !== options.nodes) {
    throw new BrokerToolError(
      `${home} holds the data of ${previous.nodes.length} nodes, not ${options.nodes}.`,
    );
  }
  const layout = previous ?? (await freshClusterLayout(home, options.nodes));
  if (previous) {
    for (const node of previous.nodes) await assertPortsFree(home, node);
    log(`Restarting the ${options.nodes} nodes with their data in ${join(home, 'data')}.`);
  }
  log(
    `Starting Apache Kafka ${jvm.kafkaVersion} (KRaft, ${options.nodes} nodes, each broker+controller) on ${clusterBrokers(layout)}...`,
  );
  const started = Date.now();
  const processes = layout.nodes.map((node) => ({
    nodeId: node.nodeId,
    process: spawnClusterNode(jvm, home, layout, node.nodeId, !previous),
  }));
  if (!previous) writeClusterLayout(home, layout);
  const state: ClusterState = {
    brokers: clusterBrokers(layout),
    nodes: processes.map(({ nodeId, process }) => ({
      nodeId,
      pid: process.pid,
      broker: `127.0.0.1:${clusterNode(layout, nodeId).brokerPort}`,
    })),
    kafkaVersion: jvm.kafkaVersion,
    startedAt: new Date().toISOString(),
  };
  writeClusterState(home, state);
  const ids = layout.nodes.map((n) => n.nodeId);
  try {
    await waitForClusterNodes(layout, processes, ids, options.timeoutMs ?? 120_000);
  } catch (error) {
    for (const { process } of processes) signalGroup(process.pid, 'SIGKILL');
    removeClusterState(home);
    throw error;
  }
  log(`Cluster ready in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
  return state;
}

/**
 * Stops every node of the cluster in `home` (SIGTERM, SIGKILL after the grace; a frozen node is
 * let run first) and removes its data unless `keepData`. Returns false when none was started.
 */
export async function stopCluster(options: ClusterCommandOptions = {}): Promise<boolean> {
  const home = options.home ?? KAFKA_HOME;
  const state = readClusterState(home);
  if (!state) return false;
  await Promise.all(state.nodes.map((n) => terminateGroup(n.pid, options.graceMs ?? 20_000)));
  removeClusterState(home);
  if (!options.keepData) {
    rmSync(join(home, 'data'), { recursive: true, force: true });
    rmSync(join(home, 'cluster-layout.json'), { force: true });
  }
  return true;
}

/** The cluster started in `home`, while at least one of its nodes' processes exists. */
export function runningCluster(home: string = KAFKA_HOME): ClusterState | undefined {
  const state = readClusterState(home);
  if (!state) return undefined;
  return state.nodes.some((n) => isAlive(n.pid)) ? state : undefined;
}

/**
 * Does `action` to node `nodeId` of the running cluster in `home` and resolves when it is done:
 * `kill` (SIGKILL: a crash; resolves once the process is gone), `stop` (SIGSTOP: hung, not dead;
 * once it is frozen), `resume` (SIGCONT), `restart` (SIGTERM and start again on its ports with
 * its data; once the node answers and is listed again). Returns the cluster's new state.
 *
 * @throws BrokerToolError when no cluster runs there, there is no such node, a kill or stop
 *   finds the node gone, or a restarted node does not come back in time.
 */
export async function clusterNodeCommand(
  action: ClusterNodeAction,
  nodeId: number,
  options: ClusterCommandOptions = {},
): Promise<ClusterState> {
  const home = options.home ?? KAFKA_HOME;
  const state = readClusterState(home);
  const layout = readClusterLayout(home);
  if (!state || !layout) throw new BrokerToolError(`No cluster was started in ${home}.`);
  let node: ClusterState['nodes'][number] | undefined;
  try {
    clusterNode(layout, nodeId);
    node = state.nodes.find((n) => n.nodeId === nodeId);
  } catch (error) {
    throw new BrokerToolError((error as Error).message);
  }
  if (!node) throw new BrokerToolError(`No node ${nodeId} in ${home}.`);
  const current = processState(node.pid);
  if (action !== 'restart' && current === 'gone') {
    throw new BrokerToolError(`Node ${nodeId} is not running (restart it).`);
  }
  switch (action) {
    case 'kill':
      signalGroup(node.pid, 'SIGKILL');
      if (!(await waitUntilGone(node.pid, 30_000))) {
        throw new BrokerToolError(`Node ${nodeId} (pid ${node.pid}) survived SIGKILL for 30 s.`);
      }
      return state;
    case 'stop':
      signalGroup(node.pid, 'SIGSTOP');
      while (processState(node.pid) === 'running') await sleep(20);
      return state;
    case 'resume':
      signalGroup(node.pid, 'SIGCONT');
      return state;
    case 'restart':
      return restartNode(home, layout, state, nodeId, options);
  }
}

async function restartNode(
  home: string,
  layout: ClusterLayout,
  state: ClusterState,
  nodeId: number,
  options: ClusterCommandOptions,
): Promise<ClusterState> {
  const log = options.log ?? defaultLog;
  const entry = state.nodes.find((n) => n.nodeId === nodeId)!;
  await terminateGroup(entry.pid, options.graceMs ?? 20_000);
  await assertPortsFree(home, clusterNode(layout, nodeId));
  const jvm: KafkaJvm = kafkaJvm(log);
  const process = spawnClusterNode(jvm, home, layout, nodeId, false);
  const next: ClusterState = {
    ...state,
    nodes: state.nodes.map((n) => (n.nodeId === nodeId ? { ...n, pid: process.pid } : n)),
  };
  writeClusterState(home, next);
  const started = Date.now();
  await waitForClusterNodes(layout, [{ nodeId, process }], [nodeId], options.timeoutMs ?? 120_000);
  log(
    `Node ${nodeId} back in ${((Date.now() - started) / 1000).toFixed(1)} s (pid ${process.pid}).`,
  );
  return next;
}

/** New ports, an id and empty data folders, for a start that formats every node's storage. */
async function freshClusterLayout(home: string, nodes: number): Promise<ClusterLayout> {
  rmSync(join(home, 'data'), { recursive: true, force: true });
  mkdirSync(join(home, 'data'), { recursive: true });
  return newClusterLayout(home, newClusterId(), await distinctFreePorts(nodes * 2));
}

async function assertPortsFree(
  home: string,
  node: { nodeId: number; brokerPort: number; controllerPort: number },
): Promise<void> {
  for (const port of [node.brokerPort, node.controllerPort]) {
    if (!(await portIsFree(port))) {
      throw new BrokerToolError(
        `Cannot start node ${node.nodeId} of ${home} on its data: port ${port} is in use.`,
      );
    }
  }
}
