import { join } from 'node:path';
import { runChild } from '../harness/child-process';
import { rowFromWorker, type ParsedWorkerResult } from '../harness/child-row';
import { nodeWorker } from '../harness/node-worker';
import type { RunContext } from '../harness/run-context';
import type { SystemRow } from '../harness/system-row';
import { compareWithTruth } from '../harness/truth';
import { commitIntervalFor, type StreamRunSpec } from './stream-run-spec';

/**
 * Runs nest-streams on the spec in its own process (bench/workers/streams-worker.ts) and
 * checks its final store against the truth.
 */
export async function runOurs(
  ctx: RunContext,
  spec: StreamRunSpec,
): Promise<{ row: SystemRow; parsed?: ParsedWorkerResult; killed?: boolean }> {
  const { options } = ctx;
  const dumpFile = join(ctx.workDir, spec.dumpName);
  ctx.log(`running ${spec.system}...`);
  const outcome = await runChild(
    nodeWorker(
      'streams-worker',
      [
        '--mode',
        spec.mode,
        '--bootstrap-servers',
        ctx.brokers,
        '--input-topic',
        spec.inputTopic,
        '--application-id',
        spec.applicationId,
        '--state-dir',
        spec.stateDir,
        '--guarantee',
        spec.guarantee,
        '--commit-interval-ms',
        String(commitIntervalFor(spec.guarantee, options)),
        '--cache-max-bytes',
        String(options.cacheMaxBytes),
        '--dump-file',
        dumpFile,
        '--timeout-ms',
        String(options.timeoutMs),
      ],
      {
        killWhen: spec.killWhen,
        label: spec.system,
        timeoutMs: options.timeoutMs + 60_000,
        verbose: options.verbose,
        profileDir: options.profileDir,
        root: spec.baselineRoot,
      },
    ),
  );
  const check = outcome.result
    ? await compareWithTruth(spec.truth, dumpFile, spec.keyColumns, spec.check === 'at-least')
    : undefined;
  const measured = rowFromWorker(
    {
      system: spec.system,
      role: spec.baselineRoot === undefined ? 'ours' : 'other-peer',
      compareKey: spec.compareKey,
    },
    outcome,
    spec.expectedRecords,
    check,
  );
  return { ...measured, killed: outcome.killed };
}
