import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { KafkaClientName } from '@nest-streams/streams';
import type { Admin } from 'kafkajs';

/**
 * What a worker prints as its last stdout line (one JSON object). `records` is what it
 * processed (or restored), `seconds` the measured span; store-backed workers dump their final
 * store to the dump file for the harness to check.
 */
export interface WorkerResult {
  readonly records: number;
  readonly seconds: number;
  readonly peakRssMb: number;
  /** Entries the worker read back from its store or counted. */
  readonly storeEntries?: number;
  /** Checks the worker could do itself (0 when it has none). */
  readonly mismatches?: number;
  readonly firstMismatch?: string;
  /** Anything else worth keeping: bytes consumed, changelog records... */
  readonly details?: Readonly<Record<string, number | string>>;
}

/** Prints the result line (the harness reads the last JSON line of stdout). */
export function emitResult(result: WorkerResult): void {
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

/** This process's peak resident set size (VmHWM of /proc/self/status), in MiB. */
export function peakRssMb(): number {
  try {
    const match = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'));
    if (match) return Number(match[1]) / 1024;
  } catch {
    // not Linux
  }
  return process.memoryUsage().rss / (1024 * 1024);
}

/**
 * Parses `--name value` options; every name in `names` is required, those in `optional` may be
 * left out. Unknown options are refused.
 */
export function requiredOptions<N extends string, O extends string = never>(
  names: readonly N[],
  optional: readonly O[] = [],
): Record<N, string> & Partial<Record<O, string>> {
  const { values } = parseArgs({
    options: Object.fromEntries(
      [...names, ...optional].map((n) => [n, { type: 'string' as const }]),
    ),
    strict: true,
  });
  const result = {} as Record<N, string> & Partial<Record<O, string>>;
  for (const name of names) {
    const value = values[name];
    if (typeof value !== 'string') throw new Error(`missing --${name}`);
    (result as Record<string, string>)[name] = value;
  }
  for (const name of optional) {
    const value = values[name];
    if (typeof value === 'string') (result as Record<string, string>)[name] = value;
  }
  return result;
}

/**
 * `--kafka-client`: the engine's Kafka client (`streams.kafkaClient`) as a config fragment;
 * kafkajs when the option is absent (the harness passes none for kafkajs, see `clientArgs`), not
 * the engine's default (now `@platformatic/kafka`).
 */
export function kafkaClientConfig(raw: string | undefined): { kafkaClient: KafkaClientName } {
  if (raw === undefined) return { kafkaClient: 'kafkajs' };
  if (raw !== 'kafkajs' && raw !== '@platformatic/kafka') {
    throw new Error(`--kafka-client must be kafkajs or @platformatic/kafka, got ${raw}`);
  }
  return { kafkaClient: raw };
}

/** End offsets per partition of `topic`. */
export async function endOffsets(admin: Admin, topic: string): Promise<Map<number, number>> {
  const offsets = await admin.fetchTopicOffsets(topic);
  return new Map(offsets.map((p) => [p.partition, Number(p.high)]));
}

/** Whether `groupId` has committed offsets at or past every end offset of `topic`. */
export async function committedAll(
  admin: Admin,
  groupId: string,
  topic: string,
  ends: ReadonlyMap<number, number>,
): Promise<boolean> {
  const [committed] = await admin.fetchOffsets({ groupId, topics: [topic] });
  const byPartition = new Map(committed.partitions.map((p) => [p.partition, Number(p.offset)]));
  for (const [partition, end] of ends) {
    if (end > 0 && (byPartition.get(partition) ?? -1) < end) return false;
  }
  return true;
}

/** Resolves after `ms`. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
