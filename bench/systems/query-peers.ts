import { join } from 'node:path';
import { freePort } from '@nest-streams/testing/kafka';
import { runChild, type ChildOutcome, type ChildSpec } from '../harness/child-process';
import { parseWorkerResult } from '../harness/child-row';
import { clientArgs, type OurEngine } from '../harness/kafka-clients';
import { nodeWorker, REPO_ROOT } from '../harness/node-worker';
import type { RunContext } from '../harness/run-context';
import type { SystemRow } from '../harness/system-row';
import { endpointRows, loadEndpoint, round } from './endpoint-loads';

/** What both query peers get: the input, the truth, the keys to read and their HTTP bodies. */
export interface QueryPeerSpec {
  readonly inputTopic: string;
  readonly truthFile: string;
  readonly keysFile: string;
  /** `/stats/<user>` paths for the HTTP load, in order, and the body each must answer. */
  readonly httpPaths: readonly string[];
  readonly expectedBodies: ReadonlyMap<string, string>;
}

/**
 * Runs one query peer (ours on one client: bench/workers/query-worker.ts; Java: the peer's
 * `query` mode):
 * it aggregates the input, checks and times its in-process gets, then serves a bare
 * `GET /stats/:userId`, which this function loads with autocannon (every answer checked)
 * before it asks the peer to quit. Three rows: store.get, IQv2 and the bare HTTP endpoint.
 */
export async function runQueryPeer(
  ctx: RunContext,
  peer: OurEngine | 'java',
  spec: QueryPeerSpec,
): Promise<SystemRow[]> {
  const { options } = ctx;
  const ours = peer === 'java' ? undefined : peer;
  const which = ours ? ours.tag : 'java';
  const label = ours ? ours.label : 'kafka-streams-java';
  const role = ours ? ('ours' as const) : ('java' as const);
  const client = ours ? { client: ours.client } : {};
  const httpLabel = ours
    ? 'GET /stats/:userId, bare node:http'
    : 'GET /stats/:userId, JDK HttpServer';
  const fail = (failure: string): SystemRow[] => [
    { system: `${label}: store.get (in-process)`, role, compareKey: 'get', ...client, failure },
  ];
  const port = await freePort();
  const args = [
    '--bootstrap-servers',
    ctx.brokers,
    '--input-topic',
    spec.inputTopic,
    '--application-id',
    `${ctx.runPrefix}-${which}-query`,
    '--state-dir',
    join(ctx.workDir, `state-${which}-query`),
    '--commit-interval-ms',
    String(options.commitIntervalMs),
    '--cache-max-bytes',
    String(options.cacheMaxBytes),
    '--keys-file',
    spec.keysFile,
    '--truth-file',
    spec.truthFile,
    '--http-port',
    String(port),
    '--timeout-ms',
    String(options.timeoutMs),
  ];
  let child: ChildSpec;
  if (ours) {
    child = nodeWorker('query-worker', [...args, ...clientArgs(ours.client)], {
      label,
      timeoutMs: options.timeoutMs + 120_000,
      verbose: options.verbose,
      profileDir: options.profileDir,
    });
  } else {
    let java;
    try {
      java = ctx.javaPeer();
    } catch (error) {
      return fail(error instanceof Error ? error.message : String(error));
    }
    child = {
      command: java.java,
      args: [...java.baseArgs, '--mode', 'query', ...args],
      cwd: REPO_ROOT,
      label,
      timeoutMs: options.timeoutMs + 120_000,
      verbose: options.verbose,
    };
  }
  ctx.log(`running ${label} (aggregate, then in-process gets, then a bare HTTP endpoint)...`);
  let exited: ChildOutcome | undefined;
  const outcome = runChild(child).then((o) => (exited = o));
  const baseUrl = `http://127.0.0.1:${port}`;
  const loads = await loadEndpoint(ctx, label, baseUrl, spec, () => exited);
  const done = await outcome;
  const parsed = parseWorkerResult(done);
  if (typeof parsed === 'string') return fail(parsed);
  if (done.exitCode !== 0 || parsed.mismatches > 0) {
    return fail(
      `exit ${done.exitCode ?? done.signal}, ${parsed.mismatches} wrong answers (${parsed.firstMismatch ?? '?'})\n${done.outputTail}`,
    );
  }
  const d = parsed.details;
  const num = (key: string): number => Number(d[key]);
  const loadAverage = done.loadAverage;
  const rows: SystemRow[] = [
    {
      system: `${label}: store.get (in-process)`,
      role,
      compareKey: 'get',
      ...client,
      loadAverage,
      result: {
        system: `${label}: store.get (in-process)`,
        opsPerSec: Math.round(num('getsPerSec')),
        p50Ms: round(num('getP50Ms')),
        p99Ms: round(num('getP99Ms')),
        peakRssMb: parsed.peakRssMb !== undefined ? Math.round(parsed.peakRssMb) : undefined,
      },
      note: `${num('gets').toLocaleString('en-US')} gets, each checked before timing`,
    },
    {
      system: `${label}: IQv2 KeyQuery (in-process)`,
      role,
      compareKey: 'iqv2',
      ...client,
      loadAverage,
      result: {
        system: `${label}: IQv2 KeyQuery (in-process)`,
        opsPerSec: Math.round(num('iqv2PerSec')),
        p50Ms: round(num('iqv2P50Ms')),
        p99Ms: round(num('iqv2P99Ms')),
      },
      note: `${num('iqv2Timed').toLocaleString('en-US')} queries, all local partitions asked; ${num('iqv2Checked').toLocaleString('en-US')} checked`,
    },
  ];
  rows.push(
    ...endpointRows(
      ctx,
      { system: `${label}: ${httpLabel}`, role, ...client, loadAverage },
      loads,
      `the endpoint never answered\n${done.outputTail}`,
    ),
  );
  return rows;
}
