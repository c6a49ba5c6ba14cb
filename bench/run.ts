/**
 * The benchmark harness: `npm run bench -- <scenario> [--json FILE] [--events N] [--keys N]
 * [--partitions N] ...` (see USAGE in harness/bench-options.ts).
 *
 * One run generates the input once from a seed, produces it to a fresh topic of the local
 * broker (KAFKA_BROKERS, else the project's broker, started if needed and then stopped), and
 * measures every system on it, each in its own child process: nest-streams (on kafkajs and on
 * @platformatic/kafka) and the Java Kafka Streams peer under both guarantees, each client's
 * consumption ceilings and the RocksDB write ceiling.
 * Every system's final state is checked against the truth before its speed counts; a wrong
 * answer or a crash makes the run exit with 1. Prints a table, writes the JSON of DESIGN.md
 * and an SVG bar chart next to it, then deletes the run's topics, groups and state.
 */
// kafkajs with the engine's fixes (no TimeoutNegativeWarning on Node 24): importing
// @nest-streams/streams installs them, before anything loads kafkajs.
import '@nest-streams/streams';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { acquireBroker } from './harness/bench-broker';
import { parseBenchOptions, USAGE } from './harness/bench-options';
import type { BenchReport } from './harness/bench-report';
import { BenchTopics } from './harness/bench-topics';
import { buildJavaPeer, type JavaPeerCommand } from './harness/java-peer';
import { machineInfo } from './harness/machine-info';
import { REPO_ROOT } from './harness/node-worker';
import type { RunContext } from './harness/run-context';
import { svgChart, type BarKind } from './harness/svg-chart';
import type { SystemRole, SystemRow } from './harness/system-row';
import { formatTable } from './harness/table';
import { aggregateScenario } from './scenarios/aggregate';
import { crashRestoreScenario } from './scenarios/crash-restore';
import { memoryScenario } from './scenarios/memory';
import { queryScenario } from './scenarios/query';
import { restoreScenario } from './scenarios/restore';
import type { Scenario } from './scenarios/scenario';
import { windowedScenario } from './scenarios/windowed';

const SCENARIOS: ReadonlyMap<string, Scenario> = new Map(
  [
    aggregateScenario,
    windowedScenario,
    restoreScenario,
    crashRestoreScenario,
    queryScenario,
    memoryScenario,
  ].map((s) => [s.name, s]),
);

const log = (line: string): void => {
  process.stderr.write(`[bench] ${line}\n`);
};

