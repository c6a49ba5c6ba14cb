import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { casesOf, differentialSize } from './harness/differential-cases';
import { JavaDriverProcess } from './harness/java-driver-process';
import { runOurs } from './harness/our-driver-run';
import { compareResults } from './harness/result-comparison';
import { AWAITING_FIX, SCENARIOS } from './scenarios';

// Every scenario, on generated inputs, in Kafka Streams' TopologyTestDriver (one JVM for the
// whole suite) and in ours: output topics and final store contents must be equal. Size from
// the environment (see differential-cases.ts); `npm run test:differential -- --seeds 500`.

const size = differentialSize();
const scenarios = size.scenario
  ? [...SCENARIOS, ...AWAITING_FIX.map((a) => a.scenario)].filter((s) => s.name === size.scenario)
  : SCENARIOS;
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

describe.each(scenarios)('differential: $name', (scenario) => {
  it(
    `equals Kafka Streams' TopologyTestDriver on ${size.seeds} seed(s) x ${size.records} records`,
    async () => {
      const cases = casesOf(scenario, size);
      // The JVM works through the cases while ours run.
      const javaResults = cases.map((c) => java.run(c));
      const reports: string[] = [];
      const replay = (seed: number) =>
        `  replay: npm run test:differential -- --scenario ${scenario.name} --first-seed ${seed} --seeds 1 (cases in full: ${FAILURES_DIR})`;
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
      await Promise.allSettled(javaResults);
      expect({
        differing: `${reports.length} of ${cases.length} cases`,
        first: reports.slice(0, REPORTS_SHOWN),
      }).toEqual({ differing: `0 of ${cases.length} cases`, first: [] });
    },
    SCENARIO_TIMEOUT_MS,
  );
});
