/**
 * The event generator: a CLI (`node --import tsx apps/event-generator/src/main.ts --help`)
 * and a module (`EventGenerator`, `runGenerator`, the truth and event helpers) for tests and
 * the demo. It produces the example application's input, `{"userId": string, "amount":
 * number}` keyed by user id, repeatably from a seed, and keeps the true totals per user.
 */
// kafkajs with the engine's fixes (no TimeoutNegativeWarning on Node 24): importing
// @nest-streams/streams installs them, before anything loads kafkajs.
import '@nest-streams/streams';
import { writeFileSync } from 'node:fs';
import { EventGenerator } from './generator';
import { parseCliOptions, USAGE, UsageError } from './options';

export * from './events';
export * from './generator';
export * from './options';
export * from './pacing';
export * from './random';
export * from './topic';
export * from './truth';

/**
 * Runs the CLI with `argv` (without `node` and the script) and resolves to its exit code: 0
 * when the run completed, 1 when Kafka failed, 2 for a bad command line, 130 when SIGINT or
 * SIGTERM stopped it (the truth of what was sent is still written).
 */
export async function main(argv: readonly string[]): Promise<number> {
  let cli;
  try {
    cli = parseCliOptions(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`${error.message}\n\n${USAGE}\n`);
    return 2;
  }
  if (cli.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const o = cli.generator;
  const say = (line: string): void => {
    if (!cli.quiet) process.stderr.write(`[generator] ${line}\n`);
  };
  const stop = new AbortController();
  const onSignal = (): void => stop.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  const generator = new EventGenerator(o);
  const limits = [
    o.events !== undefined ? `${o.events} events` : undefined,
    o.durationMs !== undefined ? `${o.durationMs / 1000} s` : undefined,
  ].filter((x) => x !== undefined);
  say(
    `${limits.join(' or ')} for ${o.users} users to ${o.topic} at ${o.brokers.join(',')}` +
      `, ${o.rate ? `${o.rate}/s` : 'as fast as possible'}, seed ${o.seed}` +
      (o.malformed ? `, plus ${o.malformed} malformed` : ''),
  );
  let lastReport = 0;
  try {
    const summary = await generator.run(stop.signal, (p) => {
      if (p.elapsedMs - lastReport < 1000) return;
      lastReport = p.elapsedMs;
      say(`${p.events} events, ${p.malformed} malformed, ${(p.elapsedMs / 1000).toFixed(1)} s`);
    });
    say(
      `${summary.aborted ? 'stopped' : 'done'}: ${summary.events} events` +
        ` (${Math.round(summary.eventsPerSec)}/s) and ${summary.malformed} malformed` +
        ` for ${Object.keys(summary.truth.totals).length} users in` +
        ` ${(summary.elapsedMs / 1000).toFixed(1)} s` +
        (summary.topicStatus.created
          ? ` (created ${o.topic}, ${summary.topicStatus.partitions} partitions)`
          : ''),
    );
    return summary.aborted ? 130 : 0;
  } catch (error) {
    process.stderr.write(
      `[generator] failed after ${generator.truth.events} events: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    return 1;
  } finally {
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
    if (cli.truthFile !== undefined) {
      const json = `${JSON.stringify(generator.truth.report(), null, 2)}\n`;
      if (cli.truthFile === '-') process.stdout.write(json);
      else {
        writeFileSync(cli.truthFile, json);
        say(`truth written to ${cli.truthFile}`);
      }
    }
  }
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(
        `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
      );
      process.exitCode = 1;
    },
  );
}
