import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BrokerToolError } from './broker-error';
import { clusterNode, nodeSettings, type ClusterLayout } from './cluster-layout';
import {
  formatKafkaStorage,
  kafkaJvmArgs,
  kafkaLogTail,
  spawnKafka,
  type KafkaJvm,
  type SpawnedKafka,
} from './kafka-jvm';
import { describeClusterAt } from './metadata-probe';
import { sleep } from './node-process';
import { clusterNodeProperties } from './server-properties';

/** A node of a cluster runs with less heap than the single broker: three share the machine. */
const NODE_HEAP = { min: '128m', max: '512m' };

/** A node's `server.properties` file in the cluster home. */
export function nodePropertiesFile(home: string, nodeId: number): string {
  return join(home, `node-${nodeId}.properties`);
}

/**
 * Writes node `nodeId`'s server.properties (and with `format` formats its storage for the
 * layout's cluster id), then starts its process, detached.
 *
 * @throws BrokerToolError when formatting fails or Java cannot be spawned.
 */
export function spawnClusterNode(
  jvm: KafkaJvm,
  home: string,
  layout: ClusterLayout,
  nodeId: number,
  format: boolean,
): SpawnedKafka {
  const node = clusterNode(layout, nodeId);
  mkdirSync(node.logsDir, { recursive: true });
  const propertiesFile = nodePropertiesFile(home, nodeId);
  writeFileSync(propertiesFile, clusterNodeProperties(nodeSettings(layout, nodeId)));
  const jvmArgs = kafkaJvmArgs(jvm, node.logsDir, NODE_HEAP);
  if (format) {
    mkdirSync(node.logDir, { recursive: true });
    formatKafkaStorage(jvm, jvmArgs, layout.clusterId, propertiesFile);
  }
  return spawnKafka(jvm, jvmArgs, propertiesFile, join(node.logsDir, 'console.log'));
}

/**
 * Waits until each of `nodes` answers on its broker listener and its metadata lists every id
 * of `expectedIds` (registered with the controller and not fenced).
 *
 * @throws BrokerToolError when a node's process exits meanwhile, or after `timeoutMs`, with the
 *   tail of that node's log.
 */
export async function waitForClusterNodes(
  layout: ClusterLayout,
  nodes: { nodeId: number; process: SpawnedKafka }[],
  expectedIds: number[],
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const pending = new Set(nodes.map((n) => n.nodeId));
  while (pending.size > 0) {
    for (const { nodeId, process } of nodes.filter((n) => pending.has(n.nodeId))) {
      const node = clusterNode(layout, nodeId);
      const exited = process.exitCode();
      if (exited !== null) {
        throw new BrokerToolError(
          `Kafka node ${nodeId} exited with code ${exited} during start-up; see ${node.logsDir}.`,
          kafkaLogTail(node.logsDir),
        );
      }
      const view = await describeClusterAt(`127.0.0.1:${node.brokerPort}`);
      if (view && expectedIds.every((id) => view.brokerIds.includes(id))) pending.delete(nodeId);
    }
    if (pending.size === 0) return;
    if (Date.now() > deadline) {
      const [first] = [...pending];
      throw new BrokerToolError(
        `Kafka node ${first} did not list nodes ${expectedIds.join(', ')} within ${timeoutMs / 1000} s.`,
        kafkaLogTail(clusterNode(layout, first).logsDir),
      );
    }
    await sleep(250);
  }
}
