import { freePort } from '@nest-streams/testing/kafka';
import { runChild, type ChildOutcome } from '../harness/child-process';
import { parseWorkerResult } from '../harness/child-row';
import { nodeWorker } from '../harness/node-worker';
import type { RunContext } from '../harness/run-context';
import type { SystemRow } from '../harness/system-row';
import { endpointRows, loadEndpoint, type EndpointSpec } from './endpoint-loads';

/** The framework baselines: the platform, and whether one pass-through interceptor runs. */
export const NEST_BASELINES = [
  {
    system: 'Nest + Express alone: GET /stats/:userId from a Map',
    platform: 'express',
    interceptor: 'none',
  },
  {
    system: 'Nest + Fastify alone: GET /stats/:userId from a Map',
    platform: 'fastify',
    interceptor: 'none',
  },
  {
    system: 'Nest + Express + one pass-through interceptor: GET /stats/:userId from a Map',
    platform: 'express',
    interceptor: 'pass-through',
  },
] as const;

/**
 * The web framework's own cost, for the application's HTTP rows: a Nest application
 * (bench/workers/nest-baseline-worker.ts) answering `GET /stats/:userId` from the truth in
 * memory, on Express, on Fastify, and on Express with one global interceptor that only calls
 * `next.handle()` (what Nest's interceptor chain costs by itself), each under the same loads
 * (`--connections`, then one), every body checked.
 */
export async function runNestBaselines(
  ctx: RunContext,
  spec: EndpointSpec & { readonly truthFile: string },
): Promise<SystemRow[]> {
  const rows: SystemRow[] = [];
  for (const baseline of NEST_BASELINES) rows.push(...(await runNestBaseline(ctx, spec, baseline)));
  return rows;
}

async function runNestBaseline(
  ctx: RunContext,
  spec: EndpointSpec & { readonly truthFile: string },
  baseline: (typeof NEST_BASELINES)[number],
): Promise<SystemRow[]> {
  const port = await freePort();
  ctx.log(`running ${baseline.system}...`);
  let exited: ChildOutcome | undefined;
  const outcome = runChild(
    nodeWorker(
      'nest-baseline-worker',
      [
        ...['--truth-file', spec.truthFile, '--http-port', String(port)],
        ...['--platform', baseline.platform, '--interceptor', baseline.interceptor],
      ],
      {
        label: `nest-baseline-${baseline.platform}-${baseline.interceptor}`,
        timeoutMs: ctx.options.timeoutMs + 60_000,
        verbose: ctx.options.verbose,
        profileDir: ctx.options.profileDir,
      },
    ),
  ).then((o) => (exited = o));
  const loads = await loadEndpoint(
    ctx,
    `nest-baseline-${baseline.platform}-${baseline.interceptor}`,
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
    { system: baseline.system, role: 'other-peer', loadAverage: done.loadAverage },
    loads,
    unreachable,
  );
}
