import { saslSslProperties, type SaslSslListener } from './sasl-ssl-listener';

/** Ports and folders of one local single-node KRaft broker. */
export interface BrokerLayout {
  brokerPort: number;
  controllerPort: number;
  logDir: string;
  /** A SASL_SSL listener beside the PLAINTEXT one, on its own port. */
  saslSsl?: { port: number; listener: SaslSslListener };
}

/**
 * The broker's server.properties: one combined broker+controller node in KRaft mode on
 * loopback, replication factors of 1 everywhere, topics never created by accident, and
 * settings that make tests fast (no initial rebalance delay, short minimum session timeout).
 */
export function serverProperties({
  brokerPort,
  controllerPort,
  logDir,
  saslSsl,
}: BrokerLayout): string {
  const secure = saslSsl ? `,SASL_SSL://127.0.0.1:${saslSsl.port}` : '';
  return render({
    ...nodeProperties({
      nodeId: 1,
      voters: `1@127.0.0.1:${controllerPort}`,
      listeners: `PLAINTEXT://127.0.0.1:${brokerPort},CONTROLLER://127.0.0.1:${controllerPort}${secure}`,
      advertisedListeners: `PLAINTEXT://127.0.0.1:${brokerPort}${secure}`,
      protocolMap: `PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT${saslSsl ? ',SASL_SSL:SASL_SSL' : ''}`,
      logDir,
      replicas: 1,
      minInsync: 1,
    }),
    ...(saslSsl ? saslSslProperties(saslSsl.listener) : {}),
  });
}

/** One node of a local multi-node cluster (see cluster-layout.ts). */
export interface ClusterNodeSettings {
  nodeId: number;
  brokerPort: number;
  controllerPort: number;
  logDir: string;
  /** `id@127.0.0.1:controllerPort` of every node, comma-separated. */
  voters: string;
  /** How many nodes the cluster has: the replication factor of every topic. */
  nodes: number;
}

/**
 * server.properties of one node of a local multi-node cluster: each node broker+controller
 * (a KRaft quorum of every node), every topic and internal topic (`__consumer_offsets`,
 * `__transaction_state`, `__share_group_state`) replicated on every node with a minimum of
 * `nodes - 1` in-sync replicas (2 of 3: one node may die without refusing a write), and the
 * single node's settings that make tests fast.
 */
export function clusterNodeProperties(node: ClusterNodeSettings): string {
  const { nodeId, brokerPort, controllerPort, logDir, voters, nodes } = node;
  return render(
    nodeProperties({
      nodeId,
      voters,
      listeners: `PLAINTEXT://127.0.0.1:${brokerPort},CONTROLLER://127.0.0.1:${controllerPort}`,
      advertisedListeners: `PLAINTEXT://127.0.0.1:${brokerPort}`,
      protocolMap: 'PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT',
      logDir,
      replicas: nodes,
      minInsync: Math.max(1, nodes - 1),
    }),
  );
}

type Properties = Record<string, string | number | boolean>;

interface NodeIdentity {
  nodeId: number;
  voters: string;
  listeners: string;
  advertisedListeners: string;
  protocolMap: string;
  logDir: string;
  replicas: number;
  minInsync: number;
}

function nodeProperties(node: NodeIdentity): Properties {
  return {
    'process.roles': 'broker,controller',
    'node.id': node.nodeId,
    'controller.quorum.voters': node.voters,
    listeners: node.listeners,
    'advertised.listeners': node.advertisedListeners,
    'listener.security.protocol.map': node.protocolMap,
    'controller.listener.names': 'CONTROLLER',
    'inter.broker.listener.name': 'PLAINTEXT',
    'log.dirs': node.logDir,
    'num.partitions': 1,
    'default.replication.factor': node.replicas,
    'min.insync.replicas': node.minInsync,
    'auto.create.topics.enable': false,
    'delete.topic.enable': true,
    'offsets.topic.replication.factor': node.replicas,
    'offsets.topic.num.partitions': 10,
    'transaction.state.log.replication.factor': node.replicas,
    'transaction.state.log.min.isr': node.minInsync,
    'transaction.state.log.num.partitions': 10,
    'share.coordinator.state.topic.replication.factor': node.replicas,
    'share.coordinator.state.topic.min.isr': node.minInsync,
    'group.initial.rebalance.delay.ms': 0,
    'group.min.session.timeout.ms': 1000,
    // Streams groups (KIP-1071) as fast as the classic ones in tests: no initial delay, the
    // fixtures' 6 s session and 1 s heartbeat (the defaults: 3 s, 45 s and 5 s, with 45 s and
    // 5 s as their minimums).
    'group.streams.initial.rebalance.delay.ms': 0,
    'group.streams.min.session.timeout.ms': 1000,
    'group.streams.session.timeout.ms': 6000,
    'group.streams.min.heartbeat.interval.ms': 500,
    'group.streams.heartbeat.interval.ms': 1000,
    // Time retention runs every second from the start (Kafka: every 5 minutes, the first after
    // 30 s). A segment whose newest record is older than `retention.ms` (7 days by default) is
    // deleted, the active one included, and the log start moves past it: a test that writes
    // records with old timestamps into a `delete` topic then loses them at once, every run, not
    // in the one run in many whose read happens to follow a pass.
    'log.retention.check.interval.ms': 1000,
    'log.initial.task.delay.ms': 0,
    'num.network.threads': 2,
    'num.io.threads': 4,
    'log.cleaner.threads': 1,
    'log.cleaner.dedupe.buffer.size': 16777216,
  };
}

function render(props: Properties): string {
  return `${Object.entries(props)
    .map(([key, value]) => `${key}=${String(value)}`)
    .join('\n')}\n`;
}
