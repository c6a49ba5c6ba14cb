import type { ChildOutcome } from '../harness/child-process';
import { loadProblems, runHttpLoad, type HttpLoadResult } from '../harness/http-load';
import type { RunContext } from '../harness/run-context';
import type { SystemRow } from '../harness/system-row';
import { sleep } from '../workers/worker-support';

/** One HTTP load of a bare endpoint: its concurrency, result and what went wrong. */
export interface EndpointLoad {
  readonly connections: number;
  load?: HttpLoadResult;
  failure?: string;
}

/** What an endpoint answers: `/stats/<user>` paths in order, and each one's exact body. */
export interface EndpointSpec {
  readonly httpPaths: readonly string[];
  readonly expectedBodies: ReadonlyMap<string, string>;
}

/**
 * Waits until the child's endpoint answers its first path (or the child exits, or the run's
 * timeout), then loads it with autocannon at `--connections` and then at one connection (at 10
 * connections on 2 cores p99 is mostly queueing; one shows a single request's latency), every
 * answer checked, and finally asks it to quit (`GET /quit`).
 */
export async function loadEndpoint(
  ctx: RunContext,
  label: string,
  baseUrl: string,
  spec: EndpointSpec,
  exited: () => ChildOutcome | undefined,
): Promise<EndpointLoad[]> {
  const { options } = ctx;
  const deadline = Date.now() + options.timeoutMs;
  let serving = false;
  while (!serving && !exited() && Date.now() < deadline) {
    serving = await fetch(`${baseUrl}${spec.httpPaths[0]}`)
      .then((r) => r.status === 200)
      .catch(() => false);
    if (!serving) await sleep(250);
  }
  const loads: EndpointLoad[] = [...new Set([options.connections, 1])].map((connections) => ({
    connections,
  }));
  if (!serving) return loads;
  for (const entry of loads) {
    ctx.log(`${label}: HTTP load, ${options.durationSeconds} s, ${entry.connections} connections`);
    entry.load = await runHttpLoad({
      baseUrl,
      paths: spec.httpPaths,
      expectedBodies: spec.expectedBodies,
      durationSeconds: options.durationSeconds,
      connections: entry.connections,
    });
    const problems = loadProblems(entry.load);
    if (problems.length > 0) entry.failure = `wrong HTTP answers: ${problems.join('; ')}`;
  }
  await fetch(`${baseUrl}/quit`).catch(() => undefined);
  return loads;
}

/**
 * The table rows of {@link loadEndpoint}'s loads: `system` at `--connections` (compare key
 * `http-bare`) and `system, 1 connection` (`http-bare-1`); a load that failed or never ran is
 * a failure row (`unreachable` says why when the endpoint never answered).
 */
export function endpointRows(
  ctx: RunContext,
  base: Pick<SystemRow, 'system' | 'role' | 'client' | 'loadAverage'>,
  loads: readonly EndpointLoad[],
  unreachable: string,
): SystemRow[] {
  return loads.map(({ connections, load, failure }) => {
    const single = connections === 1 && ctx.options.connections !== 1;
    const system = `${base.system}${single ? ', 1 connection' : ''}`;
    const compareKey = single ? 'http-bare-1' : 'http-bare';
    const client = base.client === undefined ? {} : { client: base.client };
    if (!load || failure) {
      return { system, role: base.role, compareKey, ...client, failure: failure ?? unreachable };
    }
    return {
      system,
      role: base.role,
      compareKey,
      ...client,
      loadAverage: base.loadAverage,
      result: {
        system,
        opsPerSec: Math.round(load.requestsPerSec),
        p50Ms: round(load.latency.p50Ms),
        p99Ms: round(load.latency.p99Ms),
      },
      note: `${load.requests.toLocaleString('en-US')} requests, every body checked`,
    };
  });
}

/** Milliseconds to 4 significant digits (in-process gets are microseconds). */
export function round(ms: number): number {
  return Number(ms.toPrecision(4));
}
