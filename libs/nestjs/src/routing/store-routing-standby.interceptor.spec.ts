import { StateStoreMigratedError } from '@nest-streams/streams';
import { partitionOf } from '../../test-support/fake-kafka-streams';
import { call } from '../../test-support/http-fixtures';
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
  useRoutingApp,
} from '../../test-support/routing-spec-harness';

/** The routing's standby fallbacks: stale-marked answers, and 503s rather than a wrong 404. */
describe.each(['express', 'fastify'] as const)(
  'StoreRoutingInterceptor standbys on %s',
  (platform) => {
    useRoutingApp(platform);

    it("answers from this instance's standby copy, marked stale with the copy's lag", async () => {
      const p = partitionOf('u1');
      fake.owns(dead, [SELF], p);
      fake.keyValueCopies = [{ partition: p, active: false, lag: 42, values: { u1: 5 } }];
      const answer = await call(base, '/stats/read/u1');
      expect(answer.status).toBe(200);
      expect(answer.json).toEqual({ userId: 'u1', value: 5 });
      expect(answer.headers['x-stale']).toBe('true');
      expect(answer.headers['x-lag']).toBe('42');
      expect(answer.headers['x-served-by']).toBe(SELF);
      expect(forward).toHaveBeenCalledTimes(1);
    });

    it("answers 503 from this instance's standby copy when its changelog's end does not arrive", async () => {
      // The changelog's leader hung: the lag the copy would report is against old ends (it may
      // say 0 while behind). Within the bound (500 ms), not the client's request timeout.
      const p = partitionOf('u1');
      fake.owns(dead, [SELF], p);
      fake.keyValueCopies = [{ partition: p, active: false, lag: 0, values: { u1: 5 } }];
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
      const p = partitionOf('u1');
      fake.owns(dead, [SELF], p);
      fake.keyValueCopies = [{ partition: p, active: false, lag: 3, values: {} }];
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
      expect(answer.status).toBe(200);
      expect(answer.json).toEqual({ userId: 'u1', value: 6 });
      expect(answer.headers['x-stale']).toBe('true');
      expect(answer.headers['x-lag']).toBe('5');
      expect(answer.headers['x-served-by']).toBe(SELF);
      expect(forward).not.toHaveBeenCalled();
    });

    it('forwards to a standby when it is the named owner without any copy (restarted, restoring)', async () => {
      fake.owns(SELF, [standby.endpoint]);
      fake.localCopy = undefined;
      standby.headers = { 'x-stale': 'true', 'x-lag': '9' };
      const answer = await call(base, '/stats/stale/u1');
      expect(answer.status).toBe(200);
      expect(answer.json).toEqual({ from: 'standby' });
      expect(answer.headers['x-served-by']).toBe(standby.endpoint);
      expect(answer.headers['x-stale']).toBe('true');
      expect(standby.seen).toHaveLength(1);
      expect(standby.seen[0].headers['x-streams-standby-read']).toBe('true');
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
      const p = partitionOf('u1');
      fake.owns(dead, [SELF], p);
      fake.keyValueCopies = [{ partition: p, active: true, lag: 0, values: { u1: 8 } }];
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
      expect(answer.status).toBe(200);
      expect(answer.json).toEqual({ from: 'standby' });
      expect(answer.headers['x-served-by']).toBe(standby.endpoint);
      expect(answer.headers['x-stale']).toBe('true');
      expect(answer.headers['x-lag']).toBe('7');
      expect(standby.seen).toHaveLength(1);
      expect(standby.seen[0].headers['x-streams-standby-read']).toBe('true');
      expect(standby.seen[0].headers['x-streams-forwarded']).toBe(SELF);
    });

    it('serves a forwarded standby read from its standby copy when it holds one', async () => {
      const p = partitionOf('u1');
      fake.owns(dead, [SELF], p);
      fake.keyValueCopies = [{ partition: p, active: false, lag: 2, values: { u1: 4 } }];
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
