/**
 * `npm run demo [-- --duration <s>]`: the example application end to end on this machine.
 * Starts (or reuses) the local Kafka broker, builds the application when needed, runs two
 * instances of apps/order-stats, produces events, shows live queries through both, stops one
 * and shows the rebalance, then checks every user's totals against the generator's truth.
 *
 * Ctrl-C stops everything the demo started (a second Ctrl-C, a second later, kills at once).
 * With `--duration` the run is unattended: exit code 0 when every final answer matches the
 * truth, 1 otherwise. See `npm run demo -- --help`.
 */
// kafkajs with the engine's fixes (no TimeoutNegativeWarning on Node 24): importing
// @nest-streams/streams installs them, before anything loads kafkajs.
import '@nest-streams/streams';
import { join, resolve } from 'node:path';
import { DEMO_USAGE, parseDemoOptions, type DemoOptions } from './demo-options';
import { DemoRuntime, runDemo } from './orchestrator';
import { installSignalHandlers } from './processes';

const REPO_ROOT = resolve(__dirname, '..', '..');
/** The example application, as `npm run build` leaves it. */
const APP_ENTRY = join(REPO_ROOT, 'dist', 'apps', 'order-stats', 'main.js');

async function main(argv: readonly string[]): Promise<number> {
  let options: DemoOptions;
  try {
    options = parseDemoOptions(argv);
  } catch (error) {
    process.stderr.write(
      `${error instanceof Error ? error.message : String(error)}\n\n${DEMO_USAGE}\n`,
    );
    return 2;
  }
  if (options.help) {
    process.stdout.write(`${DEMO_USAGE}\n`);
    return 0;
  }

  const runtime = new DemoRuntime();
  const stop = new AbortController();
  const removeHandlers = installSignalHandlers(
    (signal) => {
      process.stderr.write(
        `\n[demo] ${signal}: stopping everything this demo started (again to kill at once)...\n`,
      );
      stop.abort();
    },
    () => {
      process.stderr.write('\n[demo] killing everything this demo started, now.\n');
      runtime.killEverythingNow();
      process.exit(130);
    },
  );
  // Last resort: whatever way this process ends, nothing it started stays.
  process.on('exit', () => runtime.killEverythingNow());
  try {
    const outcome = await runDemo(
      {
        options,
        repoRoot: REPO_ROOT,
        app: { command: process.execPath, args: [APP_ENTRY] },
        buildOutput: APP_ENTRY,
        out: process.stdout,
        color: process.stdout.isTTY === true && !process.env.NO_COLOR,
        runtime,
      },
      stop.signal,
    );
    return outcome.code;
  } finally {
    removeHandlers();
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
    // Everything is stopped; do not wait for a straggling socket or timer.
    setTimeout(() => process.exit(code), 2000).unref();
  },
  (error: unknown) => {
    process.stderr.write(
      `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  },
);
