import { randomInt } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MAX_KEY_LENGTH } from '../../apps/order-stats/src/input-validation';
import { HttpTestCluster } from './support/http-cluster';
import { HttpFuzzCaseGenerator, type FuzzCase } from './support/http-fuzz-cases';
import { HttpPrng } from './support/http-prng';
import { DroppedConnectionError, sendRaw, type RawResponse } from './support/http-raw-client';
import { HttpSentinel } from './support/http-sentinel';
import { recordFigures } from './support/reliability-report';
import { sized } from './support/reliability-size';

/** How many requests are in flight at once. */
const CONCURRENCY = 16;

/**
 * HTTP fuzzing of every order-stats endpoint on two instances (standby 1) holding exact data.
 * Seeded (`HTTP_FUZZ_SEED` reproduces a run; the seed is printed): known users with forged hop /
 * Host / X-Forwarded-* headers and absolute-form targets, odd keys (unicode, NUL, encoded
 * slashes, dot segments, 100 KB), ranges, repeated and bracketed query parameters, invalid
 * percent-encoding, wrong methods, random paths. Every answer: 2xx, 4xx or 503 with
 * Retry-After, never a dropped connection; `X-Served-By` one of the two instances; exact where
 * the answer is known. A sentinel server named by the forged headers never gets a connection,
 * and both instances still serve every user exactly at the end.
 */
describe('reliability: HTTP fuzzing of order-stats', () => {
  const cluster = new HttpTestCluster({ users: 40, events: 4_000 });
  let sentinel: HttpSentinel | undefined;
  afterAll(async () => {
    await sentinel?.stop();
    await cluster.stop();
  });

  it('answers every fuzzed request with 2xx, 4xx or 503 + Retry-After, exactly where known', async () => {
    const started = Date.now();
    const seed = Number(process.env.HTTP_FUZZ_SEED ?? randomInt(2 ** 31));
    process.stdout.write(`[http-fuzz] seed ${seed} (HTTP_FUZZ_SEED=${seed} reproduces)\n`);
    const total = sized({ reduced: 2_000, full: 50_000 });

    await cluster.start();
    sentinel = await HttpSentinel.start();
    const generator = new HttpFuzzCaseGenerator(new HttpPrng(seed), {
      users: cluster.users,
      truth: cluster.truth,
      windowsOf: cluster.windowsOf,
      ownerOf: cluster.ownerOf,
      endpoints: cluster.endpoints,
      sentinel: sentinel.endpoint,
      maxKeyLength: MAX_KEY_LENGTH,
    });
    const forwardedBefore = await cluster.routingCount('forwarded');

    const statuses = new Map<number, number>();
    const labels = new Map<string, number>();
    const violations: string[] = [];
    let dropped = 0;
    let exactChecked = 0;
    let index = 0;
    const fuzzStarted = Date.now();
    const worker = async (): Promise<void> => {
      while (index < total) {
        const n = index++;
        const c = generator.next();
        labels.set(c.label, (labels.get(c.label) ?? 0) + 1);
        const port = cluster.instances[c.target].port;
        let response: RawResponse;
        try {
          response = await sendRaw(port, c.request);
        } catch (error) {
          if (error instanceof DroppedConnectionError) dropped++;
          violations.push(`#${n} ${summarize(c)}: ${String(error)}`);
          continue;
        }
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        const problems = check(c, response, cluster.endpoints);
        if (c.expect.kind === 'exact' && problems.length === 0) exactChecked++;
        for (const p of problems) violations.push(`#${n} ${summarize(c)}: ${p}`);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, () => worker()));
    const fuzzSeconds = (Date.now() - fuzzStarted) / 1000;

    // The processes are still up and still exact; nothing ever reached the sentinel.
    const live = await Promise.all(cluster.instances.map((i) => i.request('/health/live')));
    const finalChecked = await cluster.checkAllUsersExact();
    const forwarded = (await cluster.routingCount('forwarded')) - forwardedBefore;
    const byClass = (cls: number): number =>
      [...statuses].filter(([s]) => Math.floor(s / 100) === cls).reduce((n, [, k]) => n + k, 0);
    recordFigures('http-fuzz', {
      seed,
      requests: total,
      concurrency: CONCURRENCY,
      statuses2xx: byClass(2),
      statuses4xx: byClass(4),
      statuses5xx: byClass(5),
      statuses503: statuses.get(503) ?? 0,
      statuses: Object.fromEntries([...statuses].sort(([a], [b]) => a - b)),
      categories: Object.fromEntries([...labels].sort()),
      exactAnswersChecked: exactChecked,
      forwardedByInstances: forwarded,
      droppedConnections: dropped,
      violations: violations.length,
      sentinelConnections: sentinel.connections,
      finalExactAnswers: finalChecked,
      fuzzSeconds,
      requestsPerSecond: Math.round(total / fuzzSeconds),
      wallSeconds: (Date.now() - started) / 1000,
    });

    if (violations.length > 0) {
      const file = join(tmpdir(), `http-fuzz-violations-${seed}.txt`);
      writeFileSync(file, `${violations.join('\n')}\n`);
      process.stdout.write(`[http-fuzz] ${violations.length} violations written to ${file}\n`);
    }
    expect(violations.slice(0, 20)).toEqual([]);
    expect(dropped).toBe(0);
    expect(sentinel.received).toEqual([]);
    expect(sentinel.connections).toBe(0);
    expect(live.map((r) => r.status)).toEqual([200, 200]);
    expect(finalChecked).toBe(cluster.users.length * 2);
    expect(forwarded).toBeGreaterThan(0);
    expect(byClass(5)).toBe(statuses.get(503) ?? 0);
  });
});

