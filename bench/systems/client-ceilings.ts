import type { KafkaClientName } from '@nest-streams/streams';
import { runChild } from '../harness/child-process';
import { rowFromWorker } from '../harness/child-row';
import { nodeWorker } from '../harness/node-worker';
import type { RunContext } from '../harness/run-context';
import type { SystemRow } from '../harness/system-row';

/** A Node Kafka client's ceilings: its worker, and the names of its rows, groups and topics. */
interface ClientCeiling {
  /** `bench/workers/<worker>.ts`. */
  readonly worker: string;
  /** Prefix of the ceiling's consumer groups and pipe topic (after the run prefix). */
  readonly tag: string;
}

const CEILINGS: Readonly<Record<KafkaClientName, ClientCeiling>> = {
  kafkajs: { worker: 'kafkajs-consume-worker', tag: 'kafkajs' },
  '@platformatic/kafka': { worker: 'platformatic-consume-worker', tag: 'platformatic' },
};

/** The label of a client's consumption ceiling: `kafkajs consume only (ceiling)`. */
export function consumeCeilingLabel(client: KafkaClientName): string {
  return `${client} consume only (ceiling)`;
}

/** The label of a client's consume-and-produce ceiling. */
export function pipeCeilingLabel(client: KafkaClientName): string {
  return `${client} consume + produce every record (ceiling)`;
}

/** Runs the client's consume worker in group `<run>-<name>`, piping to `pipe.topic` if given. */
function runConsumeWorker(
  ctx: RunContext,
  client: KafkaClientName,
  inputTopic: string,
  name: string,
  pipe?: { topic: string },
): ReturnType<typeof runChild> {
  const args = [
    '--bootstrap-servers',
    ctx.brokers,
    '--input-topic',
    inputTopic,
    '--group-id',
    `${ctx.runPrefix}-${name}`,
    '--timeout-ms',
    String(ctx.options.timeoutMs),
    ...(pipe ? ['--pipe-topic', pipe.topic] : []),
  ];
  return runChild(
    nodeWorker(CEILINGS[client].worker, args, {
      label: name,
      timeoutMs: ctx.options.timeoutMs + 60_000,
      verbose: ctx.options.verbose,
      profileDir: pipe ? ctx.options.profileDir : undefined,
    }),
  );
}

/** Why the worker's consumed value bytes are wrong, or undefined. */
function bytesProblem(bytes: unknown, expected: number): string | undefined {
  return bytes === expected
    ? undefined
    : `consumed ${String(bytes)} value bytes, expected ${expected}`;
}

/**
 * Consumes the input topic with the plain client and no processing (the ceiling of any stream
 * processor on that client); checks it saw every record and every value byte.
 */
export async function runConsumeCeiling(
  ctx: RunContext,
  client: KafkaClientName,
  inputTopic: string,
  expected: { records: number; valueBytes: number },
): Promise<SystemRow> {
  const system = consumeCeilingLabel(client);
  ctx.log(`running ${system}...`);
  const outcome = await runConsumeWorker(
    ctx,
    client,
    inputTopic,
    `${CEILINGS[client].tag}-consume`,
  );
  return rowFromWorker(
    { system, role: 'consume-ceiling', compareKey: 'ceiling', client },
    outcome,
    expected.records,
    undefined,
    (parsed) => bytesProblem(parsed.details.bytes, expected.valueBytes),
  ).row;
}

/**
 * Consumes the input topic with the plain client and produces every record, unchanged, to a
 * new topic of the same partition count (no processing, serdes or state): what the client
 * alone costs a processor that writes as many records as it reads. Checks every record was
 * read and acknowledged, and that the output topic holds exactly as many.
 */
export async function runPipeCeiling(
  ctx: RunContext,
  client: KafkaClientName,
  inputTopic: string,
  expected: { records: number; valueBytes: number; partitions: number },
): Promise<SystemRow> {
  const system = pipeCeilingLabel(client);
  ctx.log(`running ${system}...`);
  const name = `${CEILINGS[client].tag}-pipe`;
  const pipeTopic = `${ctx.runPrefix}-${name}`;
  await ctx.topics.createTopic(pipeTopic, expected.partitions);
  const outcome = await runConsumeWorker(ctx, client, inputTopic, name, { topic: pipeTopic });
  const inOutput = await ctx.topics.recordCount(pipeTopic).catch(() => -1);
  return rowFromWorker(
    { system, role: 'pipe-ceiling', compareKey: 'at_least_once', client },
    outcome,
    expected.records,
    undefined,
    (parsed) => {
      const bytes = bytesProblem(parsed.details.bytes, expected.valueBytes);
      if (bytes) return bytes;
      if (parsed.details.produced !== expected.records || inOutput !== expected.records)
        return `produced ${String(parsed.details.produced)} records (${inOutput} in ${pipeTopic}), expected ${expected.records}`;
      return undefined;
    },
  ).row;
}
