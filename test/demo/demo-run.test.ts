import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Kafka, logLevel } from 'kafkajs';
import { parseDemoOptions, type DemoOptions } from '../../tools/demo/demo-options';
import { DemoRuntime, runDemo, type DemoOutcome } from '../../tools/demo/orchestrator';
import { processAlive } from '../../tools/demo/processes';
import { brokers, randomSuffix } from '../support/kafka-test-context';

/**
 * The demo's orchestration end to end against the real broker, with a STUB application
 * (test/demo/fixtures/stub-order-stats.ts) standing in for apps/order-stats: the phases, the
 * verdict and its exit code, Ctrl-C, a failing start, and that nothing is left behind.
 */
const STUB = join(__dirname, 'fixtures', 'stub-order-stats.ts');
const REPO_ROOT = join(__dirname, '..', '..');

interface Run {
  outcome: DemoOutcome;
  output: string;
  runtime: DemoRuntime;
  topic: string;
}

async function runWithStub(
  argv: string[],
  stubArgs: string[] = [],
  stopWhen?: (output: string) => boolean,
): Promise<Run> {
  const topic = `test-demo-${randomSuffix()}`;
  const options: DemoOptions = { ...parseDemoOptions(argv), topic };
  const runtime = new DemoRuntime();
  const stop = new AbortController();
  let output = '';
  const out = {
    isTTY: false,
    write: (text: string): boolean => {
      output += text;
      if (stopWhen?.(output) && !stop.signal.aborted) stop.abort();
      return true;
    },
  };
  const outcome = await runDemo(
    {
      options,
      repoRoot: REPO_ROOT,
      app: { command: process.execPath, args: ['--import', 'tsx', STUB, ...stubArgs] },
      out,
      color: false,
      runtime,
      env: { KAFKA_BROKERS: brokers().join(',') },
      preferredPorts: [],
    },
    stop.signal,
  );
  return { outcome, output, runtime, topic };
}

/** Nothing the run started is alive, and its topics, groups and state are gone. */
async function expectNothingLeft(run: Run): Promise<void> {
  expect(run.runtime.supervisor.started.length).toBeGreaterThan(0);
  for (const child of run.runtime.supervisor.started) {
    expect(child.alive).toBe(false);
    expect(processAlive(child.pid!)).toBe(false);
  }
  const applicationId = /APPLICATION_ID=(\S+),/.exec(run.output)?.[1];
  expect(applicationId).toMatch(/^labs-streams-demo-\d{8}-\d{6}$/);
  const admin = new Kafka({ brokers: brokers(), logLevel: logLevel.NOTHING }).admin();
  await admin.connect();
  try {
    const topics = await admin.listTopics();
    expect(topics.filter((t) => t === run.topic || t.startsWith(`${applicationId}-`))).toEqual([]);
    const groups = (await admin.listGroups()).groups.map((g) => g.groupId);
    expect(groups.filter((g) => g.startsWith(applicationId!))).toEqual([]);
  } finally {
    await admin.disconnect();
  }
  // A failed or stopped run keeps its instance logs for the user: not needed here.
  const runDir = /their state and logs: (\S+)/.exec(run.output)?.[1];
  if (runDir) rmSync(runDir, { recursive: true, force: true });
}

describe('npm run demo, orchestrated around a stub application', () => {
  it('runs every phase unattended and exits 0 when every answer matches the truth', async () => {
    const run = await runWithStub(['--duration', '6', '--users', '8', '--rate', '80']);
    expect(run.outcome.code).toBe(0);
    expect(run.outcome.comparison).toMatchObject({ ok: true, users: 8, matched: 8 });
    expect(run.outcome.truth).toMatchObject({ events: 480, malformed: 10, topic: run.topic });
    for (const expected of [
      `created topic ${run.topic} (6 partitions)`,
      'both instances ready',
      'SIGTERM → B',
      'B exited (code 0)',
      'rebalance over: A answers every key itself',
      'generator done: 480 events and 10 malformed records',
      "✓ all 8 users match the generator's truth: 480 events, 10 malformed records skipped",
      'stopping instance(s) A (SIGTERM)',
    ]) {
      expect(run.output).toContain(expected);
    }
    // The first answer of each kind is logged once, for whichever user the poller asked first
    // (a user may have no event yet at the first poll).
    expect(run.output).toMatch(/via A user-\d{3}: local \(X-Served-By: 127\.0\.0\.1:\d+\)/);
    expect(run.output).toMatch(/via B user-\d{3}: down \(ECONNREFUSED\)/);
    // Live frames: the table of users through both instances.
    expect(run.output).toMatch(/user-001 +\d+ +[\d,]+ +[\d,.]+ +local/);
    const runDir = /their state and logs: (\S+)/.exec(run.output)![1];
    expect(existsSync(runDir)).toBe(false);
    await expectNothingLeft(run);
  });

  it('exits 1 and names the user when a final answer is wrong', async () => {
    const run = await runWithStub(
      [
        '--duration',
        '3',
        '--users',
        '4',
        '--rate',
        '50',
        '--malformed',
        '0',
        '--settle-timeout',
        '2',
      ],
      ['--wrong'],
    );
    expect(run.outcome.code).toBe(1);
    expect(run.outcome.comparison?.ok).toBe(false);
    expect(run.outcome.comparison?.mismatches.map((m) => m.userId)).toEqual(['user-001']);
    expect(run.output).toContain('✗ 1 of 4 users differ from the truth');
    expect(run.output).toMatch(/user-001: expected count \d+, sum [\d.]+; got count \d+/);
    expect(run.output).toContain('instance logs kept in');
    await expectNothingLeft(run);
  });

  it('on Ctrl-C stops the instances and cleans up, exit code 130', async () => {
    const run = await runWithStub(['--duration', '60', '--users', '4'], [], (output) =>
      output.includes('both instances ready'),
    );
    expect(run.outcome.code).toBe(130);
    expect(run.output).toContain('stopped.');
    await expectNothingLeft(run);
  });

  it('exits 1 with the instance output when the application fails to start', async () => {
    const run = await runWithStub(
      ['--duration', '5', '--ready-timeout', '30'],
      ['--exit-before-ready'],
    );
    expect(run.outcome.code).toBe(1);
    expect(run.output).toMatch(/demo failed: instance [AB] exited \(code 3\) before it was ready/);
    expect(run.output).toContain('stub: asked to fail before being ready');
    await expectNothingLeft(run);
  });
});
