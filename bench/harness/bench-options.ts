import { parseArgs } from 'node:util';
import {
  DEFAULT_KAFKA_CLIENT,
  type KafkaClientName,
  type ProcessingGuarantee,
} from '@nest-streams/streams';
import { CLIENT_NAMES, RENAMED_SYSTEMS } from './kafka-clients';

/**
 * The systems a run can measure (`--systems`, all by default): our engine on its default client,
 * @platformatic/kafka (`ours`), and on kafkajs (`ours-kafkajs`), the Java peer, each client's consume-only
 * and consume-and-produce ceilings (`kafkajs`, `platformatic`), the RocksDB ceiling, nodefluent.
 */
export const ALL_SYSTEMS = [
  'ours',
  'ours-kafkajs',
  'java',
  'kafkajs',
  'platformatic',
  'rocksdb',
  'nodefluent',
] as const;
export type SystemName = (typeof ALL_SYSTEMS)[number];
export const ALL_GUARANTEES: readonly ProcessingGuarantee[] = ['at_least_once', 'exactly_once_v2'];

/** Options of `npm run bench -- <scenario> [options]`. */
export interface BenchOptions {
  readonly scenario: string;
  /** Where the JSON goes (the SVG chart goes next to it); default bench/results/<scenario>.json. */
  readonly jsonFile: string | undefined;
  readonly events: number | undefined;
  readonly keys: number | undefined;
  readonly partitions: number | undefined;
  readonly seed: number;
  /** `commit.interval.ms` of both stream processors under at-least-once. */
  readonly commitIntervalMs: number;
  /** `commit.interval.ms` under exactly-once (Kafka Streams' default there: 100). */
  readonly eosCommitIntervalMs: number;
  /** `statestore.cache.max.bytes` of both stream processors. */
  readonly cacheMaxBytes: number;
  readonly systems: readonly SystemName[];
  readonly guarantees: readonly ProcessingGuarantee[];
  /** Per child process. */
  readonly timeoutMs: number;
  /** Echo the children's stderr. */
  readonly verbose: boolean;
  /** Run our workers with `--cpu-prof` into this folder. */
  readonly profileDir: string | undefined;
  /** `query`: timed in-process gets per system (after as many untimed, checked ones). */
  readonly gets: number;
  /** `query`: seconds of each HTTP load (autocannon). */
  readonly durationSeconds: number;
  /** `query`: concurrent HTTP connections of each load. */
  readonly connections: number;
  /** `query`: users per scatter-gather range request. */
  readonly rangeUsers: number;
  /** `memory`: the store counts to measure, ascending. */
  readonly storeCounts: readonly number[];
  /** `memory`: the bounded rows' RocksDB budget in MiB (ours and Java's, sized alike). */
  readonly rocksdbMemoryMb: number;
  /**
   * `aggregate`, `windowed`: another checkout of nest-streams (with its own node_modules), e.g.
   * the commit before a change; its worker runs as one more row per guarantee, `nest-streams
   * before`, in the same run.
   */
  readonly baseline: string | undefined;
  /**
   * `--baseline-client`: the client the baseline checkout's engine runs on (the engine's
   * default, @platformatic/kafka, unless given); its rows swap places with our engine's on the
   * same client. A checkout whose workers do not take `--kafka-client` (older than the option)
   * runs only with `--baseline-client kafkajs`.
   */
  readonly baselineClient: KafkaClientName;
  /**
   * `aggregate`, `windowed`: rounds per guarantee. Each round runs every stream processor once
   * (ours and the baseline in alternating order); each system's row is its median round, with
   * every round's events/s in its note.
   */
  readonly repeat: number;
  /**
   * `aggregate`, `windowed`: how many processes of one application our engine (and the
   * baseline) runs as, each count its own row (`--instances 1,2`: one instance, then two);
   * default 1. Instances start together, each with its own state directory; a row's time is
   * the slowest instance's.
   */
  readonly instances: readonly number[];
}

/** The usage line printed on a bad command line. */
export const USAGE = `usage: npm run bench -- <scenario> [--json FILE] [--events N] [--keys N] [--partitions N]
  [--seed N] [--commit-interval-ms N] [--eos-commit-interval-ms N] [--cache-max-bytes N]
  [--systems ${ALL_SYSTEMS.join(',')}] [--guarantees ${ALL_GUARANTEES.join(',')}]
  [--timeout-ms N] [--profile DIR] [--verbose] [--baseline CHECKOUT_DIR] [--repeat N]
  [--baseline-client ${CLIENT_NAMES.join('|')}] [--instances N,N,...]
  query:  [--gets N] [--duration-s N] [--connections N] [--range-users N]
  memory: [--stores N,N,...] [--rocksdb-memory-mb N]`;