/** Everything wrong with one answer (empty when it follows the contract). */
function check(c: FuzzCase, r: RawResponse, endpoints: readonly string[]): string[] {
  const problems: string[] = [];
  const cls = Math.floor(r.status / 100);
  if (!(cls === 2 || cls === 4 || r.status === 503))
    problems.push(`status ${r.status}: ${r.body.slice(0, 300)}`);
  if (r.status === 503 && !/^\d+$/.test(String(r.headers['retry-after']))) {
    problems.push('503 without Retry-After');
  }
  const servedBy = r.headers['x-served-by'];
  if (typeof servedBy !== 'string' || !endpoints.includes(servedBy)) {
    problems.push(`X-Served-By '${String(servedBy)}' is not an instance (status ${r.status})`);
  }
  const e = c.expect;
  if (e.kind === 'status' && r.status !== e.status) {
    problems.push(`status ${r.status}, expected ${e.status}: ${r.body.slice(0, 300)}`);
  }
  if (e.kind === 'exact') {
    let body: unknown = r.body;
    try {
      body = JSON.parse(r.body);
    } catch {
      // compared as text below
    }
    const seen = { status: r.status, body, stale: r.headers['x-stale'] };
    const want = { status: e.status, body: e.body, stale: undefined };
    if (JSON.stringify(seen) !== JSON.stringify(want)) {
      problems.push(
        `got ${JSON.stringify(seen).slice(0, 400)}, expected ${JSON.stringify(want).slice(0, 400)}`,
      );
    }
    if (e.servedBy !== undefined && servedBy !== e.servedBy) {
      problems.push(`X-Served-By ${String(servedBy)}, expected the owner ${e.servedBy}`);
    }
  }
  return problems;
}

function summarize(c: FuzzCase): string {
  const path =
    c.request.path.length > 160
      ? `${c.request.path.slice(0, 160)}…(${c.request.path.length})`
      : c.request.path;
  return `[${c.label}] ${c.request.method} ${path} → instance ${c.target} headers ${JSON.stringify(c.request.headers)}`;
}
