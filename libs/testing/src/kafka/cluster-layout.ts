import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { isPort } from './free-port';
import { readLayoutFile, writeLayoutFile } from './layout-file';
import type { ClusterNodeSettings } from './server-properties';

/** The file in a cluster home recording the nodes' ports and storage of its formatted start. */
export const CLUSTER_LAYOUT_FILE_NAME = 'cluster-layout.json';

/** One node of a local multi-node cluster: its id, ports and folders. */
export interface ClusterNodeLayout {
  /** The KRaft node id, 1 to the number of nodes. */
  nodeId: number;
  brokerPort: number;
  controllerPort: number;
  /** The node's log dir (`<home>/data/node-<id>`). */
  logDir: string;
  /** Where the node writes `server.log` and `console.log` (`<home>/logs/node-<id>`). */
  logsDir: string;
}

/** Every node of a local multi-node cluster and the KRaft cluster id they were formatted with. */
export interface ClusterLayout {
  clusterId: string;
  nodes: ClusterNodeLayout[];
}

/**
 * The layout of a new cluster of `ports.length / 2` nodes in `home`: node `i` (from 1) takes
 * ports `2(i-1)` (broker) and `2(i-1)+1` (controller), and its own data and logs folders.
 *
 * @throws RangeError when the ports are not two per node, at least one node, all distinct.
 */
export function newClusterLayout(home: string, clusterId: string, ports: number[]): ClusterLayout {
  if (ports.length < 2 || ports.length % 2 !== 0 || new Set(ports).size !== ports.length) {
    throw new RangeError(`a cluster needs two distinct ports per node, got ${ports.join(',')}`);
  }
  const nodes = Array.from({ length: ports.length / 2 }, (_, i) => ({
    nodeId: i + 1,
    brokerPort: ports[2 * i],
    controllerPort: ports[2 * i + 1],
    logDir: join(home, 'data', `node-${i + 1}`),
    logsDir: join(home, 'logs', `node-${i + 1}`),
  }));
  return { clusterId, nodes };
}

/** `id@127.0.0.1:<controller port>` of every node: the static KRaft quorum. */
export function quorumVoters(layout: ClusterLayout): string {
  return layout.nodes.map((n) => `${n.nodeId}@127.0.0.1:${n.controllerPort}`).join(',');
}

/** The bootstrap servers of the cluster: every node's broker listener, comma-separated. */
export function clusterBrokers(layout: ClusterLayout): string {
  return layout.nodes.map((n) => `127.0.0.1:${n.brokerPort}`).join(',');
}

/** What server.properties of node `nodeId` is made from. */
export function nodeSettings(layout: ClusterLayout, nodeId: number): ClusterNodeSettings {
  const node = clusterNode(layout, nodeId);
  return {
    nodeId,
    brokerPort: node.brokerPort,
    controllerPort: node.controllerPort,
    logDir: node.logDir,
    voters: quorumVoters(layout),
    nodes: layout.nodes.length,
  };
}

/**
 * The node with id `nodeId`.
 *
 * @throws RangeError naming the node ids there are: pass one of them.
 */
export function clusterNode(layout: ClusterLayout, nodeId: number): ClusterNodeLayout {
  const node = layout.nodes.find((n) => n.nodeId === nodeId);
  if (!node) {
    const ids = layout.nodes.map((n) => n.nodeId).join(', ');
    throw new RangeError(`no node ${nodeId} in this cluster: its nodes are ${ids}`);
  }
  return node;
}

/** Writes `<home>/cluster-layout.json` once every node's storage was formatted. */
export function writeClusterLayout(home: string, layout: ClusterLayout): void {
  writeLayoutFile(join(home, CLUSTER_LAYOUT_FILE_NAME), layout);
}

/**
 * The layout of the cluster formatted in `home`, when its file is readable, every node's ports
 * are valid and distinct and every node's storage is still formatted (`meta.properties` in its
 * log dir); `undefined` otherwise.
 */
export function readClusterLayout(home: string): ClusterLayout | undefined {
  const parsed = readLayoutFile<ClusterLayout>(join(home, CLUSTER_LAYOUT_FILE_NAME));
  if (!parsed) return undefined;
  const { clusterId, nodes } = parsed;
  if (typeof clusterId !== 'string' || clusterId.length === 0 || !Array.isArray(nodes)) {
    return undefined;
  }
  if (nodes.length === 0 || !nodes.every(validNode)) return undefined;
  const ports = nodes.flatMap((n) => [n.brokerPort, n.controllerPort]);
  if (new Set(ports).size !== ports.length) return undefined;
  if (!nodes.every((n, i) => n.nodeId === i + 1)) return undefined;
  if (!nodes.every((n) => existsSync(join(n.logDir, 'meta.properties')))) return undefined;
  return { clusterId, nodes };
}

function validNode(node: unknown): node is ClusterNodeLayout {
  const n = node as Partial<ClusterNodeLayout> | null;
  return (
    typeof n === 'object' &&
    n !== null &&
    Number.isInteger(n.nodeId) &&
    isPort(n.brokerPort) &&
    isPort(n.controllerPort) &&
    typeof n.logDir === 'string' &&
    typeof n.logsDir === 'string'
  );
}
