import type { KafkaCluster } from '../../support/kafka-cluster';
import { PARTITIONS, type ClusterFaultFixture } from './cluster-fault-fixture';

/** The faults of the cluster-fault suite, by name. */
export type ClusterFaultName =
  | 'leader-kill'
  | 'group-coordinator-kill'
  | 'transaction-coordinator-kill'
  | 'controller-kill'
  | 'broker-hung'
  | 'group-coordinator-hung'
  | 'rolling-restart';

/** What a node was to the applications just before the fault. */
export interface NodeRoles {
  readonly nodeId: number;
  /** Input partitions it led. */
  readonly inputLeader: number[];
  /** Changelog partitions (both applications) it led. */
  readonly changelogLeader: number;
  readonly groupCoordinator: boolean;
  /** Thread transactional ids (exactly-once instances) it coordinated. */
  readonly transactionCoordinator: number;
  readonly activeController: boolean;
}

/** What an injected fault did, and how to undo it once the answers are exact. */
export interface FaultOutcome {
  /** The nodes hit, in order. */
  readonly victims: number[];
  /** Each victim's roles before the fault. */
  readonly roles: NodeRoles[];
  /** Ms the injection itself took (the 30 s freeze, the rolling restart). */
  readonly injectMs: number;
  /** Brings the cluster back to every node running with full ISR; resolves with the ms it took. */
  recover(): Promise<number>;
}

/** One fault: what it does, in words, and doing it. */
export interface ClusterFault {
  readonly name: ClusterFaultName;
  readonly title: string;
  inject(fixture: ClusterFaultFixture): Promise<FaultOutcome>;
}

/** How long {@link brokerHung} keeps a node frozen. */
export const HUNG_MS = 30_000;

/** The line the engine logs with the thread's transactional id (KIP-447: one per thread). */
const THREAD_PRODUCER = /one transactional producer for the thread's tasks \(KIP-447\), (\S+)/g;

/** Every node's roles for the fixture's applications now. */
export async function nodeRoles(fixture: ClusterFaultFixture): Promise<NodeRoles[]> {
  const { kafka, topic } = fixture;
  const ids = fixture.apps.map((a) => a.applicationId);
  const partitions = await kafka.partitions();
  const coordinator = await kafka.groupCoordinatorOf(ids[0]);
  const transactionalIds = threadTransactionalIds(fixture);
  const txnCoordinators = await Promise.all(
    transactionalIds.map((id) => kafka.transactionCoordinatorOf(id)),
  );
  const controller = await kafka.activeController();
  return kafka.nodeIds.map((nodeId) => ({
    nodeId,
    inputLeader: partitions
      .filter((p) => p.topic === topic && p.leader === nodeId)
      .map((p) => p.partition)
      .sort((a, b) => a - b),
    changelogLeader: partitions.filter(
      (p) =>
        p.leader === nodeId &&
        p.topic.endsWith('-changelog') &&
        ids.some((id) => p.topic.startsWith(`${id}-`)),
    ).length,
    groupCoordinator: coordinator === nodeId,
    transactionCoordinator: txnCoordinators.filter((c) => c === nodeId).length,
    activeController: controller === nodeId,
  }));
}

/**
 * The transactional ids of the exactly-once instances: their threads' (KIP-447, as they logged
 * them: @platformatic/kafka), else one per task (`<applicationId>-0_<partition>`: kafkajs has
 * no KIP-447, so the engine gives each task a transactional producer of its own).
 */
export function threadTransactionalIds(fixture: ClusterFaultFixture): string[] {
  const outputs = fixture.eos.cluster.seats.map((s) => s.instance.output).join('\n');
  const threads = [...new Set([...outputs.matchAll(THREAD_PRODUCER)].map((m) => m[1]))];
  if (threads.length > 0) return threads;
  return Array.from({ length: PARTITIONS }, (_, p) => `${fixture.eos.applicationId}-0_${p}`);
}

/** How a fault picks its one victim among the nodes. */
type VictimChoice = (roles: NodeRoles[], fixture: ClusterFaultFixture) => Promise<number> | number;

/**
 * A fault done to the one node `choose` picks by `hit`; recovered by restarting the victim if
 * `restartVictim`, and waiting for full ISR.
 */
function oneNodeFault(
  name: ClusterFaultName,
  title: string,
  choose: VictimChoice,
  hit: (kafka: KafkaCluster, victim: number) => Promise<void>,
  restartVictim: boolean,
): ClusterFault {
  return {
    name,
    title,
    async inject(fixture) {
      const roles = await nodeRoles(fixture);
      const victim = await choose(roles, fixture);
      const started = Date.now();
      await hit(fixture.kafka, victim);
      return {
        victims: [victim],
        roles: roles.filter((r) => r.nodeId === victim),
        injectMs: Date.now() - started,
        recover: () => restartAndSettle(fixture.kafka, restartVictim ? [victim] : []),
      };
    },
  };
}

