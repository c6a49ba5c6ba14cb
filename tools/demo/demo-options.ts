/** The demo's command line. */
import { parseArgs } from 'node:util';

/** Seconds of events in an interactive run (no `--duration`). */
export const INTERACTIVE_SECONDS = 30;

/** What the demo was asked for. */
export interface DemoOptions {
  /**
   * Seconds of event generation. With `--duration` the run is unattended: it ends after the
   * final check, exit code 0 when every answer matches the truth, 1 otherwise. Without it,
   * {@link INTERACTIVE_SECONDS} of events, then the survivor keeps serving until Ctrl-C.
   */
  readonly durationS: number;
  readonly unattended: boolean;
  /** Number of users (`user-001`..). */
  readonly users: number;
  /** Valid events per second. */
  readonly rate: number;
  readonly seed: number;
  /** Malformed records mixed in (the application must skip them). */
  readonly malformed: number;
  /** How many users the live table shows. */
  readonly show: number;
  /** Input topic wanted (a fresh one is used when it exists with data or other partitions). */
  readonly topic: string;
  readonly partitions: number;
  /** Keep the run's topics, consumer group, state directories and logs. */
  readonly keep: boolean;
  /** Seconds to wait for both instances to be ready. */
  readonly readyTimeoutS: number;
  /** Seconds the survivor has, after the last event, to answer every user correctly. */
  readonly settleTimeoutS: number;
  readonly help: boolean;
}

export const DEMO_USAGE = `usage: npm run demo [-- options]

Starts (or reuses) the local Kafka broker, two instances of apps/order-stats, produces order
events, shows live queries through both instances, stops one and shows the rebalance, then
checks every user's totals against the generator's.

  --duration S        unattended: S seconds of events, then exit 0 if every answer matches
                      the truth, 1 otherwise (default: ${INTERACTIVE_SECONDS} s, then serve until Ctrl-C)
  --users N           users user-001.. (default 20)
  --rate R            events per second (default 100)
  --seed N            seed of the events (default 42)
  --malformed N       malformed records mixed in, to be skipped (default 10)
  --show N            users in the live table (default 5)
  --topic NAME        input topic (default labs.events)
  --partitions N      its partitions (default 6)
  --ready-timeout S   wait for the instances to be ready (default 180)
  --settle-timeout S  wait for the final answers to be right (default 90)
  --keep              keep the run's topics, group, state directories and logs
  --help              this text

Environment: KAFKA_BROKERS to use an existing cluster instead of the local broker.`;

/** Parses the demo's arguments; throws an Error with a message for bad ones. */
export function parseDemoOptions(argv: readonly string[]): DemoOptions {
  const { values } = parseArgs({
    args: [...argv],
    strict: true,
    allowPositionals: false,
    options: {
      duration: { type: 'string' },
      users: { type: 'string' },
      rate: { type: 'string' },
      seed: { type: 'string' },
      malformed: { type: 'string' },
      show: { type: 'string' },
      topic: { type: 'string' },
      partitions: { type: 'string' },
      'ready-timeout': { type: 'string' },
      'settle-timeout': { type: 'string' },
      keep: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  const duration = positive('--duration', values.duration);
  return {
    durationS: duration ?? INTERACTIVE_SECONDS,
    unattended: duration !== undefined,
    users: integer('--users', values.users, 1) ?? 20,
    rate: positive('--rate', values.rate) ?? 100,
    seed: integer('--seed', values.seed, Number.MIN_SAFE_INTEGER) ?? 42,
    malformed: integer('--malformed', values.malformed, 0) ?? 10,
    show: integer('--show', values.show, 1) ?? 5,
    topic: values.topic ?? 'labs.events',
    partitions: integer('--partitions', values.partitions, 1) ?? 6,
    keep: values.keep ?? false,
    readyTimeoutS: positive('--ready-timeout', values['ready-timeout']) ?? 180,
    settleTimeoutS: positive('--settle-timeout', values['settle-timeout']) ?? 90,
    help: values.help ?? false,
  };
}

function positive(name: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value) || value <= 0) {
    throw new Error(`${name}: expected a number > 0, got '${text}'`);
  }
  return value;
}

function integer(name: string, text: string | undefined, min: number): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (text.trim() === '' || !Number.isSafeInteger(value) || value < min) {
    throw new Error(`${name}: expected an integer >= ${min}, got '${text}'`);
  }
  return value;
}
