import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { runChild, type ChildOutcome } from '../harness/child-process';
import { mergeInstanceOutcomes } from '../harness/instance-outcomes';
import { rowFromWorker, type ParsedWorkerResult } from '../harness/child-row';
import { clientArgs } from '../harness/kafka-clients';
import { nodeWorker } from '../harness/node-worker';
import type { RunContext } from '../harness/run-context';
import type { SystemRow } from '../harness/system-row';
import { compareWithTruth } from '../harness/truth';
import { streamWorkerArgs, type StreamRunSpec } from './stream-run-spec';

/**
 * Runs nest-streams on the spec in its own process (bench/workers/streams-worker.ts, on the
 * spec's Kafka client), or in `spec.instances` processes of the one application started
 * together (each with its own state directory), and checks its final store (the instances'
 * dumps together) against the truth.
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
  const instances = spec.instances ?? 1;
  const args = (i: number): string[] => [
    ...streamWorkerArgs(ctx, spec, {
      stateDir: instances === 1 ? spec.stateDir : `${spec.stateDir}-${i}`,
      dumpFile: instances === 1 ? dumpFile : `${dumpFile}.${i}`,
    }),
    ...clientArgs(spec.client),
    ...(instances === 1
      ? []
      : [
          '--start-file',
          `${dumpFile}.start`,
          '--release-file',
          `${dumpFile}.release`,
          // The first instance's JoinGroup completes alone (the test broker has no initial
          // rebalance delay) and it processes until the next generation: by then every task's
          // changelog is past the default 10,000, and the others would only warm up until a
          // probing rebalance 10 minutes later. Every instance takes its share at once instead.
          '--acceptable-recovery-lag',
          String(Number.MAX_SAFE_INTEGER),
        ]),
  ];
  const child = (i: number): Promise<ChildOutcome> =>
    runChild(
      nodeWorker('streams-worker', args(i), {
        killWhen: spec.killWhen,
        label: instances === 1 ? spec.system : `${spec.system} #${i}`,
        timeoutMs: options.timeoutMs + 60_000,
        verbose: options.verbose,
        profileDir: options.profileDir,
        root: spec.baselineRoot,
      }),
    );
  const outcome = instances === 1 ? await child(1) : await runInstances(instances, dumpFile, child);
  const check = outcome.result
    ? await compareWithTruth(spec.truth, dumpFile, spec.keyColumns, spec.check === 'at-least')
    : undefined;
  const measured = rowFromWorker(base, outcome, spec.expectedRecords, check);
  return { ...measured, killed: outcome.killed };
}

/**
 * Runs `count` instances at once: starts them together once every one is set up, and releases
 * them to close once every one has dumped its share of the store (so that none leaves the group
 * while another still dumps); then concatenates their dumps into `dumpFile`.
 */
async function runInstances(
  count: number,
  dumpFile: string,
  child: (i: number) => Promise<ChildOutcome>,
): Promise<ChildOutcome> {
  const numbers = Array.from({ length: count }, (_, i) => i + 1);
  let exited = false;
  const running = numbers.map((i) => child(i).finally(() => (exited = true)));
  // Each barrier opens once every instance reached it, or once one exited (the run failed).
  const barrier = (reached: string, open: string): NodeJS.Timeout => {
    const poll = setInterval(() => {
      if (exited || numbers.every((i) => existsSync(`${dumpFile}.${i}.${reached}`))) {
        writeFileSync(`${dumpFile}.${open}`, '');
        clearInterval(poll);
      }
    }, 10);
    return poll;
  };
  const polls = [barrier('ready', 'start'), barrier('done', 'release')];
  const outcomes = await Promise.all(running).finally(() => polls.forEach(clearInterval));
  const merged = mergeInstanceOutcomes(outcomes);
  if (merged.result) {
    writeFileSync(dumpFile, numbers.map((i) => readFileSync(`${dumpFile}.${i}`, 'utf8')).join(''));
  }
  return merged;
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
