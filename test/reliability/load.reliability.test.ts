import { HttpTestCluster } from './support/http-cluster';
import { runLoad, type LoadRunFigures } from './support/load-run';
import { recordFigures } from './support/reliability-report';
import { sized } from './support/reliability-size';

/** autocannon's per-request timeout (a request without an answer by then is a timeout). */
const CLIENT_TIMEOUT_SECONDS = 30;

/**
 * Load on `GET /stats/:userId` with autocannon against two instances (standby 1) holding exact
 * data: a mixed run (both instances at once, users interleaved so that exactly every other
 * request is forwarded to the other instance), then a run of only local users and one of only
 * forwarded users against the same instance, to compare. Every answer is checked: 200, the
 * user's exact totals, `X-Served-By` its owner; no errors, timeouts or non-2xx.
 */
describe('reliability: load on GET /stats/:userId', () => {
  // The owners stay up: on a saturated 2-core machine a forward may wait longer than the
  // default 5 s, and would then be answered (marked) by the standby. This scenario measures
  // the normal path, so it gives forwards as long as the client waits.
  const cluster = new HttpTestCluster({
    users: 40,
    events: 4_000,
    env: { FORWARDING_TIMEOUT_MS: String(CLIENT_TIMEOUT_SECONDS * 1000) },
  });
  afterAll(() => cluster.stop());

  it('serves every request exactly, local and forwarded, with no errors or timeouts', async () => {
    const started = Date.now();
    const connections = sized({ reduced: 50, full: 200 });
    const mixedSeconds = sized({ reduced: 8, full: 30 });
    const splitSeconds = sized({ reduced: 3, full: 15 });
    await cluster.start();
    const [a, b] = cluster.endpoints;
    const ownedBy = (endpoint: string) =>
      cluster.users.filter((u) => cluster.ownerOf.get(u) === endpoint);
    const ofA = ownedBy(a);
    const ofB = ownedBy(b);
    const pairs = Math.min(ofA.length, ofB.length);
    const interleaved = Array.from({ length: pairs }, (_, i) => [ofA[i], ofB[i]]).flat();
    const common = {
      truth: cluster.truth,
      ownerOf: cluster.ownerOf,
      users: interleaved,
      timeoutSeconds: CLIENT_TIMEOUT_SECONDS,
    };
    // Warm-up (JIT, connection pools), checked like the others but not measured.
    const warmUp = await Promise.all(
      [a, b].map((endpoint) =>
        runLoad({ ...common, endpoint, connections: 10, durationSeconds: 1 }),
      ),
    );
    const forwardedBefore = await cluster.routingCount('forwarded');
    const [mixedA, mixedB] = await Promise.all(
      [a, b].map((endpoint) =>
        runLoad({
          ...common,
          endpoint,
          connections: connections / 2,
          durationSeconds: mixedSeconds,
        }),
      ),
    );
    const forwardedMixed = (await cluster.routingCount('forwarded')) - forwardedBefore;
    const local = await runLoad({
      ...common,
      endpoint: a,
      users: ofA,
      connections: connections / 2,
      durationSeconds: splitSeconds,
    });
    const forwardedBeforeSplit = await cluster.routingCount('forwarded');
    const forwarded = await runLoad({
      ...common,
      endpoint: a,
      users: ofB,
      connections: connections / 2,
      durationSeconds: splitSeconds,
    });
    const forwardedSplit = (await cluster.routingCount('forwarded')) - forwardedBeforeSplit;
    const finalExact = await cluster.checkAllUsersExact();

    const runs = { warmUpA: warmUp[0], warmUpB: warmUp[1], mixedA, mixedB, local, forwarded };
    const mixedRequests = mixedA.requests + mixedB.requests;
    const figures = (f: LoadRunFigures) => {
      const { samples: _samples, ...rest } = f;
      return rest;
    };
    recordFigures('load', {
      connections,
      clientTimeoutSeconds: CLIENT_TIMEOUT_SECONDS,
      mixedSeconds,
      splitSeconds,
      usersOwnedByA: ofA.length,
      usersOwnedByB: ofB.length,
      mixedRequests,
      mixedRequestsPerSecond: mixedA.requestsPerSecond + mixedB.requestsPerSecond,
      mixedForwardedShare: Number(
        ((mixedA.forwardedAnswers + mixedB.forwardedAnswers) / mixedRequests).toFixed(3),
      ),
      forwardedCountedByInstancesMixed: forwardedMixed,
      forwardedCountedByInstancesSplit: forwardedSplit,
      mixedA: figures(mixedA),
      mixedB: figures(mixedB),
      local: figures(local),
      forwarded: figures(forwarded),
      warmUpRequests: warmUp[0].requests + warmUp[1].requests,
      finalExactAnswers: finalExact,
      wallSeconds: (Date.now() - started) / 1000,
    });

    for (const [name, run] of Object.entries(runs)) {
      for (const sample of run.samples) process.stdout.write(`[load] ${name} wrong: ${sample}\n`);
    }
    for (const [name, run] of Object.entries(runs)) {
      expect({
        name,
        errors: run.errors,
        timeouts: run.timeouts,
        non2xx: run.non2xx,
        resets: run.resets,
      }).toEqual({
        name,
        errors: 0,
        timeouts: 0,
        non2xx: 0,
        resets: 0,
      });
      expect({ name, wrong: run.wrongAnswers, samples: run.samples }).toEqual({
        name,
        wrong: 0,
        samples: [],
      });
      expect(run.requests).toBeGreaterThan(0);
      expect(run.answersChecked).toBe(run.requests);
    }
    expect(local.forwardedAnswers).toBe(0);
    expect(forwarded.forwardedAnswers).toBe(forwarded.requests);
    // Every other request of the mixed runs went to the other instance (± one per connection).
    for (const run of [mixedA, mixedB]) {
      expect(Math.abs(run.forwardedAnswers * 2 - run.requests)).toBeLessThanOrEqual(connections);
    }
    // The instances forwarded at least every forwarded answer (plus those cut at the end).
    expect(forwardedMixed).toBeGreaterThanOrEqual(
      mixedA.forwardedAnswers + mixedB.forwardedAnswers,
    );
    expect(forwardedMixed).toBeLessThanOrEqual(
      mixedA.forwardedAnswers + mixedB.forwardedAnswers + connections,
    );
    expect(forwardedSplit).toBeGreaterThanOrEqual(forwarded.requests);
    expect(forwardedSplit).toBeLessThanOrEqual(forwarded.requests + connections / 2);
    expect(finalExact).toBe(cluster.users.length * 2);
  });
});
