import { join } from 'node:path';
import { runChild } from '../harness/child-process';
import { rowFromWorker, type ParsedWorkerResult } from '../harness/child-row';
import { REPO_ROOT } from '../harness/node-worker';
import type { RunContext } from '../harness/run-context';
import type { SystemRow } from '../harness/system-row';
import { compareWithTruth } from '../harness/truth';
import { streamWorkerArgs, type StreamRunSpec } from './stream-run-spec';

/**
 * Runs the Java Kafka Streams peer (bench/peers/kafka-streams-java) on the spec with the same
 * settings as ours; it checks itself against the truth file, and the harness checks its dump.
 */
export async function runJava(
  ctx: RunContext,
  spec: StreamRunSpec,
): Promise<{ row: SystemRow; parsed?: ParsedWorkerResult; killed?: boolean }> {
  const { options } = ctx;
  const base = { system: spec.system, role: 'java' as const, compareKey: spec.compareKey };
  let peer;
  try {
    peer = ctx.javaPeer();
  } catch (error) {
    return { row: { ...base, failure: error instanceof Error ? error.message : String(error) } };
  }
  const dumpFile = join(ctx.workDir, spec.dumpName);
  ctx.log(`running ${spec.system}...`);
  const outcome = await runChild({
    command: peer.java,
    args: [
      ...peer.baseArgs,
      ...streamWorkerArgs(ctx, spec, { stateDir: spec.stateDir, dumpFile }),
      '--truth-file',
      spec.truthFile,
      '--check',
      spec.check ?? 'exact',
    ],
    cwd: REPO_ROOT,
    killWhen: spec.killWhen,
    label: spec.system,
    timeoutMs: options.timeoutMs + 60_000,
    verbose: options.verbose,
  });
  const check = outcome.result
    ? await compareWithTruth(spec.truth, dumpFile, spec.keyColumns, spec.check === 'at-least')
    : undefined;
  const measured = rowFromWorker(base, outcome, spec.expectedRecords, check);
  return { ...measured, killed: outcome.killed };
}
