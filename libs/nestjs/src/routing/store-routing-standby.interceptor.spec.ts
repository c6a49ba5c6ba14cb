import { StateStoreMigratedError } from '@nest-streams/streams';
import { partitionOf } from '../../test-support/fake-kafka-streams';
import { type Answer, call } from '../../test-support/http-fixtures';
import {
  base,
  dead,
  fake,
  forward,
  hopsOf,
  owner,
  routed,
  SELF,
  standby,
  ROUTING_APPS,
  useRoutingApp,
} from '../../test-support/routing-spec-harness';

/**
 * The owner of `u1` is unreachable and this instance holds `u1`'s partition: `copy` is that
 * partition's only local copy (a standby unless `active`).
 */
function copyHere(copy: { lag: number; values: Record<string, number>; active?: boolean }): void {
  const p = partitionOf('u1');
  fake.owns(dead, [SELF], p);
  fake.keyValueCopies = [
    { partition: p, active: copy.active ?? false, lag: copy.lag, values: copy.values },
  ];
}

/** `answer` is `u1`'s `value` read from this instance's copy, marked stale with `lag`. */
function expectStaleAnswerHere(answer: Answer, value: number, lag: number): void {
  expect(answer.status).toBe(200);
  expect(answer.json).toEqual({ userId: 'u1', value });
  expect(answer.headers['x-stale']).toBe('true');
  expect(answer.headers['x-lag']).toBe(String(lag));
  expect(answer.headers['x-served-by']).toBe(SELF);
}

/** `answer` is the standby instance's, relayed: a stale read it was asked for as one, once. */
function expectAnsweredByStandby(answer: Answer): void {
  expect(answer.status).toBe(200);
  expect(answer.json).toEqual({ from: 'standby' });
  expect(answer.headers['x-served-by']).toBe(standby.endpoint);
  expect(answer.headers['x-stale']).toBe('true');
  expect(standby.seen).toHaveLength(1);
  expect(standby.seen[0].headers['x-streams-standby-read']).toBe('true');
}

