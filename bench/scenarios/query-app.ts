import { loadavg } from 'node:os';
import { DEFAULT_KAFKA_CLIENT } from '@nest-streams/streams';
import { Kafka, logLevel } from 'kafkajs';
import type { EventData } from '../harness/event-data';
import { loadProblems, runHttpLoad, type HttpLoadResult } from '../harness/http-load';
import type { RunContext } from '../harness/run-context';
import type { SystemRow } from '../harness/system-row';
import { round } from '../systems/endpoint-loads';
import { OrderStatsCluster } from '../systems/order-stats-cluster';
import { STATS_STORE } from '../topologies/bench-types';
import { committedAll, endOffsets, sleep } from '../workers/worker-support';

/** What the example application's phases need. */
export interface AppPhaseSpec {
  readonly topic: string;
  readonly partitions: number;
  readonly data: EventData;
  /** Users in key order, and each one's expected `GET /stats/:userId` body. */
  readonly users: readonly string[];
  readonly bodies: ReadonlyMap<string, string>;
  /** Users to sample (seeded, shuffled) for the per-user loads. */
  readonly sample: readonly string[];
  /** Range requests (`/stats/range?...`) and their expected bodies. */
  readonly rangeBodies: ReadonlyMap<string, string>;
}

/** The client the application's rows run on: the engine's default (`ours`), set explicitly. */
export const APP_CLIENT = DEFAULT_KAFKA_CLIENT;
/** The application's row label, with its client. */
export const APP = `order-stats (${APP_CLIENT})`;
const SETTLE_MS = 240_000;

/**
 * The example application (apps/order-stats) under HTTP load, every answer checked:
 * three instances start on the empty input topic (so no instance waits behind warm-up
 * replicas), the input is produced and processed, then
 * 1. scatter-gather `GET /stats/range` on three instances,
 * 2. one instance stops: `GET /stats/:userId` on instance A for users A owns (local) and for
 *    users B owns (forwarded to B), split by the `X-Served-By` of a checked probe of 1,000 users,
 * 3. another stops: `GET /stats/:userId` on the last instance, which owns every user;
 * 4. that instance restarts on Fastify (same state directory and address): the same loads.
 * Returns the rows and the seconds the produce took.
 */
export async function runAppPhases(
  ctx: RunContext,
  spec: AppPhaseSpec,
): Promise<{ rows: SystemRow[]; produceSeconds: number }> {
  const applicationId = `${ctx.runPrefix}-app`;
  const cluster = new OrderStatsCluster(
    {
      KAFKA_BROKERS: ctx.brokers,
      // The rows are `ours`: the default client, set so that the label stays true.
      KAFKA_CLIENT: APP_CLIENT,
      APPLICATION_ID: applicationId,
      INPUT_TOPIC: spec.topic,
      COMMIT_INTERVAL_MS: String(ctx.options.commitIntervalMs),
    },
    ctx.workDir,
  );
  const rows: SystemRow[] = [];
  const admin = new Kafka({
    clientId: `${ctx.runPrefix}-app-probe`,
    brokers: ctx.brokers.split(','),
    logLevel: logLevel.ERROR,
  }).admin();
  await admin.connect();
  try {
    ctx.log(`starting 3 ${APP} instances (apps/order-stats via tsx)...`);
    for (let i = 0; i < 3; i++) await cluster.add();
    await cluster.waitStable(STATS_STORE, spec.partitions, SETTLE_MS);
    ctx.log(`producing ${spec.data.length.toLocaleString('en-US')} events to ${spec.topic}...`);
    const produceSeconds = await ctx.topics.produce(spec.topic, spec.data);
    const ends = await endOffsets(admin, spec.topic);
    const deadline = Date.now() + ctx.options.timeoutMs;
    while (!(await committedAll(admin, applicationId, spec.topic, ends))) {
      if (Date.now() > deadline)
        throw new Error(`${APP} did not commit the input\n${cluster.tails()}`);
      await sleep(200);
    }
    await cluster.waitStable(STATS_STORE, spec.partitions, SETTLE_MS);

    const [a] = cluster.instances;
    const rangePaths = [...spec.rangeBodies.keys()];
    await probe(a.endpoint, rangePaths.slice(0, 10), spec.rangeBodies);
    rows.push(
      await load(ctx, {
        system: `${APP} x3: GET /stats/range, ${rangeUsersOf(spec)} users, scatter-gather`,
        compareKey: 'http-range',
        endpoint: a.endpoint,
        paths: rangePaths,
        bodies: spec.rangeBodies,
      }),
    );

    await cluster.stopLast();
    await cluster.waitStable(STATS_STORE, spec.partitions, SETTLE_MS);
    const [first, second] = cluster.instances;
    const local: string[] = [];
    const forwarded: string[] = [];
    for (const user of spec.sample.slice(0, 1_000)) {
      const path = `/stats/${user}`;
      const by = (await probe(first.endpoint, [path], spec.bodies))[0];
      if (by === first.endpoint) local.push(path);
      else if (by === second.endpoint) forwarded.push(path);
      else throw new Error(`${path} served by ${by ?? 'nobody'}`);
    }
    if (local.length === 0 || forwarded.length === 0) {
      throw new Error(`2 instances: ${local.length} local and ${forwarded.length} forwarded users`);
    }
    const localRow = await load(ctx, {
      system: `${APP} x2: GET /stats/:userId, local`,
      compareKey: 'http-bare',
      endpoint: first.endpoint,
      paths: local,
      bodies: spec.bodies,
      servedBy: first.endpoint,
    });
    const forwardedRow = await load(ctx, {
      system: `${APP} x2: GET /stats/:userId, forwarded to the owner`,
      compareKey: 'http-forwarded',
      endpoint: first.endpoint,
      paths: forwarded,
      bodies: spec.bodies,
      servedBy: second.endpoint,
    });
    const extra =
      localRow.result && forwardedRow.result
        ? `; forwarding adds ${round(forwardedRow.result.p50Ms! - localRow.result.p50Ms!)} ms at p50, ${round(forwardedRow.result.p99Ms! - localRow.result.p99Ms!)} ms at p99`
        : '';
    rows.push(localRow, { ...forwardedRow, note: `${forwardedRow.note ?? ''}${extra}` });

    await cluster.stopLast();
    await cluster.waitStable(STATS_STORE, spec.partitions, SETTLE_MS);
    const paths = spec.sample.map((user) => `/stats/${user}`);
    await probe(first.endpoint, paths.slice(0, 500), spec.bodies);
    rows.push(...(await localLoads(ctx, `${APP} x1`, first.endpoint, paths, spec.bodies)));

    // The same instance on Fastify: restarted on its state directory, same address.
    ctx.log(`restarting the last ${APP} instance on Fastify (HTTP_PLATFORM=fastify)...`);
    const onFastify = await cluster.restartLast({ HTTP_PLATFORM: 'fastify' });
    await cluster.waitStable(STATS_STORE, spec.partitions, SETTLE_MS);
    await probe(onFastify.endpoint, paths.slice(0, 500), spec.bodies);
    rows.push(
      ...(await localLoads(ctx, `${APP} x1 (Fastify)`, onFastify.endpoint, paths, spec.bodies)),
    );
    return { rows, produceSeconds };
  } finally {
    await cluster.killAll();
    await admin.disconnect().catch(() => undefined);
  }
}

