import { parseArgs } from 'node:util';
import { DEFAULT_PARTITIONS, type GeneratorOptions } from './generator';

/** The CLI's usage text. */
export const USAGE = `usage: node --import tsx apps/event-generator/src/main.ts [options]

Produces order events {"userId": string, "amount": number} (key = userId, record timestamp =
event time) for N users, repeatably from a seed, and reports the true totals per user.

  --brokers LIST      bootstrap servers (default $KAFKA_BROKERS or 127.0.0.1:9092)
  --topic NAME        topic (default labs.events; created with --partitions if missing)
  --partitions N      partitions of a topic the generator creates (default ${DEFAULT_PARTITIONS})
  --users N           number of users, user-001.. (default 10)
  --events N          stop after N valid events (default 1000 when no --duration)
  --duration S        stop after S seconds (with --events: whichever comes first)
  --rate R            valid events per second (default: as fast as possible)
  --seed N            seed of the event sequence (default 42)
  --malformed N       also send N malformed records (bad JSON, wrong types) to be skipped
  --start-time MS     repeatable timestamps: event i at MS + i * --step-ms (default: now)
  --step-ms MS        step between repeatable timestamps (default 0)
  --batch-size N      records per produce request (default 500)
  --truth FILE        write the true totals as JSON to FILE ('-' for stdout)
  --quiet             no progress lines on stderr
  --help              this text`;

/** What the command line asked for. */
export interface CliOptions {
  readonly generator: GeneratorOptions;
  /** Where to write the truth JSON: a file, '-' for stdout, or nowhere. */
  readonly truthFile?: string;
  readonly quiet: boolean;
  readonly help: boolean;
}

/** A command line that cannot run; the message says why. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/**
 * Parses the generator's command line (without `node` and the script). Throws a
 * {@link UsageError} for unknown options or bad values.
 */
export function parseCliOptions(
  argv: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): CliOptions {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        brokers: { type: 'string' },
        topic: { type: 'string' },
        partitions: { type: 'string' },
        users: { type: 'string' },
        events: { type: 'string' },
        duration: { type: 'string' },
        rate: { type: 'string' },
        seed: { type: 'string' },
        malformed: { type: 'string' },
        'start-time': { type: 'string' },
        'step-ms': { type: 'string' },
        'batch-size': { type: 'string' },
        truth: { type: 'string' },
        quiet: { type: 'boolean', default: false },
        help: { type: 'boolean', default: false },
      },
    }));
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }

  const brokers = (values.brokers ?? env.KAFKA_BROKERS ?? '127.0.0.1:9092')
    .split(',')
    .map((b) => b.trim())
    .filter((b) => b !== '');
  if (brokers.length === 0) throw new UsageError('--brokers: no broker given');
  const duration = number('--duration', values.duration, { min: 0 });
  let events = integer('--events', values.events, 0);
  if (events === undefined && duration === undefined) events = 1000;
  const rate = number('--rate', values.rate, { min: 0 });

  return {
    generator: {
      brokers,
      topic: values.topic ?? 'labs.events',
      partitions: integer('--partitions', values.partitions, 1) ?? DEFAULT_PARTITIONS,
      users: integer('--users', values.users, 1) ?? 10,
      events,
      durationMs: duration === undefined ? undefined : duration * 1000,
      rate: rate === 0 ? undefined : rate,
      seed: integer('--seed', values.seed, Number.MIN_SAFE_INTEGER) ?? 42,
      malformed: integer('--malformed', values.malformed, 0) ?? 0,
      startTime: integer('--start-time', values['start-time'], 0),
      stepMs: integer('--step-ms', values['step-ms'], 0),
      batchSize: integer('--batch-size', values['batch-size'], 1),
    },
    truthFile: values.truth,
    quiet: values.quiet ?? false,
    help: values.help ?? false,
  };
}

function number(
  name: string,
  text: string | undefined,
  { min }: { min: number },
): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value) || value < min) {
    throw new UsageError(`${name}: expected a number >= ${min}, got '${text}'`);
  }
  return value;
}

function integer(name: string, text: string | undefined, min: number): number | undefined {
  const value = number(name, text, { min });
  if (value !== undefined && !Number.isSafeInteger(value)) {
    throw new UsageError(`${name}: expected an integer, got '${text}'`);
  }
  return value;
}