/** The routing's standby fallbacks: stale-marked answers, and 503s rather than a wrong 404. */
describe.each(ROUTING_APPS)(
  '@RouteByKey routing: standbys on %s, routed by the %s',
  (platform, routing) => {
    useRoutingApp(platform, routing);

    it("answers from this instance's standby copy, marked stale with the copy's lag", async () => {
      copyHere({ lag: 42, values: { u1: 5 } });
      const answer = await call(base, '/stats/read/u1');
      expectStaleAnswerHere(answer, 5, 42);
      expect(forward).toHaveBeenCalledTimes(1);
    });

    it('marks the answer of a handler without @RouteByKey stale when a standby copy answers its read', async () => {
      // The named owner whose task still moves here: the query service reads its standby copy.
      const p = partitionOf('u1');
      fake.owns(SELF, [], p);
      fake.localCopy = 'standby';
      const answered = (active: boolean, lag: number, value: number) => () => ({
        partitionResults: [
          { partition: p, success: true, active, lag, result: value, position: {} },
        ],
        position: {},
      });
      const answer = fake.answer;
      try {
        fake.answer = answered(false, 7, 5);
        const stale = await call(base, '/stats/query/u1');
        expect(stale.status).toBe(200);
        expect(stale.json).toEqual({ userId: 'u1', value: 5 });
        expect(stale.headers['x-stale']).toBe('true');
        expect(stale.headers['x-lag']).toBe('7');

        // Its active copy now: no mark, nothing left over from the request before.
        fake.localCopy = 'active';
        fake.answer = answered(true, 0, 6);
        const active = await call(base, '/stats/query/u1');
        expect(active.status).toBe(200);
        expect(active.json).toEqual({ userId: 'u1', value: 6 });
        expect(active.headers['x-stale']).toBeUndefined();
        expect(routed.handled).toEqual(['u1', 'u1']);
        expect(forward).not.toHaveBeenCalled();
      } finally {
        fake.answer = answer;
      }
    });

    it("answers 503 from this instance's standby copy when its changelog's end does not arrive", async () => {
      // The changelog's leader hung: the lag the copy would report is against old ends (it may
      // say 0 while behind). Within the bound (500 ms), not the client's request timeout.
      copyHere({ lag: 0, values: { u1: 5 } });
      fake.lagsHang = true;
      const started = Date.now();
      const answer = await call(base, '/stats/read/u1');
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(answer.status).toBe(503);
      expect(answer.headers['retry-after']).toBe('3');
      expect(answer.json).toMatchObject({ retriable: true });
      expect(String((answer.json as { message?: unknown }).message)).toContain(
        "standby copy cannot say its lag: its changelog's end offsets did not arrive in time",
      );
      expect(answer.headers['x-stale']).toBeUndefined();
      expect(routed.handled).toEqual([]);
    });

    it("says 'not found' from a standby copy only marked stale, with its lag", async () => {
      copyHere({ lag: 3, values: {} });
      const answer = await call(base, '/stats/read/u1');
      expect(answer.status).toBe(404);
      expect(answer.headers['x-stale']).toBe('true');
      expect(answer.headers['x-lag']).toBe('3');
    });

    it("answers 503, never 404, when the key's standby copy left before the read", async () => {
      // The decision was made on metadata naming this instance a standby of the key's partition;
      // by the time the handler reads, that copy is gone (a rebalance moved it) and only other
      // partitions are here. They do not hold the key: "not found" would be a wrong answer.
      const p = partitionOf('u1');
      fake.owns(dead, [SELF], p);
      fake.keyValueCopies = [0, 1, 2]
        .filter((q) => q !== p)
        .map((q) => ({ partition: q, active: q % 2 === 0, lag: q % 2 === 0 ? 0 : 1, values: {} }));
      const answer = await call(base, '/stats/read/u1');
      expect(answer.status).toBe(503);
      expect(answer.headers['retry-after']).toBe('3');
      expect(answer.json).toMatchObject({ code: 'STORE_MIGRATED', retriable: true });
      expect(answer.headers['x-stale']).toBeUndefined();
      expect(routed.handled).toEqual(['u1']);
    });

    it("answers 503, never 404, when this instance was the owner but the key's partition moved", async () => {
      const p = partitionOf('u1');
      fake.owns(SELF, [], p);
      fake.keyValueCopies = [0, 1, 2]
        .filter((q) => q !== p)
        .map((q) => ({ partition: q, active: true, lag: 0, values: {} }));
      const answer = await call(base, '/stats/read/u1');
      expect(answer.status).toBe(503);
      expect(answer.headers['retry-after']).toBe('3');
    });

    it('answers from its standby copy when it is the named owner but the task still moves here', async () => {
      // Cooperative rebalancing: the metadata names this instance, which holds the task as a
      // standby until the old owner gives it up.
      const p = partitionOf('u1');
      fake.owns(SELF, [], p);
      fake.localCopy = 'standby';
      fake.keyValueCopies = [{ partition: p, active: false, lag: 5, values: { u1: 6 } }];
      const answer = await call(base, '/stats/read/u1');
      expectStaleAnswerHere(answer, 6, 5);
      expect(forward).not.toHaveBeenCalled();
    });

    it('forwards to a standby when it is the named owner without any copy (restarted, restoring)', async () => {
      fake.owns(SELF, [standby.endpoint]);
      fake.localCopy = undefined;
      standby.headers = { 'x-stale': 'true', 'x-lag': '9' };
      const answer = await call(base, '/stats/stale/u1');
      expectAnsweredByStandby(answer);
      expect(routed.handled).toEqual([]);
    });

    it('without stale reads, the named owner without an active copy runs the handler (503 from the store)', async () => {
      const p = partitionOf('u1');
      fake.owns(SELF, [standby.endpoint], p);
      fake.localCopy = 'standby';
      routed.failWith = new StateStoreMigratedError(
        'no active copy of partition 1 here: rediscover',
      );
      const answer = await call(base, '/stats/u1');
      expect(answer.status).toBe(503);
      expect(answer.headers['retry-after']).toBe('3');
      expect(routed.handled).toEqual(['u1']);
      expect(standby.seen).toHaveLength(0);
    });

    it('a forwarded request to the named owner without an active copy is not forwarded on', async () => {
      const p = partitionOf('u1');
      fake.owns(SELF, [standby.endpoint], p);
      fake.localCopy = undefined;
      fake.keyValueCopies = [];
      const answer = await call(base, '/stats/read/u1', {
        headers: hopsOf(owner.endpoint).sign(SELF, false, 'GET', '/stats/read/u1'),
      });
      expect(answer.status).toBe(503);
      expect(forward).not.toHaveBeenCalled();
      expect(standby.seen).toHaveLength(0);
    });

    it('does not mark an answer stale when the active copy answered it after all', async () => {
      // Decided as a standby read, but the copy became active (promoted) before the read.
      copyHere({ lag: 0, values: { u1: 8 }, active: true });
      const answer = await call(base, '/stats/read/u1');
      expect(answer.status).toBe(200);
      expect(answer.json).toEqual({ userId: 'u1', value: 8 });
      expect(answer.headers['x-stale']).toBeUndefined();
      expect(answer.headers['x-lag']).toBeUndefined();
    });

    it('forwards to a standby instance when the owner is unreachable and the route allows it', async () => {
      fake.owns(dead, [standby.endpoint]);
      standby.headers = { 'x-stale': 'true', 'x-lag': '7' };
      const answer = await call(base, '/stats/stale/u1');
      expectAnsweredByStandby(answer);
      expect(answer.headers['x-lag']).toBe('7');
      expect(standby.seen[0].headers['x-streams-forwarded']).toBe(SELF);
    });

    it('serves a forwarded standby read from its standby copy when it holds one', async () => {
      copyHere({ lag: 2, values: { u1: 4 } });
      const answer = await call(base, '/stats/read/u1', {
        headers: hopsOf(owner.endpoint).sign(SELF, true, 'GET', '/stats/read/u1'),
      });
      expect(answer.status).toBe(200);
      expect(answer.json).toEqual({ userId: 'u1', value: 4 });
      expect(answer.headers['x-stale']).toBe('true');
      expect(answer.headers['x-lag']).toBe('2');
      expect(forward).not.toHaveBeenCalled();
    });
  },
);
