import { runChild } from '../harness/child-process';
import { rowFromWorker } from '../harness/child-row';
import { nodeWorker } from '../harness/node-worker';
import type { RunContext } from '../harness/run-context';
import type { SystemRow } from '../harness/system-row';

/** The label of the consumption ceiling. */
export const KAFKAJS_CEILING = 'kafkajs consume only (ceiling)';
/** The label of the consume-and-produce ceiling. */
export const KAFKAJS_PIPE_CEILING = 'kafkajs consume + produce every record (ceiling)';

/** Runs bench/workers/kafkajs-consume-worker.ts in group `<run>-<name>`, piping to `pipeTopic` if given. */
function runConsumeWorker(
  ctx: RunContext,
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
    nodeWorker('kafkajs-consume-worker', args, {
      label: pipe ? 'kafkajs-pipe' : 'kafkajs',
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
 * Consumes the input topic with plain kafkajs and no processing (the ceiling of any kafkajs
 * stream processor); checks it saw every record and every value byte.
 */
export async function runKafkajsCeiling(
  ctx: RunContext,
  inputTopic: string,
  expected: { records: number; valueBytes: number },
): Promise<SystemRow> {
  ctx.log(`running ${KAFKAJS_CEILING}...`);
  const outcome = await runConsumeWorker(ctx, inputTopic, 'kafkajs-consume');
  return rowFromWorker(
    { system: KAFKAJS_CEILING, role: 'consume-ceiling', compareKey: 'ceiling' },
    outcome,
    expected.records,
    undefined,
    (parsed) => bytesProblem(parsed.details.bytes, expected.valueBytes),
  ).row;
}

/**
 * Consumes the input topic with plain kafkajs and produces every record, unchanged, to a new
 * topic of the same partition count (no processing, serdes or state): what kafkajs alone costs
 * a processor that writes as many records as it reads. Checks every record was read and
 * acknowledged, and that the output topic holds exactly as many.
 */
export async function runKafkajsPipeCeiling(
  ctx: RunContext,
  inputTopic: string,
  expected: { records: number; valueBytes: number; partitions: number },
): Promise<SystemRow> {
  ctx.log(`running ${KAFKAJS_PIPE_CEILING}...`);
  const pipeTopic = `${ctx.runPrefix}-kafkajs-pipe`;
  await ctx.topics.createTopic(pipeTopic, expected.partitions);
  const outcome = await runConsumeWorker(ctx, inputTopic, 'kafkajs-pipe', { topic: pipeTopic });
  const inOutput = await ctx.topics.recordCount(pipeTopic).catch(() => -1);
  return rowFromWorker(
    { system: KAFKAJS_PIPE_CEILING, role: 'pipe-ceiling', compareKey: 'at_least_once' },
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