/** A kill of the node `choose` picks; recovered by restarting it and waiting for full ISR. */
function killOf(name: ClusterFaultName, title: string, choose: VictimChoice): ClusterFault {
  return oneNodeFault(name, title, choose, (kafka, victim) => kafka.kill(victim), true);
}

async function restartAndSettle(kafka: KafkaCluster, nodes: number[]): Promise<number> {
  const started = Date.now();
  for (const node of nodes) if (kafka.nodeState(node) !== 'running') await kafka.restart(node);
  await kafka.waitForFullIsr();
  return Date.now() - started;
}

/** The node with the most of `score`, the lowest id on a tie. */
function most(roles: NodeRoles[], score: (r: NodeRoles) => number): number {
  return [...roles].sort((a, b) => score(b) - score(a) || a.nodeId - b.nodeId)[0].nodeId;
}

/** SIGKILL of the node leading the most input and changelog partitions. */
export const leaderKill = killOf(
  'leader-kill',
  'SIGKILL of the leader of input and changelog partitions',
  (roles) => most(roles, (r) => r.inputLeader.length + r.changelogLeader),
);

/** SIGKILL of the group coordinator of both applications. */
export const groupCoordinatorKill = killOf(
  'group-coordinator-kill',
  'SIGKILL of the group coordinator',
  sharedGroupCoordinator,
);

/** The node coordinating both applications' groups (the fixture gives them one). */
async function sharedGroupCoordinator(
  roles: NodeRoles[],
  fixture: ClusterFaultFixture,
): Promise<number> {
  const [eos, alos] = fixture.apps.map((a) => a.applicationId);
  const coordinators = [
    await fixture.kafka.groupCoordinatorOf(eos),
    await fixture.kafka.groupCoordinatorOf(alos),
  ];
  if (coordinators[0] !== coordinators[1]) {
    throw new Error(`the two groups have two coordinators: ${coordinators.join(', ')}`);
  }
  return roles.find((r) => r.groupCoordinator)!.nodeId;
}

/** SIGKILL of the node coordinating the most of the exactly-once instances' transactions. */
export const transactionCoordinatorKill = killOf(
  'transaction-coordinator-kill',
  'SIGKILL of the transaction coordinator (exactly-once)',
  (roles, fixture) => {
    if (threadTransactionalIds(fixture).length === 0) {
      throw new Error('the exactly-once instances logged no transactional id');
    }
    return most(roles, (r) => r.transactionCoordinator);
  },
);

/** SIGKILL of the active KRaft controller. */
export const controllerKill = killOf(
  'controller-kill',
  'SIGKILL of the active KRaft controller',
  (roles) => roles.find((r) => r.activeController)!.nodeId,
);

/** SIGSTOP of the node `choose` picks for {@link HUNG_MS}, then SIGCONT. */
function hungOf(name: ClusterFaultName, title: string, choose: VictimChoice): ClusterFault {
  const freeze = async (kafka: KafkaCluster, victim: number): Promise<void> => {
    await kafka.stop(victim);
    await new Promise((r) => setTimeout(r, HUNG_MS));
    await kafka.resume(victim);
  };
  return oneNodeFault(
    name,
    `${title} for ${HUNG_MS / 1000} s, then SIGCONT`,
    choose,
    freeze,
    false,
  );
}

/** The node leading input partition 0 hung. */
export const brokerHung = hungOf(
  'broker-hung',
  'SIGSTOP of a broker',
  (roles) => roles.find((r) => r.inputLeader.includes(0))!.nodeId,
);

/**
 * The group coordinator hung: the members' sessions expire there and kafkajs, waiting on it for
 * its request timeout, is told UNKNOWN_MEMBER_ID once it answers (known failure J's condition).
 */
export const groupCoordinatorHung = hungOf(
  'group-coordinator-hung',
  'SIGSTOP of the group coordinator',
  sharedGroupCoordinator,
);

/** Every node restarted in turn (SIGTERM, start on its data), full ISR awaited between. */
export const rollingRestart: ClusterFault = {
  name: 'rolling-restart',
  title: 'a rolling restart of the three brokers',
  async inject(fixture) {
    const roles = await nodeRoles(fixture);
    const started = Date.now();
    for (const node of fixture.kafka.nodeIds) {
      await fixture.kafka.restart(node);
      await fixture.kafka.waitForFullIsr();
    }
    return {
      victims: [...fixture.kafka.nodeIds],
      roles,
      injectMs: Date.now() - started,
      recover: () => restartAndSettle(fixture.kafka, []),
    };
  },
};

/** Every fault, by name. */
export const CLUSTER_FAULTS: Record<ClusterFaultName, ClusterFault> = {
  'leader-kill': leaderKill,
  'group-coordinator-kill': groupCoordinatorKill,
  'transaction-coordinator-kill': transactionCoordinatorKill,
  'controller-kill': controllerKill,
  'broker-hung': brokerHung,
  'group-coordinator-hung': groupCoordinatorHung,
  'rolling-restart': rollingRestart,
};
