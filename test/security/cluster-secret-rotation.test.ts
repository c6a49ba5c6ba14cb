/**
 * The cluster secret rotated without downtime: two instances of the example application
 * (exact data, one standby) restarted one at a time, as a rolling update does, through the
 * three steps of a rotation: `FORWARDING_SECRET=old,new` (the first signs, any verifies), then
 * `new,old`, then `new`. After each restart, while one instance runs the step before and the
 * other the step after, every user is answered exactly by both (forwarding: hop tokens) and
 * ranges cover the whole cluster (the query port); a client asking throughout gets the truth,
 * a 503, or a standby copy's answer marked stale and behind by no more than its changelog
 * allows (right after the events, an owner's uncommitted work is in no changelog yet), never a
 * wrong answer; no message between the instances is refused. At the end the old secret alone
 * opens nothing.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type OrderStatsInstance,
  TEST_CLUSTER_SECRET,
} from '../../tools/instances/order-stats-instance';
import { signHopAsMember } from './support/hop-token';
import { HttpTestCluster } from '../reliability/support/http-cluster';
import { RawQueryConnection, sealAsMember } from '../reliability/support/query-port-client';
import { recordFigures } from '../reliability/support/reliability-report';
import { ClientLoop, countDelta, refusalsOf, type Refusals } from './support/security-probes';

const OLD = TEST_CLUSTER_SECRET;
const NEW = 'order-stats-rotated-cluster-secret';
const STEPS = [`${OLD},${NEW}`, `${NEW},${OLD}`, NEW];

describe('order-stats: rotating the cluster secret with rolling restarts', () => {
  const cluster = new HttpTestCluster({ users: 30, events: 900 });
  afterAll(() => cluster.stop());

  it('keeps answering exactly through old,new → new,old → new, and refuses the old secret after', async () => {
    await cluster.start();
    const loop = new ClientLoop(cluster);
    const expectedRange = cluster.users.map((userId) => ({
      userId,
      ...cluster.truth.get(userId),
    }));
    /** Refusal counters of each instance since its process started, or since the loop began. */
    const baseline = new Map<string, Refusals>();
    for (const instance of cluster.instances) {
      baseline.set(instance.endpoint, await refusalsOf(instance));
    }
    const steps: { step: string; restarted: string; checked: number; refused: unknown[] }[] = [];
    /** Every process that ran, for the dump of a failed run (`RELIABILITY_DUMP_DIR`). */
    const processes: OrderStatsInstance[] = [...cluster.instances];
    for (const step of STEPS) {
      for (const index of [0, 1]) {
        const endpoint = cluster.instances[index].endpoint;
        loop.leftOut = endpoint;
        loop.mark(`restarting ${endpoint} (${step})`);
        await cluster.restart(index, { FORWARDING_SECRET: step });
        processes.push(cluster.instances[index]);
        loop.mark(`restarted ${endpoint}, both ready`);
        // The restarted owner committed its work when it closed, and the other one committed
        // within a commit interval of its last batch: every event is in the changelogs now.
        if (steps.length === 0) loop.allCommitted();
        loop.leftOut = undefined;
        baseline.set(endpoint, { query: {}, hop: {} });
        // One instance on this step, the other on this step or the one before.
        const checked = await cluster.checkAllUsersExact();
        const ranges = await Promise.all(
          cluster.instances.map((i) => i.request('/stats/range?from=user-000&to=user-999')),
        );
        for (const range of ranges) {
          expect({ status: range.status, body: range.body }).toEqual({
            status: 200,
            body: expectedRange,
          });
        }
        const refused = await Promise.all(
          cluster.instances.map(async (i) => {
            const now = await refusalsOf(i);
            const since = baseline.get(i.endpoint)!;
            return {
              query: countDelta(since.query, now.query),
              hop: countDelta(since.hop, now.hop),
            };
          }),
        );
        steps.push({ step, restarted: endpoint, checked, refused });
        expect(checked).toBe(cluster.users.length * 2);
        expect(refused).toEqual([
          { query: {}, hop: {} },
          { query: {}, hop: {} },
        ]);
      }
    }
    const tally = await loop.stop();
    const dumpDir = process.env.RELIABILITY_DUMP_DIR;
    if (dumpDir && tally.wrong > 0) {
      processes.forEach((p, n) =>
        writeFileSync(join(dumpDir, `rotation-${n}-${p.endpoint.replace(':', '_')}.log`), p.output),
      );
      writeFileSync(join(dumpDir, 'rotation-loop.json'), JSON.stringify(tally, null, 2));
    }

    // The old secret alone no longer opens anything: a query or a hop sealed with it is refused.
    const [a, b] = cluster.instances;
    const before = await refusalsOf(a);
    const pattern = `nest-streams.query:127.0.0.1:${a.queryPort}`;
    const conn = await RawQueryConnection.open(a.queryPort);
    conn.send({
      pattern,
      id: 'old',
      data: sealAsMember(OLD, pattern, {
        version: 1,
        target: `127.0.0.1:${a.queryPort}`,
        from: b.endpoint,
        request: { storeName: 'stats-store', query: { type: 'range' } },
      }),
    });
    const oldQuery = await conn.answer();
    conn.close();
    const user = cluster.users.find((u) => cluster.ownerOf.get(u) === b.endpoint)!;
    const claim = { from: b.endpoint, target: a.endpoint, standby: true, url: `/stats/${user}` };
    const oldHop = await a.request(`/stats/${user}`, signHopAsMember(OLD, claim));
    const newHop = await a.request(`/stats/${user}`, signHopAsMember(NEW, claim));
    const after = await refusalsOf(a);
    recordFigures('security-rotation', {
      steps,
      clientAnswers: tally,
      oldSecretQuery: oldQuery,
      oldSecretHop: { status: oldHop.status, servedBy: oldHop.headers.get('x-served-by') },
    });

    expect(tally.wrong).toBe(0);
    expect(tally.samples).toEqual([]);
    expect(tally.exact).toBeGreaterThan(0);
    expect(oldQuery).toMatchObject({ response: { ok: false, failure: { code: 'QUERY_REFUSED' } } });
    // The old secret's hop gets no privilege (answered by the owner as a client's); the new one's does (a's standby copy).
    expect({
      status: oldHop.status,
      by: oldHop.headers.get('x-served-by'),
      stale: oldHop.headers.get('x-stale'),
    }).toEqual({
      status: 200,
      by: b.endpoint,
      stale: null,
    });
    expect({
      status: newHop.status,
      by: newHop.headers.get('x-served-by'),
      stale: newHop.headers.get('x-stale'),
    }).toEqual({
      status: 200,
      by: a.endpoint,
      stale: 'true',
    });
    expect(countDelta(before.query, after.query)).toEqual({ bad_signature: 1 });
    expect(countDelta(before.hop, after.hop)).toEqual({ bad_signature: 1 });
  }, 600_000);
});
