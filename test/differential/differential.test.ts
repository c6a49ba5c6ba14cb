import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { DifferentialCase } from './harness/differential-case';
import { casesOf, differentialSize } from './harness/differential-cases';
import { JavaDriverProcess } from './harness/java-driver-process';
import { runOurs } from './harness/our-driver-run';
import { compareResults } from './harness/result-comparison';
import type { DifferentialScenario } from './harness/scenario';
import { AWAITING_FIX, SCENARIOS } from './scenarios';

// Every scenario, on generated inputs, in Kafka Streams' TopologyTestDriver (one JVM for the
// whole suite) and in ours: output topics and final store contents must be equal. Size from
// the environment (see differential-cases.ts); `npm run test:differential -- --seeds 500`.

const size = differentialSize();
// `--scenario NAME` runs that scenario as a regular one, an awaiting one included (to see its
// difference); without it, every scenario, and every awaiting one on its differing seeds.
const named = (s: DifferentialScenario) => s.name === size.scenario;
const scenarios = size.scenario
  ? [...SCENARIOS, ...AWAITING_FIX.map((a) => a.scenario)].filter(named)
  : SCENARIOS;
const awaiting = size.scenario ? [] : AWAITING_FIX;
if (scenarios.length === 0) throw new Error(`no differential scenario named '${size.scenario}'`);
/** Where the cases that differ are written in full (the case and both results). */
const FAILURES_DIR = resolve(__dirname, '..', '..', '.test-results', 'differential');
const REPORTS_SHOWN = 3;
/** A scenario's time budget: 15 minutes, or 5 s per seed for long runs (two cores, shared). */
const SCENARIO_TIMEOUT_MS = Math.max(900_000, size.seeds * 5_000);

let java: JavaDriverProcess;
beforeAll(() => {
  java = JavaDriverProcess.start((line) => process.stdout.write(`[differential] ${line}\n`));
}, 900_000);
afterAll(async () => {
  await java?.close();
});

/** Runs `cases` on both sides; one report per case that differs (written in full to disk). */
async function differingCases(
  scenario: DifferentialScenario,
  cases: readonly DifferentialCase[],
): Promise<string[]> {
  // The JVM works through the cases while ours run.
  const javaResults = cases.map((c) => java.run(c));
  const reports: string[] = [];
  const replay = (seed: number) =>
    `  replay: npm run test:differential -- --scenario ${scenario.name} --first-seed ${seed} --seeds 1 (cases in full: ${FAILURES_DIR})`;
  try {
    for (const [i, testCase] of cases.entries()) {
      const ours = await runOurs(scenario, testCase);
      const theirs = await javaResults[i];
      const report = compareResults(scenario, testCase, theirs, ours);
      if (!report) continue;
      reports.push(`${report}\n${replay(testCase.seed)}`);
      mkdirSync(FAILURES_DIR, { recursive: true });
      const file = join(FAILURES_DIR, `${testCase.id.replace(/[#/]/g, '_')}.json`);
      writeFileSync(file, JSON.stringify({ case: testCase, java: theirs, ours }, null, 1));
    }
  } finally {
    await Promise.allSettled(javaResults);
  }
  return reports;
}

describe.each(scenarios)('differential: $name', (scenario) => {
  it(
    `equals Kafka Streams' TopologyTestDriver on ${size.seeds} seed(s) x ${size.records} records`,
    async () => {
      const cases = casesOf(scenario, size);
      const reports = await differingCases(scenario, cases);
      expect({
        differing: `${reports.length} of ${cases.length} cases`,
        first: reports.slice(0, REPORTS_SHOWN),
      }).toEqual({ differing: `0 of ${cases.length} cases`, first: [] });
    },
    SCENARIO_TIMEOUT_MS,
  );
});

// A scenario awaiting a fix must still differ on the seeds its entry names: once it equals
// Java there, this fails, and the scenario moves to SCENARIOS.
// (Jest refuses an empty table.)
if (awaiting.length > 0) {
  describe.each(awaiting)('differential, awaiting a fix: $scenario.name', (entry) => {
    it(`still differs from Kafka Streams on seed(s) ${entry.seeds.join(', ')}`, async () => {
      const cases = entry.seeds.flatMap((seed) =>
        casesOf(entry.scenario, { ...size, firstSeed: seed, seeds: 1 }),
      );
      const reports = await differingCases(entry.scenario, cases);
      expect({
        scenario: entry.scenario.name,
        differs: reports.length > 0 ? 'yes' : 'no: equal to Java now, move it to SCENARIOS',
      }).toEqual({ scenario: entry.scenario.name, differs: 'yes' });
    });
  });
}
