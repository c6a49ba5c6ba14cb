import {
  TEST_CLUSTER_SECRET,
  type OrderStatsInstance,
} from '../../tools/instances/order-stats-instance';
import { HttpTestCluster } from './support/http-cluster';
import { InstanceVitals } from './support/instance-vitals';
import {
  frame,
  frameOf,
  RawQueryConnection,
  sealAsMember,
  stream,
} from './support/query-port-client';
import { previousVersionHop, signHopAsMember } from '../security/support/hop-token';
import { countDelta, refusalsOf } from '../security/support/security-probes';
import { recordFigures } from './support/reliability-report';
import { sized } from './support/reliability-size';

/** Connections the outsider flood keeps in flight at once. */
const FLOOD_CONCURRENCY = 50;
/** The query server's defaults (queries.remote): connections held, auth timeout. */
const MAX_CONNECTIONS = 256;
const AUTH_TIMEOUT_MS = 10_000;
/** How long a refused connection may stay open before the test counts it as left open. */
const REFUSED_CLOSE_MS = 5_000;

const endpointOf = (i: OrderStatsInstance) => `127.0.0.1:${i.queryPort}`;
const patternOf = (i: OrderStatsInstance) => `nest-streams.query:${endpointOf(i)}`;
/** The probe: a range over the whole store, as an outsider writes it by hand. */
const probeOf = (i: OrderStatsInstance) => ({
  version: 1,
  target: endpointOf(i),
  from: 'outsider',
  request: {
    storeName: 'stats-store',
    query: { type: 'range', lower: { $nsw: 'undefined' }, upper: { $nsw: 'undefined' } },
  },
});

/** Entries in an answer of the query port, wherever they hide (0 for a refusal). */
function rowsIn(answer: unknown): number {
  const text = JSON.stringify(answer ?? null);
  return (text.match(/\\?"key\\?":/g) ?? []).length;
}

/**
 * The example application as an outsider on the same network finds it (two instances, exact
 * data, `FORWARDING_SECRET` set, the cluster page's key look-up on). On the query port the
 * issue's probe gets nothing; forged, replayed, expired and misdirected queries are refused
 * before any store is read; malformed
 * frames (not JSON, 10,000-deep nesting, a 2 GB length prefix, 50 MB of data, half a frame then
 * silence) and 1,000 idle connections crash nothing, hold no memory and do not block the event
 * loop (probed from outside every 50 ms); every refusal is counted by reason and the log stays
 * short. Afterwards both instances still answer every user exactly, ranges included (which go
 * through the query port between the instances). On the public port a hop token opens its
 * privilege once, and the key look-up answers members only.
 */
