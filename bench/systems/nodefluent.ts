import { join } from 'node:path';
import { runChild } from '../harness/child-process';
import { rowFromWorker } from '../harness/child-row';
import { nodeWorker } from '../harness/node-worker';
import { installNodefluentPeer } from '../harness/nodefluent-peer';
import type { RunContext } from '../harness/run-context';
import type { SystemRow } from '../harness/system-row';
import { compareWithTruth, type Truth } from '../harness/truth';

/** The label of the nodefluent peer. */
export const NODEFLUENT = 'nodefluent kafka-streams (in-memory count, no persistent state)';

/**
 * Runs nodefluent `kafka-streams` 5.0.0 (count per user in memory, native client) on the
 * input and checks its counts. Its default JS client is not an option: kafka-node 5 asks for
 * ListOffsets v0, which Kafka 4.0 removed (KIP-896), so it never connects.
 */
export async function runNodefluent(
  ctx: RunContext,
  inputTopic: string,
  truth: { counts: Truth; records: number },
): Promise<SystemRow> {
  const base = { system: NODEFLUENT, role: 'other-peer' as const, compareKey: 'at_least_once' };
  try {
    installNodefluentPeer(ctx.log);
  } catch (error) {
    return {
      ...base,
      note: `not measured: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`,
    };
  }
  ctx.log(`running ${NODEFLUENT}...`);
  const dumpFile = join(ctx.workDir, 'dump-nodefluent.tsv');
  const outcome = await runChild(
    nodeWorker(
      'nodefluent-worker',
      [
        '--bootstrap-servers',
        ctx.brokers,
        '--input-topic',
        inputTopic,
        '--group-id',
        `${ctx.runPrefix}-nodefluent`,
        '--dump-file',
        dumpFile,
        '--timeout-ms',
        String(ctx.options.timeoutMs),
      ],
      {
        label: 'nodefluent',
        timeoutMs: ctx.options.timeoutMs + 60_000,
        verbose: ctx.options.verbose,
      },
    ),
  );
  const check = outcome.result ? await compareWithTruth(truth.counts, dumpFile, 1) : undefined;
  const { row } = rowFromWorker(base, outcome, truth.records, check);
  return { ...row, note: row.note ?? 'count only (no sum), state in memory, auto-commit' };
}
