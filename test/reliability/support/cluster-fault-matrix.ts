import { JAVA_STATS_CLIENT } from '../../../tools/instances/java-stats-instance';
import { streamsClient } from '../../support/streams-client';
import type { ClientSetup } from './cluster-fault-fixture';
import type { ClusterFaultName } from './cluster-fault-injectors';
import { sized } from './reliability-size';

/** One row of the matrix: a client and group protocol, and the faults run on it in turn. */
export interface MatrixRow {
  /** `kafkajs`, `platformatic-cooperative`, `platformatic-streams`: names the figures' files. */
  readonly slug: string;
  readonly label: string;
  readonly setup: ClientSetup;
  readonly faults: readonly ClusterFaultName[];
}

const EVERY_FAULT: readonly ClusterFaultName[] = [
  'leader-kill',
  'group-coordinator-kill',
  'transaction-coordinator-kill',
  'controller-kill',
  'broker-hung',
  'group-coordinator-hung',
  'rolling-restart',
];

const KAFKAJS: Omit<MatrixRow, 'faults'> = {
  slug: 'kafkajs',
  label: 'kafkajs, classic protocol (eager)',
  setup: { client: 'kafkajs', groupProtocol: 'classic' },
};
const PLATFORMATIC: Omit<MatrixRow, 'faults'> = {
  slug: 'platformatic-cooperative',
  label: '@platformatic/kafka, classic protocol, cooperative',
  setup: {
    client: '@platformatic/kafka',
    groupProtocol: 'classic',
    rebalanceProtocol: 'cooperative',
  },
};
const STREAMS: Omit<MatrixRow, 'faults'> = {
  slug: 'platformatic-streams',
  label: "@platformatic/kafka, streams protocol (KIP-1071, groupProtocol 'streams')",
  setup: { client: '@platformatic/kafka', groupProtocol: 'streams' },
};

/**
 * kafkajs' faults at reduced size (CI): one of each kind, a leadership that moves, a coordinator
 * that hangs, every node restarted in turn. kafkajs is no longer the default client; with
 * `--full` its row runs every fault.
 */
const KAFKAJS_REDUCED_FAULTS: readonly ClusterFaultName[] = [
  'leader-kill',
  'group-coordinator-hung',
  'rolling-restart',
];

/**
 * The matrix, in CI at reduced size and with `--full` at full size: every fault on
 * @platformatic/kafka under the cooperative protocol (the default path); the leader and group
 * coordinator kills under the streams protocol; on kafkajs three faults at reduced size, every
 * fault at full size. About 9.5 minutes of Jest time for the platformatic rows at reduced size on
 * the shared 2-core machine, 3.5 for kafkajs' (docs/reliability.md, "Cluster faults", says what
 * each costs); the rows of one client run at a time (see {@link clusterFaultMatrix});
 * `-t <row label>` runs one row.
 */
const MATRIX: readonly MatrixRow[] = [
  { ...KAFKAJS, faults: sized({ reduced: KAFKAJS_REDUCED_FAULTS, full: EVERY_FAULT }) },
  { ...PLATFORMATIC, faults: EVERY_FAULT },
  { ...STREAMS, faults: ['leader-kill', 'group-coordinator-kill'] },
];

/**
 * Java Kafka Streams running the same application (the Java peer's `serve` mode), every fault:
 * the figures' comparison, not a check of ours. Only with `CLUSTER_FAULTS_JAVA=1`, never in CI.
 */
const JAVA: MatrixRow = {
  slug: 'java',
  label: 'Java Kafka Streams 4.4, classic protocol, cooperative',
  setup: { client: JAVA_STATS_CLIENT, groupProtocol: 'classic', rebalanceProtocol: 'cooperative' },
  faults: EVERY_FAULT,
};

/**
 * The rows to run (the size, reduced or full, is the suite's: `--full`): those of the suite's
 * client, `NEST_STREAMS_CLIENT` as every reliability suite (@platformatic/kafka by default: the
 * cooperative and streams protocol rows, in `npm run test:reliability`; kafkajs: its row, in
 * `npm run test:integration:kafkajs`); with `CLUSTER_FAULTS_JAVA=1` the Java row too.
 */
export function clusterFaultMatrix(): readonly MatrixRow[] {
  const client = streamsClient();
  const rows = MATRIX.filter((row) => row.setup.client === client);
  return process.env.CLUSTER_FAULTS_JAVA === '1' ? [...rows, JAVA] : rows;
}