describe('reliability: security between the instances and of the public port', () => {
  // The cluster page's key look-up on (DASHBOARD_LOOKUP): on PORT, for cluster members only.
  const cluster = new HttpTestCluster({
    users: 50,
    events: 2_000,
    env: { DASHBOARD_LOOKUP: 'true' },
  });
  afterAll(() => cluster.stop());

  it('gives outsiders nothing and survives what they send', async () => {
    const started = Date.now();
    const floodSize = sized({ reduced: 1_000, full: 20_000 });
    await cluster.start();
    const [a, b] = cluster.instances;
    const refusalsBefore = await Promise.all([a, b].map(async (i) => (await refusalsOf(i)).query));
    const idleVitals = new InstanceVitals(a.process.pid!, a.port);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const baseline = await idleVitals.stop();
    const vitals = new InstanceVitals(a.process.pid!, a.port);

    // 1. The probe, on both instances. Every refused connection must be closed by the
    // server (bounded waits: a server that answers and keeps the connection fails, not hangs).
    let leftOpen = 0;
    const probeAnswers = [];
    for (const instance of [a, b]) {
      const conn = await RawQueryConnection.open(instance.queryPort);
      conn.send({ pattern: patternOf(instance), data: probeOf(instance), id: 'probe' });
      probeAnswers.push(await conn.answer());
      if ((await conn.closedWithin(REFUSED_CLOSE_MS)) === undefined) leftOpen++;
    }
    const probeRows = probeAnswers.reduce<number>((n, answer) => n + rowsIn(answer), 0);

    // 2. A flood of probes.
    const floodStarted = Date.now();
    let floodRows = 0;
    let floodRefused = 0;
    let next = 0;
    await Promise.all(
      Array.from({ length: FLOOD_CONCURRENCY }, async () => {
        while (next < floodSize) {
          const id = String(next++);
          const conn = await RawQueryConnection.open(a.queryPort);
          conn.send({ pattern: patternOf(a), data: probeOf(a), id });
          const answer = (await conn.answer()) as { response?: { failure?: { code?: string } } };
          floodRows += rowsIn(answer);
          if (answer?.response?.failure?.code === 'QUERY_REFUSED') floodRefused++;
          if ((await conn.closedWithin(REFUSED_CLOSE_MS)) === undefined) leftOpen++;
        }
      }),
    );
    const floodSeconds = (Date.now() - floodStarted) / 1000;

    // 3. Forged, replayed, expired, misdirected (sealed as a member who knows the secret).
    const ask = async (data: unknown) => {
      const conn = await RawQueryConnection.open(a.queryPort);
      conn.send({ pattern: patternOf(a), data, id: 'x' });
      const answer = await conn.answer();
      conn.close();
      return answer as { response?: Record<string, unknown> };
    };
    const genuine = sealAsMember(TEST_CLUSTER_SECRET, patternOf(a), probeOf(a));
    const forged = { ...genuine, mac: Buffer.alloc(32, 7).toString('base64url') };
    const otherSecret = sealAsMember('not-the-cluster-secret!!', patternOf(a), probeOf(a));
    const memberAnswer = await ask(genuine);
    const answers = {
      forged: await ask(forged),
      otherSecret: await ask(otherSecret),
      replayed: await ask(genuine),
      expired: await ask(
        sealAsMember(TEST_CLUSTER_SECRET, patternOf(a), probeOf(a), { ts: Date.now() - 120_000 }),
      ),
      misdirected: await ask(sealAsMember(TEST_CLUSTER_SECRET, patternOf(b), probeOf(b))),
    };
    const memberRows = rowsIn(JSON.parse(String(memberAnswer.response?.body ?? 'null')));
    const refusedRows = Object.values(answers).reduce((n, x) => n + rowsIn(x), 0);

    // 4. Malformed frames.
    const notJson = await RawQueryConnection.open(a.queryPort);
    notJson.write(frameOf('not JSON, {'));
    const deep = '['.repeat(10_000) + ']'.repeat(10_000);
    const deepPattern = await RawQueryConnection.open(a.queryPort);
    deepPattern.write(frameOf(`{"pattern":${deep},"data":1,"id":"d1"}`));
    const deepData = await RawQueryConnection.open(a.queryPort);
    deepData.write(frameOf(`{"pattern":"${patternOf(a)}","data":${deep},"id":"d2"}`));
    const [huge, bulk] = await Promise.all([
      stream(a.queryPort, '2147483648#', 50 * 1024 * 1024),
      stream(a.queryPort, '52428800#', 50 * 1024 * 1024),
    ]);
    const half = await RawQueryConnection.open(a.queryPort);
    half.write(frame({ pattern: patternOf(a), data: probeOf(a), id: 'h' }).slice(0, 60));
    const untilTimeout = AUTH_TIMEOUT_MS + REFUSED_CLOSE_MS;
    const malformedClosed = await Promise.all(
      [notJson, deepPattern, deepData].map((c) => c.closedWithin(untilTimeout)),
    );
    const halfOpenMs = await half.closedWithin(untilTimeout);
    const deepDataRefused = (deepData.frames[0] as { response?: { failure?: { code?: string } } })
      ?.response?.failure?.code;

    // 5. 1,000 idle connections.
    const idle = await Promise.all(
      Array.from({ length: 1000 }, () =>
        RawQueryConnection.open(a.queryPort).catch(() => undefined),
      ),
    );
    const idleOpenMs = await Promise.all(
      idle.map((c) => c?.closedWithin(untilTimeout) ?? Promise.resolve(0)),
    );
    const cutAtOnce = idleOpenMs.filter(
      (ms) => ms !== undefined && ms < AUTH_TIMEOUT_MS / 2,
    ).length;
    const timedOut = idleOpenMs.filter(
      (ms) => ms !== undefined && ms >= AUTH_TIMEOUT_MS - 500,
    ).length;
    const held = idleOpenMs.filter((ms): ms is number => ms !== undefined && ms >= 1000);
    const attacked = await vitals.stop();

    // Afterwards: both alive and exact, ranges through the query port included.
    const live = await Promise.all(cluster.instances.map((i) => i.request('/health/live')));
    const finalChecked = await cluster.checkAllUsersExact();
    const range = await a.request('/stats/range?from=user-000&to=user-999');
    const expectedRange = cluster.users.map((userId) => ({ userId, ...cluster.truth.get(userId) }));
    const after = await Promise.all([a, b].map(async (i) => (await refusalsOf(i)).query));
    const delta = (i: 0 | 1) =>
      Object.fromEntries(
        Object.entries(after[i])
          .map(([reason, n]) => [reason, n - (refusalsBefore[i][reason] ?? 0)])
          .filter(([, n]) => n !== 0),
      );
    const logLines = (a.output.match(/refused an instance-to-instance message/g) ?? []).length;

    recordFigures('security', {
      outsiderProbeRows: probeRows,
      probesRefused: floodRefused,
      floodProbes: floodSize,
      floodRows,
      floodPerSecond: Math.round(floodSize / floodSeconds),
      memberRows,
      refusedRows,
      refusedConnectionsLeftOpen: leftOpen,
      hugePrefix: huge,
      fiftyMb: bulk,
      halfFrameClosedAfterMs: halfOpenMs,
      malformedClosedAfterMs: malformedClosed,
      idleConnections: {
        opened: idle.filter(Boolean).length,
        cutAtOnce,
        timedOut,
        leftOpen: idleOpenMs.filter((ms) => ms === undefined).length,
        heldMs: held.length === 0 ? [] : [Math.min(...held), Math.max(...held)],
      },
      refusalsA: delta(0),
      refusalsB: delta(1),
      refusalLogLines: logLines,
      baseline,
      underAttack: attacked,
      rssGrowthMb: Math.round((attacked.rssPeakMb - baseline.rssStartMb) * 10) / 10,
      finalExactAnswers: finalChecked,
      wallSeconds: (Date.now() - started) / 1000,
    });

    // Outsiders get nothing; members get their data (the path works).
    expect(probeRows).toBe(0);
    expect(floodRows).toBe(0);
    expect(floodRefused).toBe(floodSize);
    expect(refusedRows).toBe(0);
    expect(leftOpen).toBe(0);
    expect(memberRows).toBeGreaterThan(0);
    for (const answer of [...probeAnswers, ...Object.values(answers)]) {
      expect(answer).toMatchObject({ response: { ok: false, failure: { code: 'QUERY_REFUSED' } } });
    }
    // Malformed input closes its connection, after at most maxRequestBytes or the auth timeout.
    expect(deepDataRefused).toBe('QUERY_REFUSED');
    // (What the client managed to send includes what the kernels buffered on the way: the
    // server cut it at maxRequestBytes, as the `oversized` count and its memory show.)
    for (const attack of [huge, bulk]) {
      expect(attack.closedByServer).toBe(true);
      expect(attack.bytesSent).toBeLessThan(50 * 1024 * 1024);
    }
    expect(malformedClosed.map((ms) => ms !== undefined && ms < REFUSED_CLOSE_MS)).toEqual([
      true,
      true,
      true,
    ]);
    expect(halfOpenMs).toBeGreaterThanOrEqual(AUTH_TIMEOUT_MS - 500);
    expect(halfOpenMs).toBeLessThan(untilTimeout);
    expect(cutAtOnce + timedOut).toBe(1000);
    expect(timedOut).toBeGreaterThan(0);
    expect(timedOut).toBeLessThanOrEqual(MAX_CONNECTIONS);
    // Every refusal counted, by reason.
    expect(delta(0)).toEqual({
      unauthenticated: floodSize + 3,
      bad_signature: 2,
      replayed: 1,
      expired: 1,
      wrong_target: 1,
      malformed_frame: 1,
      oversized: 2,
      auth_timeout: 1 + timedOut,
    });
    expect(delta(1)).toEqual({ unauthenticated: 1 });
    // The log: at most a line per reason per 10 s.
    const reasons = 8;
    expect(logLines).toBeLessThanOrEqual(
      reasons * (Math.ceil((Date.now() - started) / 10_000) + 1),
    );
    // No crash, bounded memory, an event loop that kept answering.
    expect(live.map((r) => r.status)).toEqual([200, 200]);
    expect(attacked.probeFailures).toBe(0);
    expect(attacked.rssPeakMb - baseline.rssStartMb).toBeLessThan(100);
    expect(attacked.probeMaxMs).toBeLessThan(1000);
    expect(finalChecked).toBe(cluster.users.length * 2);
    expect(range.body).toEqual(expectedRange);
  });

  /**
   * A hop's privilege (reading the target's standby copy directly, or not being forwarded on)
   * is given once, to a fresh token sealed for that instance and that request: a replayed,
   * late, misdirected, forged or earlier-version token is refused before any store is read,
   * counted by reason and logged once per reason per 10 s, and its request is answered as a
   * client's (forwarded to the owner).
   */
  it('trusts a hop token once, for its target only', async () => {
    const [a, b] = cluster.instances;
    const user = cluster.users.find((u) => cluster.ownerOf.get(u) === b.endpoint)!;
    const path = `/stats/${user}`;
    // A standby read forwarded by b to a (which holds the standby copy of b's partitions).
    const claim = { from: b.endpoint, target: a.endpoint, standby: true, url: path };
    const genuine = signHopAsMember(TEST_CLUSTER_SECRET, claim);
    const before = await Promise.all([a, b].map(refusalsOf));
    const outcome = async (headers: Record<string, string>) => {
      const r = await a.request(path, headers);
      return {
        status: r.status,
        body: r.body,
        servedBy: r.headers.get('x-served-by'),
        stale: r.headers.get('x-stale'),
      };
    };
    const trusted = await outcome(genuine);
    const asClient = {
      status: 200,
      body: cluster.truth.get(user),
      servedBy: b.endpoint,
      stale: null,
    };
    const refused = {
      replayed: await outcome(genuine),
      expired: await outcome(
        signHopAsMember(TEST_CLUSTER_SECRET, { ...claim, ts: Date.now() - 60_000 }),
      ),
      misdirected: await outcome(
        signHopAsMember(TEST_CLUSTER_SECRET, { ...claim, target: b.endpoint }),
      ),
      forged: await outcome(signHopAsMember('not-the-cluster-secret!!', claim)),
      previousVersion: await outcome(previousVersionHop(TEST_CLUSTER_SECRET, claim)),
      otherPath: await outcome(
        signHopAsMember(TEST_CLUSTER_SECRET, { ...claim, url: `/stats/${cluster.users[0]}` }),
      ),
    };
    // A flood of replays: counted, not logged again.
    const flood = await Promise.all(Array.from({ length: 100 }, () => outcome(genuine)));
    const after = await Promise.all([a, b].map(refusalsOf));
    const logLines = (a.output.match(/refused the hop token of a forwarded request/g) ?? []).length;
    recordFigures('security-hops', {
      trusted,
      refused,
      floodAnsweredAsClient: flood.filter((o) => JSON.stringify(o) === JSON.stringify(asClient))
        .length,
      hopRefusalsA: countDelta(before[0].hop, after[0].hop),
      hopRefusalsB: countDelta(before[1].hop, after[1].hop),
      logLines,
    });

    // Trusted once: a's standby copy answered, marked stale.
    expect(trusted).toEqual({
      status: 200,
      body: cluster.truth.get(user),
      servedBy: a.endpoint,
      stale: 'true',
    });
    // Every other token: no privilege; answered as a client's request is, by the owner.
    for (const answer of [...Object.values(refused), ...flood]) expect(answer).toEqual(asClient);
    expect(countDelta(before[0].hop, after[0].hop)).toEqual({
      replayed: 101,
      expired: 1,
      wrong_target: 1,
      bad_signature: 2,
      unauthenticated: 1,
    });
    // b trusted every request a forwarded to it (fresh tokens), and refused nothing.
    expect(countDelta(before[1].hop, after[1].hop)).toEqual({});
    expect(countDelta(before[0].query, after[0].query)).toEqual({});
    // One line per reason (all within 10 s).
    expect(logLines).toBe(5);
  });

  /**
   * The cluster page's key look-up, on with DASHBOARD_LOOKUP=true and no management port:
   * served on the public port, it answers only a caller holding the cluster secret.
   */
  it('answers the key look-up on the public port to members only', async () => {
    const [a] = cluster.instances;
    const user = cluster.users[0];
    const lookup = `/streams/ui/api/lookup?store=stats-store&key=${user}`;
    const outsider = await Promise.all(
      [
        {},
        { authorization: 'Bearer not-the-cluster-secret' },
        { authorization: `Basic ${TEST_CLUSTER_SECRET}` },
        signHopAsMember('not-the-cluster-secret!!', {
          from: a.endpoint,
          target: a.endpoint,
          url: lookup,
        }),
      ].map(async (headers) => {
        const r = await a.request(lookup, headers);
        return {
          status: r.status,
          challenge: r.headers.get('www-authenticate'),
          rows: rowsIn(r.body),
        };
      }),
    );
    const member = await a.request<{ copies: { role: string; answer: { value: string } }[] }>(
      lookup,
      { authorization: `Bearer ${TEST_CLUSTER_SECRET}` },
    );
    for (const answer of outsider) {
      expect(answer).toEqual({
        status: 401,
        challenge: 'Bearer realm="nest-streams cluster page"',
        rows: 0,
      });
    }
    expect(member.status).toBe(200);
    const active = member.body.copies.find((c) => c.role === 'active');
    expect(JSON.parse(active!.answer.value)).toEqual(cluster.truth.get(user));
  });
});