/**
 * `GET /stats/:userId` on one instance that owns every user: at `--connections`, then (unless
 * that is 1) one request at a time, its latency without the queueing of concurrent connections.
 */
async function localLoads(
  ctx: RunContext,
  label: string,
  endpoint: string,
  paths: readonly string[],
  bodies: ReadonlyMap<string, string>,
): Promise<SystemRow[]> {
  const spec = { endpoint, paths, bodies, servedBy: endpoint };
  const rows = [
    await load(ctx, {
      ...spec,
      system: `${label}: GET /stats/:userId, local`,
      compareKey: 'http-bare',
    }),
  ];
  if (ctx.options.connections !== 1) {
    rows.push(
      await load(ctx, {
        ...spec,
        system: `${label}: GET /stats/:userId, local, 1 connection`,
        compareKey: 'http-bare-1',
        connections: 1,
      }),
    );
  }
  return rows;
}

function rangeUsersOf(spec: AppPhaseSpec): string {
  const first = spec.rangeBodies.values().next().value;
  const n = first ? (JSON.parse(first) as unknown[]).length : 0;
  return n.toLocaleString('en-US');
}

/**
 * GETs each path once and checks status and body exactly; returns each one's `X-Served-By`.
 * @throws Error on the first wrong answer (the run fails before any figure).
 */
async function probe(
  endpoint: string,
  paths: readonly string[],
  bodies: ReadonlyMap<string, string>,
): Promise<(string | undefined)[]> {
  const servedBy: (string | undefined)[] = [];
  for (const path of paths) {
    const response = await fetch(`http://${endpoint}${path}`);
    const body = await response.text();
    if (response.status !== 200 || body !== bodies.get(path)) {
      throw new Error(
        `wrong answer from ${endpoint}${path}: ${response.status} ${body.slice(0, 200)} (expected ${bodies.get(path)?.slice(0, 200) ?? 'nothing'})`,
      );
    }
    servedBy.push(response.headers.get('x-served-by') ?? undefined);
  }
  return servedBy;
}

async function load(
  ctx: RunContext,
  spec: {
    system: string;
    compareKey: string;
    endpoint: string;
    paths: readonly string[];
    bodies: ReadonlyMap<string, string>;
    servedBy?: string;
    /** Concurrent connections; default `--connections`. */
    connections?: number;
  },
): Promise<SystemRow> {
  const { durationSeconds } = ctx.options;
  const connections = spec.connections ?? ctx.options.connections;
  ctx.log(`${spec.system}: ${durationSeconds} s, ${connections} connections...`);
  const started = load1m();
  const result: HttpLoadResult = await runHttpLoad({
    baseUrl: `http://${spec.endpoint}`,
    paths: spec.paths,
    expectedBodies: spec.bodies,
    expectServedBy: spec.servedBy,
    durationSeconds,
    connections,
  });
  const base = {
    system: spec.system,
    role: 'ours' as const,
    compareKey: spec.compareKey,
    client: APP_CLIENT,
    loadAverage: [started, load1m()] as const,
  };
  const problems = loadProblems(result);
  if (problems.length > 0)
    return { ...base, failure: `wrong HTTP answers: ${problems.join('; ')}` };
  return {
    ...base,
    result: {
      system: spec.system,
      opsPerSec: Math.round(result.requestsPerSec),
      p50Ms: round(result.latency.p50Ms),
      p99Ms: round(result.latency.p99Ms),
    },
    note: `${result.requests.toLocaleString('en-US')} requests over ${spec.paths.length.toLocaleString('en-US')} paths, every body checked`,
  };
}

function load1m(): number {
  return Math.round(loadavg()[0] * 100) / 100;
}
