import { runChild } from '../harness/child-process';
import { rowFromWorker } from '../harness/child-row';
import { nodeWorker } from '../harness/node-worker';
import type { RunContext } from '../harness/run-context';
import type { SystemRow } from '../harness/system-row';

/** The label of the consumption ceiling. */
export const KAFKAJS_CEILING = 'kafkajs consume only (ceiling)';

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
  const outcome = await runChild(
    nodeWorker(
      'kafkajs-consume-worker',
      [
        '--bootstrap-servers',
        ctx.brokers,
        '--input-topic',
        inputTopic,
        '--group-id',
        `${ctx.runPrefix}-kafkajs-consume`,
        '--timeout-ms',
        String(ctx.options.timeoutMs),
      ],
      { label: 'kafkajs', timeoutMs: ctx.options.timeoutMs + 60_000, verbose: ctx.options.verbose },
    ),
  );
  return rowFromWorker(
    { system: KAFKAJS_CEILING, role: 'consume-ceiling', compareKey: 'ceiling' },
    outcome,
    expected.records,
    undefined,
    (parsed) =>
      parsed.details.bytes === expected.valueBytes
        ? undefined
        : `consumed ${String(parsed.details.bytes)} value bytes, expected ${expected.valueBytes}`,
  ).row;
}