/** Parses the command line; throws an Error with the usage on a mistake. */
export function parseBenchOptions(argv: readonly string[]): BenchOptions {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    strict: true,
    options: {
      json: { type: 'string' },
      events: { type: 'string' },
      keys: { type: 'string' },
      partitions: { type: 'string' },
      seed: { type: 'string' },
      'commit-interval-ms': { type: 'string' },
      'eos-commit-interval-ms': { type: 'string' },
      'cache-max-bytes': { type: 'string' },
      systems: { type: 'string' },
      guarantees: { type: 'string' },
      'timeout-ms': { type: 'string' },
      profile: { type: 'string' },
      verbose: { type: 'boolean' },
      gets: { type: 'string' },
      'duration-s': { type: 'string' },
      connections: { type: 'string' },
      'range-users': { type: 'string' },
      stores: { type: 'string' },
      baseline: { type: 'string' },
      'baseline-client': { type: 'string' },
      repeat: { type: 'string' },
      instances: { type: 'string' },
      'rocksdb-memory-mb': { type: 'string' },
    },
  });
  if (positionals.length !== 1) throw new Error(`expected one scenario\n${USAGE}`);
  const int = (name: string, raw: string | undefined, min: number): number | undefined => {
    if (raw === undefined) return undefined;
    const value = Number(raw.replace(/_/g, ''));
    if (!Number.isInteger(value) || value < min) {
      throw new Error(`--${name} must be an integer >= ${min}, got '${raw}'\n${USAGE}`);
    }
    return value;
  };
  const list = <T extends string>(
    name: string,
    raw: string | undefined,
    all: readonly T[],
  ): T[] => {
    if (raw === undefined) return [...all];
    const items = raw.split(',').map((s) => s.trim());
    for (const item of items) {
      if (RENAMED_SYSTEMS[item] !== undefined) {
        throw new Error(`--${name}: '${item}' is now ${RENAMED_SYSTEMS[item]}\n${USAGE}`);
      }
      if (!all.includes(item as T)) {
        throw new Error(`--${name}: unknown '${item}' (one of ${all.join(', ')})\n${USAGE}`);
      }
    }
    return items as T[];
  };
  return {
    scenario: positionals[0],
    jsonFile: values.json,
    events: int('events', values.events, 1),
    keys: int('keys', values.keys, 1),
    partitions: int('partitions', values.partitions, 1),
    seed: int('seed', values.seed, 0) ?? 42,
    commitIntervalMs: int('commit-interval-ms', values['commit-interval-ms'], 1) ?? 1000,
    eosCommitIntervalMs: int('eos-commit-interval-ms', values['eos-commit-interval-ms'], 1) ?? 100,
    cacheMaxBytes: int('cache-max-bytes', values['cache-max-bytes'], 0) ?? 10_485_760,
    systems: list('systems', values.systems, ALL_SYSTEMS),
    guarantees: list('guarantees', values.guarantees, ALL_GUARANTEES),
    timeoutMs: int('timeout-ms', values['timeout-ms'], 1000) ?? 300_000,
    verbose: values.verbose ?? false,
    profileDir: values.profile,
    gets: int('gets', values.gets, 1) ?? 100_000,
    durationSeconds: int('duration-s', values['duration-s'], 1) ?? 5,
    connections: int('connections', values.connections, 1) ?? 10,
    rangeUsers: int('range-users', values['range-users'], 1) ?? 1_000,
    storeCounts: ascendingCounts('stores', values.stores, [1, 10, 50, 200], 500),
    baseline: values.baseline,
    baselineClient: baselineClient(values['baseline-client']),
    repeat: int('repeat', values.repeat, 1) ?? 1,
    rocksdbMemoryMb: int('rocksdb-memory-mb', values['rocksdb-memory-mb'], 16) ?? 64,
    instances: ascendingCounts('instances', values.instances, [1], 8),
  };
}

/** `--baseline-client`: one of the engine's clients, the engine's default unless given. */
function baselineClient(raw: string | undefined): KafkaClientName {
  if (raw === undefined) return DEFAULT_KAFKA_CLIENT;
  const client = CLIENT_NAMES.find((name) => name === raw.trim());
  if (!client) {
    throw new Error(
      `--baseline-client must be one of ${CLIENT_NAMES.join(', ')}, got '${raw}'\n${USAGE}`,
    );
  }
  return client;
}

/** `--stores 1,10,50`, `--instances 1,2`: distinct integers in 1..max, sorted ascending. */
function ascendingCounts(
  name: string,
  raw: string | undefined,
  fallback: readonly number[],
  max: number,
): number[] {
  if (raw === undefined) return [...fallback];
  const counts = raw.split(',').map((s) => Number(s.trim()));
  if (counts.some((n) => !Number.isInteger(n) || n < 1 || n > max)) {
    throw new Error(`--${name} must list integers in 1..${max}, got '${raw}'\n${USAGE}`);
  }
  return [...new Set(counts)].sort((a, b) => a - b);
}
