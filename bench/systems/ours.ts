import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { runChild } from '../harness/child-process';
import { rowFromWorker, type ParsedWorkerResult } from '../harness/child-row';
import { clientArgs } from '../harness/kafka-clients';
import { nodeWorker } from '../harness/node-worker';
import type { RunContext } from '../harness/run-context';
import type { SystemRow } from '../harness/system-row';
import { compareWithTruth } from '../harness/truth';
import { commitIntervalFor, type StreamRunSpec } from './stream-run-spec';

/**
 * Runs nest-streams on the spec in its own process (bench/workers/streams-worker.ts, on the
 * spec's Kafka client) and checks its final store against the truth.
 */
export async function runOurs(
  ctx: RunContext,
  spec: StreamRunSpec,
): Promise<{ row: SystemRow; parsed?: ParsedWorkerResult; killed?: boolean }> {
  const { options } = ctx;
  const dumpFile = join(ctx.workDir, spec.dumpName);
  const base = {
    system: spec.system,
    role: spec.baselineRoot === undefined ? ('ours' as const) : ('other-peer' as const),
    compareKey: spec.compareKey,
    client: spec.client ?? 'kafkajs',
  };
  const unsupported = baselineWithoutClientOption(spec);
  if (unsupported) return { row: { ...base, failure: unsupported } };
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
        ...clientArgs(spec.client),
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
  const measured = rowFromWorker(base, outcome, spec.expectedRecords, check);
  return { ...measured, killed: outcome.killed };
}

/**
 * Why a `--baseline` checkout cannot run on the spec's client: its worker predates
 * `--kafka-client` (and would refuse the option); undefined when it can.
 */
function baselineWithoutClientOption(spec: StreamRunSpec): string | undefined {
  if (spec.baselineRoot === undefined || clientArgs(spec.client).length === 0) return undefined;
  const worker = join(resolve(spec.baselineRoot), 'bench', 'workers', 'streams-worker.ts');
  let source = '';
  try {
    source = readFileSync(worker, 'utf8');
  } catch {
    return `no ${worker} in the baseline checkout`;
  }
  return source.includes("'kafka-client'")
    ? undefined
    : `the baseline's ${worker} has no --kafka-client option: it runs on kafkajs only (--baseline-client kafkajs)`;
}
