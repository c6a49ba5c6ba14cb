import { freePort } from '@nest-streams/testing/kafka';
import { runChild, type ChildOutcome } from '../harness/child-process';
import { parseWorkerResult } from '../harness/child-row';
import { nodeWorker } from '../harness/node-worker';
import type { RunContext } from '../harness/run-context';
import type { SystemRow } from '../harness/system-row';
import { endpointRows, loadEndpoint, type EndpointSpec } from './endpoint-loads';

/** The label of the framework baseline. */
export const NEST_BASELINE = 'Nest + Express alone: GET /stats/:userId from a Map';

/**
 * The web framework's own cost, for the application's HTTP rows: a Nest application on
 * Express (bench/workers/nest-baseline-worker.ts) answering `GET /stats/:userId` from the
 * truth in memory, under the same loads (`--connections`, then one), every body checked.
 */
export async function runNestBaseline(
  ctx: RunContext,
  spec: EndpointSpec & { readonly truthFile: string },
): Promise<SystemRow[]> {
  const port = await freePort();
  ctx.log(`running ${NEST_BASELINE}...`);
  let exited: ChildOutcome | undefined;
  const outcome = runChild(
    nodeWorker(
      'nest-baseline-worker',
      ['--truth-file', spec.truthFile, '--http-port', String(port)],
      {
        label: 'nest-baseline',
        timeoutMs: ctx.options.timeoutMs + 60_000,
        verbose: ctx.options.verbose,
        profileDir: ctx.options.profileDir,
      },
    ),
  ).then((o) => (exited = o));
  const loads = await loadEndpoint(
    ctx,
    'nest-baseline',
    `http://127.0.0.1:${port}`,
    spec,
    () => exited,
  );
  const done = await outcome;
  const parsed = parseWorkerResult(done);
  const unreachable =
    typeof parsed === 'string'
      ? parsed
      : `the endpoint never answered (exit ${done.exitCode ?? done.signal})\n${done.outputTail}`;
  return endpointRows(
    ctx,
    { system: NEST_BASELINE, role: 'other-peer', loadAverage: done.loadAverage },
    loads,
    unreachable,
  );
}
