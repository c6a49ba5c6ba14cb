import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { processState, type ProcessState } from './node-process';

/** The file in a cluster home naming the running nodes' processes. */
export const CLUSTER_STATE_FILE_NAME = 'cluster.json';

/** One node's process, as the last start or restart left it. */
export interface ClusterNodeState {
  nodeId: number;
  pid: number;
  /** The node's broker listener, `127.0.0.1:<port>`. */
  broker: string;
}

/** What a running local cluster left in `<home>/cluster.json`. */
export interface ClusterState {
  /** Bootstrap servers: every node's broker listener, comma-separated. */
  brokers: string;
  nodes: ClusterNodeState[];
  kafkaVersion: string;
  startedAt: string;
}

/** The cluster state of `home`, when its file is there and readable. */
export function readClusterState(home: string): ClusterState | undefined {
  const file = join(home, CLUSTER_STATE_FILE_NAME);
  if (!existsSync(file)) return undefined;
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as ClusterState;
  } catch {
    return undefined;
  }
}

export function writeClusterState(home: string, state: ClusterState): void {
  writeFileSync(join(home, CLUSTER_STATE_FILE_NAME), `${JSON.stringify(state, null, 2)}\n`);
}

export function removeClusterState(home: string): void {
  rmSync(join(home, CLUSTER_STATE_FILE_NAME), { force: true });
}

/** Each node's id and what its process does now (`gone` after a kill, `stopped` after a stop). */
export function nodeProcessStates(
  state: ClusterState,
): { nodeId: number; pid: number; state: ProcessState }[] {
  return state.nodes.map((n) => ({ nodeId: n.nodeId, pid: n.pid, state: processState(n.pid) }));
}
