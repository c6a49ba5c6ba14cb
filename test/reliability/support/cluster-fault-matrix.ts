import type { ClientSetup } from './cluster-fault-fixture';
import type { ClusterFaultName } from './cluster-fault-injectors';
import { reliabilitySize } from './reliability-size';

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

/** Every fault on both clients; the streams protocol during the leader and coordinator kills. */
const FULL: readonly MatrixRow[] = [
  { ...KAFKAJS, faults: EVERY_FAULT },
  { ...PLATFORMATIC, faults: EVERY_FAULT },
  { ...STREAMS, faults: ['leader-kill', 'group-coordinator-kill'] },
];

/**
 * Known failures: scenarios that fail for a defect not fixed yet, each with its root cause as
 * far as it is known (docs/reliability.md, "Known failure"). They stay in the full matrix and
 * are left out of CI's until fixed; remove an entry with its fix.
 */
export const KNOWN_FAILURES: readonly {
  readonly slug: string;
  readonly fault: ClusterFaultName;
  readonly rootCause: string;
}[] = [
  {
    slug: 'kafkajs',
    fault: 'broker-hung',
    rootCause:
      'when the hung node is the group coordinator, kafkajs waits on it for its 30 s request ' +
      'timeout (Java marks the coordinator unknown after session.timeout.ms) and both members ' +
      'are dropped; in the rebalances that follow an instance answered as the active with ' +
      'counts 1-7 events below the committed ones (exactly-once, seed 61207): either the ' +
      'dropped instance answering until it rejoins (closed since: the lost hook runs before ' +
      "kafkajs rejoins without a member id; 'group-coordinator-hung' runs that path in CI), or " +
      'its transaction committing offsets after the new owner read them (kafkajs sends ' +
      'TxnOffsetCommit v1, without a generation): kept out until the full matrix shows it gone',
  },
];

/** A row's faults without its known failures. */
function withoutKnownFailures(row: MatrixRow): MatrixRow {
  const known = (fault: ClusterFaultName) =>
    KNOWN_FAILURES.some((k) => k.slug === row.slug && k.fault === fault);
  return { ...row, faults: row.faults.filter((fault) => !known(fault)) };
}

/**
 * What CI runs (reduced size, about 10 minutes): every fault but the rolling restart (4 minutes
 * on its own) on the default client (kafkajs); on @platformatic/kafka the leader kill under the
 * cooperative protocol and under the streams protocol; not the {@link KNOWN_FAILURES}. See
 * docs/reliability.md for what each costs.
 */
const CI: readonly MatrixRow[] = (
  [
    { ...KAFKAJS, faults: EVERY_FAULT.filter((fault) => fault !== 'rolling-restart') },
    { ...PLATFORMATIC, faults: ['leader-kill'] },
    { ...STREAMS, faults: ['leader-kill'] },
  ] satisfies MatrixRow[]
).map(withoutKnownFailures);

/**
 * The rows to run: the full matrix at full size (`--full`), CI's subset at reduced size;
 * `CLUSTER_FAULTS_MATRIX=full` or `ci` chooses either at any size.
 *
 * @throws Error naming the variable when it holds another value.
 */
export function clusterFaultMatrix(): readonly MatrixRow[] {
  const chosen =
    process.env.CLUSTER_FAULTS_MATRIX || (reliabilitySize() === 'full' ? 'full' : 'ci');
  if (chosen !== 'full' && chosen !== 'ci') {
    throw new Error(`CLUSTER_FAULTS_MATRIX must be full or ci, got '${chosen}'`);
  }
  return chosen === 'full' ? FULL : CI;
}