async function main(): Promise<number> {
  if (process.argv[2] === 'store') {
    // The storage-engine scenario needs no broker: bench/store/store-bench.ts runs each engine in
    // its own process (the two RocksDB bindings cannot share one).
    const { spawnSync } = await import('node:child_process');
    const script = join(REPO_ROOT, 'bench', 'store', 'store-bench.ts');
    const child = spawnSync(
      process.execPath,
      ['--import', 'tsx', script, ...process.argv.slice(3)],
      {
        stdio: 'inherit',
      },
    );
    return child.status ?? 1;
  }
  let options;
  try {
    options = parseBenchOptions(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    return 2;
  }
  const scenario = SCENARIOS.get(options.scenario);
  if (!scenario) {
    process.stderr.write(
      `unknown scenario '${options.scenario}' (one of ${[...SCENARIOS.keys()].join(', ')})\n${USAGE}\n`,
    );
    return 2;
  }
  const machine = machineInfo();
  const broker = await acquireBroker(log);
  const runPrefix = `bench-${scenario.name}-${Date.now().toString(36)}`;
  const workDir = mkdtempSync(join(tmpdir(), `${runPrefix}-`));
  const topics = new BenchTopics(broker.brokers, runPrefix);
  let javaPeer: JavaPeerCommand | undefined;
  const ctx: RunContext = {
    options,
    brokers: broker.brokers,
    topics,
    runPrefix,
    workDir,
    log,
    javaPeer: () => (javaPeer ??= buildJavaPeer(log)),
  };
  if (options.profileDir) mkdirSync(options.profileDir, { recursive: true });

  let rows: readonly SystemRow[] = [];
  let params: Readonly<Record<string, unknown>> = {};
  const started = Date.now();
  try {
    const outcome = await scenario.run(ctx);
    rows = outcome.rows;
    params = outcome.params;
  } finally {
    log('cleaning up the run topics, groups and state...');
    const removed = await topics.cleanup().catch((error: unknown) => {
      log(`cleanup failed: ${String(error)}`);
      return { topics: [], groups: [] };
    });
    log(`deleted ${removed.topics.length} topics and ${removed.groups.length} groups`);
    await topics.close().catch(() => undefined);
    rmSync(workDir, { recursive: true, force: true });
    await broker.release();
  }

  const report: BenchReport = {
    scenario: scenario.name,
    params: {
      ...params,
      description: scenario.description,
      commitIntervalMs: {
        at_least_once: options.commitIntervalMs,
        exactly_once_v2: options.eosCommitIntervalMs,
      },
      statestoreCacheMaxBytes: options.cacheMaxBytes,
      machine,
      wallSeconds: Math.round((Date.now() - started) / 1000),
      failures: rows
        .filter((r) => r.failure)
        .map((r) => ({ system: r.system, failure: r.failure })),
      notes: rows.filter((r) => r.note).map((r) => ({ system: r.system, note: r.note })),
      kafkaClients: Object.fromEntries(
        rows.filter((r) => r.client).map((r) => [r.system, r.client]),
      ),
      loadAverage1m: Object.fromEntries(
        rows.filter((r) => r.loadAverage).map((r) => [r.system, r.loadAverage]),
      ),
    },
    results: rows.map((row) => row.result ?? { system: row.system }),
  };

  const jsonFile = resolve(
    options.jsonFile ?? join(REPO_ROOT, 'bench', 'results', `${scenario.name}.json`),
  );
  mkdirSync(dirname(jsonFile), { recursive: true });
  writeFileSync(jsonFile, `${JSON.stringify(report, null, 2)}\n`);
  const svgFile = jsonFile.replace(/\.json$/i, '') + '.svg';
  const presentation = scenario.presentation;
  const sizes = `${Number(params.events).toLocaleString('en-US')} events, ${String(params.partitions ?? '?')} partitions`;
  const subtitle = `${machine.nproc} x ${machine.cpuModel}, Node ${machine.node}, Java ${machine.java}, Kafka ${machine.kafka}; ${sizes}`;
  writeFileSync(
    svgFile,
    presentation
      ? svgChart(
          `${scenario.name}: ${presentation.chartTitle}`,
          subtitle,
          presentation.bars(rows),
          {
            logScale: presentation.logScale,
          },
        )
      : svgChart(
          `${scenario.name}: events per second (higher is better)`,
          subtitle,
          rows.map((row) => ({
            label: row.system,
            kind: barKind(row.role),
            value: row.result?.eventsPerSec,
            missing: row.failure ? 'FAILED' : row.result ? 'no rate (see seconds)' : 'not measured',
          })),
        ),
  );

  process.stdout.write(
    `\n${scenario.name}: ${scenario.description}\n` +
      `machine: ${machine.nproc} x ${machine.cpuModel}, ${machine.memoryGiB} GiB, Node ${machine.node}, Java ${machine.java}, Kafka ${machine.kafka} (load ${machine.loadAverageAtStart} at start)\n\n` +
      `${presentation ? presentation.table(rows) : formatTable(rows)}\n\n` +
      `${presentation ? presentation.legend : `vs Java: events/s over the Java peer's with the same guarantee (ceilings: over Java at_least_once). % of ceiling: events/s over the consume-only ceiling of the row's own client (kafkajs or @platformatic/kafka; kafkajs for rows without a Node client).`}\n` +
      `JSON: ${jsonFile}\nchart: ${svgFile}\n`,
  );
  const failures = rows.filter((r) => r.failure);
  for (const row of failures) process.stderr.write(`\nFAILED ${row.system}:\n${row.failure}\n`);
  return failures.length > 0 ? 1 : 0;
}

function barKind(role: SystemRole): BarKind {
  if (role === 'ours' || role === 'java') return role;
  if (role === 'consume-ceiling' || role === 'pipe-ceiling' || role === 'store-ceiling')
    return 'ceiling';
  return 'other';
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(
      `bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  },
);
