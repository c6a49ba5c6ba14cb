/**
 * Cluster faults (issue #38): the example application on a three-node KRaft cluster of this
 * file's own (each node broker+controller, every topic replicated 3 times, min ISR 2; started
 * with the project's broker tool in a home of its own, so KAFKA_BROKERS and the shared broker
 * are not used), while a node dies, hangs or restarts. Each row of the matrix is a client and
 * group protocol: two applications, one exactly_once_v2 and one at_least_once, two instances
 * each with one standby, read one input topic; query checkers judge every answer throughout.
 * Each fault in turn: the feed produces, the fault hits when 40 % of the phase's events are
 * acknowledged, the feed finishes and holds; then every answer must become exact (exactly-once)
 * or complete (at-least-once), the cluster is made whole (the victim restarted, full ISR) and
 * the answers checked again. No instance may exit or reach ERROR, no answer may be wrong (503
 * with Retry-After and stale-marked answers are fine). An application that does not become exact
 * in time is diagnosed: the test, the broker or the client (see cluster-stall-diagnosis.ts).
 * A row's applications carry on from one fault to the next while they are healthy, and are
 * started afresh after a fault that broke them.
 */
import { mkdirSync } from 'node:fs';
import { KafkaCluster } from '../support/kafka-cluster';
import { ClusterFaultFixture } from './support/cluster-fault-fixture';
import { CLUSTER_FAULTS, type ClusterFaultName } from './support/cluster-fault-injectors';
import { clusterFaultMatrix, type MatrixRow } from './support/cluster-fault-matrix';
import { runFaultPhase, type PhaseResult } from './support/cluster-fault-phase';
import { recordFigures } from './support/reliability-report';
import { sized } from './support/reliability-size';

const SEED = Number(process.env.CHAOS_SEED ?? Date.now() % 1_000_000);
const SIZE = sized({
  reduced: { users: 100, rate: 100, phaseEvents: 1_500, exactTimeoutMs: 150_000 },
  full: { users: 300, rate: 200, phaseEvents: 10_000, exactTimeoutMs: 240_000 },
});
const FAULT_AT = 0.4;
const progress = (line: string): void => {
  process.stderr.write(`[cluster-faults] ${line}\n`);
};

let kafka: KafkaCluster | undefined;

beforeAll(async () => {
  const started = Date.now();
  kafka = await KafkaCluster.start(3, progress);
  progress(`3-node cluster ${kafka.brokers.join(',')} in ${(Date.now() - started) / 1000} s`);
}, 300_000);

afterAll(async () => {
  await kafka?.destroy();
});

/** Every node running (a killed one restarted, a frozen one resumed), every partition in sync. */
async function makeWhole(cluster: KafkaCluster): Promise<void> {
  for (const node of cluster.nodeIds) {
    if (cluster.nodeState(node) === 'stopped') await cluster.resume(node);
    if (cluster.nodeState(node) === 'gone') await cluster.restart(node);
  }
  await cluster.waitForFullIsr();
}

/**
 * Everything the guarantees do not allow, in words (empty: the fault passed). An application
 * that is not exact says why its seats answered 503 and what its instances last wrote, so that a
 * failure in CI can be read from its message alone.
 */
function problems(result: PhaseResult, fixture: ClusterFaultFixture): string[] {
  const found: string[] = [];
  for (const [index, app] of result.apps.entries()) {
    const what = app.guarantee;
    if (app.instanceFailure) {
      found.push(`${what}: an instance exited or reached ERROR: ${app.instanceFailure}`);
      continue;
    }
    if (app.exactAfterFaultSeconds === null) {
      const stall = app.stall ? ` (${app.stall.culprit}: ${app.stall.reason})` : '';
      found.push(`${what}: not exact in time${stall}: ${JSON.stringify(app.lastView)}`);
    }
    if (!app.exactAfterRejoin) {
      found.push(`${what}: not exact after the node rejoined: ${JSON.stringify(app.lastView)}`);
    }
    if (app.exactAfterFaultSeconds === null || !app.exactAfterRejoin) {
      found.push(`${what}: 503 reasons ${JSON.stringify(app.answers.unavailableReasons)}`);
      for (const line of fixture.apps[index].cluster.engineLines(25)) {
        found.push(`${what}: ${line}`);
      }
    }
    for (const wrong of app.wrongAnswers) found.push(`${what}: wrong answer: ${wrong}`);
  }
  return found;
}

describe.each(clusterFaultMatrix().map((row) => [row.label, row] as const))(
  'cluster faults on %s',
  (_label: string, row: MatrixRow) => {
    let fixture: ClusterFaultFixture | undefined;
    const dumpDir = process.env.RELIABILITY_DUMP_DIR;

    afterAll(async () => {
      await fixture?.close();
    });

    it.each(row.faults.map((name) => [CLUSTER_FAULTS[name].title, name] as const))(
      '%s: no instance exits, no wrong answer, exact again',
      async (_title: string, name: ClusterFaultName) => {
        const cluster = kafka!;
        const wallStart = Date.now();
        await makeWhole(cluster);
        if (fixture && !fixture.healthy) {
          progress(`${row.slug}: the applications broke in the previous fault; starting afresh`);
          await fixture.close();
          fixture = undefined;
        }
        const scenario = `cluster-faults-${row.slug}-${name}`;
        const figures = {
          fault: name,
          client: row.setup.client,
          groupProtocol: row.setup.groupProtocol,
          rebalanceProtocol: row.setup.rebalanceProtocol ?? 'default',
          seed: SEED,
        };
        try {
          fixture ??= await ClusterFaultFixture.start(cluster, row.setup, {
            users: SIZE.users,
            rate: SIZE.rate,
            events: Math.ceil(row.faults.length * SIZE.phaseEvents * 1.3),
            seed: SEED,
          });
        } catch (error) {
          // The applications did not start on the cluster: the scenario fails, recorded as such.
          const problem = `the applications did not start: ${String(error).slice(0, 2000)}`;
          recordFigures(scenario, { ...figures, passed: false, problems: [problem] });
          throw error;
        }
        progress(`${row.slug} ${name}: applications ready (${fixture.topic})`);
        const fault = CLUSTER_FAULTS[name];
        let result: PhaseResult | undefined;
        let error: unknown;
        try {
          result = await runFaultPhase(fixture, fault, {
            events: SIZE.phaseEvents,
            faultAt: FAULT_AT,
            exactTimeoutMs: SIZE.exactTimeoutMs,
            log: (line) => progress(`${row.slug} ${line}`),
          });
        } catch (e) {
          error = e;
          fixture.feed.hold();
        }
        if (dumpDir) {
          mkdirSync(dumpDir, { recursive: true });
          fixture.dumpOutputs(dumpDir, scenario);
        }
        const found = result ? problems(result, fixture) : [`the phase failed: ${String(error)}`];
        recordFigures(scenario, {
          ...figures,
          passed: found.length === 0,
          ...(result ?? { error: String(error) }),
          problems: found.slice(0, 20),
          wallSeconds: Math.round((Date.now() - wallStart) / 100) / 10,
        });
        expect(found).toEqual([]);
      },
    );
  },
);
