import {
  type HostInfo,
  KeyQueryMetadata,
  SerializationError,
  StateStoreNotAvailableError,
  UnknownStateStoreError,
} from '@nest-streams/streams';
import { StreamsMetricsService } from '../metrics/streams-metrics.service';
import { call } from '../../test-support/http-fixtures';
import {
  app,
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

describe.each(ROUTING_APPS)('@RouteByKey routing on %s, routed by the %s', (platform, routing) => {
  useRoutingApp(platform, routing);

  it('runs the handler here when this instance owns the key, never calling the forwarder', async () => {
    fake.owns(SELF);
    const answer = await call(base, '/stats/u1');
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ userId: 'u1', servedHere: true, stale: false });
    expect(answer.headers['x-served-by']).toBe(SELF);
    expect(routed.handled).toEqual(['u1']);
    expect(forward).not.toHaveBeenCalled();
    expect(owner.seen).toHaveLength(0);
  });

  it('forwards to exactly the owner, once, with the hop header, and relays its answer', async () => {
    fake.owns(owner.endpoint);
    const answer = await call(base, '/stats/u1?detail=1');
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ from: 'owner' });
    expect(answer.headers['x-served-by']).toBe(owner.endpoint);
    expect(routed.handled).toEqual([]);
    expect(forward).toHaveBeenCalledTimes(1);
    expect((forward.mock.calls[0][1] as HostInfo).toString()).toBe(owner.endpoint);
    expect(owner.seen).toHaveLength(1);
    expect(owner.seen[0]).toMatchObject({ method: 'GET', url: '/stats/u1?detail=1' });
    expect(owner.seen[0].headers['x-streams-forwarded']).toBe(SELF);
    expect(owner.seen[0].headers.host).toBe(owner.endpoint);
    expect(standby.seen).toHaveLength(0);
  });

  it('forwards the method and body, and relays a status other than the route default', async () => {
    fake.owns(owner.endpoint);
    owner.status = 201;
    let answer = await call(base, '/stats/u1/orders', { method: 'POST', body: { amount: 5 } });
    expect(answer.status).toBe(201);
    expect(owner.seen[0]).toMatchObject({ method: 'POST', url: '/stats/u1/orders' });
    expect(JSON.parse(owner.seen[0].body)).toEqual({ amount: 5 });
    expect(owner.seen[0].headers['content-type']).toBe('application/json');

    owner.status = 404;
    owner.body = { statusCode: 404, message: 'unknown user' };
    answer = await call(base, '/stats/nobody');
    expect(answer.status).toBe(404);
    expect(answer.json).toEqual({ statusCode: 404, message: 'unknown user' });
    expect(answer.headers['x-served-by']).toBe(owner.endpoint);
  });

  it('answers 503 with Retry-After while no instance is the confirmed owner', async () => {
    fake.metadata = KeyQueryMetadata.NOT_AVAILABLE;
    const answer = await call(base, '/stats/u1');
    expect(answer.status).toBe(503);
    expect(answer.headers['retry-after']).toBe('3');
    expect(answer.headers['x-served-by']).toBe(SELF);
    expect(answer.json).toMatchObject({ code: 'KEY_OWNER_NOT_AVAILABLE', retriable: true });
    expect(routed.handled).toEqual([]);
    expect(forward).not.toHaveBeenCalled();
  });

  it('answers 503 when the owner is unreachable and stale reads are not allowed', async () => {
    fake.owns(dead, [SELF]);
    const answer = await call(base, '/stats/u1');
    expect(answer.status).toBe(503);
    expect(answer.headers['retry-after']).toBe('3');
    expect(answer.headers['x-stale']).toBeUndefined();
    expect(routed.handled).toEqual([]);
  });

  it('never forwards again a request that carries a valid hop header', async () => {
    fake.owns(owner.endpoint);
    const answer = await call(base, '/stats/u1', {
      headers: hopsOf(standby.endpoint).sign(SELF, false, 'GET', '/stats/u1'),
    });
    expect(answer.status).toBe(503);
    expect(answer.headers['retry-after']).toBe('3');
    expect(forward).not.toHaveBeenCalled();
    expect(owner.seen).toHaveLength(0);
    expect(routed.handled).toEqual([]);
  });

  it('ignores forged hop headers: forwards once to the owner with its own signed hop', async () => {
    fake.owns(owner.endpoint);
    const signed = hopsOf(standby.endpoint).sign(SELF, true, 'GET', '/stats/u2');
    for (const headers of [
      { 'X-Streams-Forwarded': 'evil.example:80', 'X-Streams-Standby-Read': 'true' },
      { 'x-streams-forwarded': standby.endpoint, 'x-streams-hop-token': '0'.repeat(64) },
      signed, // valid for another path: not for this one
    ]) {
      owner.seen.length = 0;
      const answer = await call(base, '/stats/u1', { headers });
      expect(answer.status).toBe(200);
      expect(answer.json).toEqual({ from: 'owner' });
      expect(owner.seen).toHaveLength(1);
      const hop = owner.seen[0].headers;
      expect(hop['x-streams-forwarded']).toBe(SELF);
      expect(hop['x-streams-standby-read']).toBeUndefined();
      // A hop the owner trusts: signed for it, for this request.
      expect(hopsOf(owner.endpoint).verify(hop, 'GET', '/stats/u1')).toEqual({
        hop: { from: SELF, standby: false },
      });
    }
    expect(routed.handled).toEqual([]);
  });

  it('refuses a replayed, late or misdirected hop before any store is read, counting each reason', async () => {
    const refusals = async () => {
      const text = await app.get(StreamsMetricsService).metrics();
      return Object.fromEntries(
        [...text.matchAll(/^kafka_streams_hop_refusals_total\{reason="(\w+)"\} (\d+)$/gm)].map(
          (m) => [m[1], Number(m[2])],
        ),
      );
    };
    const before = await refusals();
    fake.owns(owner.endpoint);
    // A genuine hop from the standby instance: trusted once (a forwarded request that reached
    // a non-owner is never forwarded on: 503).
    const genuine = hopsOf(standby.endpoint).sign(SELF, false, 'GET', '/stats/u1');
    expect((await call(base, '/stats/u1', { headers: genuine })).status).toBe(503);
    expect(forward).not.toHaveBeenCalled();
    // Replayed, signed 60 s ago, signed for the owner: no hop privilege, routed as any client's.
    const late = hopsOf(standby.endpoint, () => Date.now() - 60_000);
    for (const headers of [
      genuine,
      late.sign(SELF, false, 'GET', '/stats/u1'),
      hopsOf(standby.endpoint).sign(owner.endpoint, false, 'GET', '/stats/u1'),
    ]) {
      const answer = await call(base, '/stats/u1', { headers });
      expect({ status: answer.status, json: answer.json }).toEqual({
        status: 200,
        json: { from: 'owner' },
      });
    }
    expect(routed.handled).toEqual([]);
    expect(forward).toHaveBeenCalledTimes(3);
    const after = await refusals();
    const delta = Object.fromEntries(
      Object.keys(after)
        .map((reason) => [reason, after[reason] - (before[reason] ?? 0)])
        .filter(([, n]) => n !== 0),
    );
    expect(delta).toEqual({ replayed: 1, expired: 1, wrong_target: 1 });
    expect(Object.keys(after).sort()).toEqual([
      'bad_signature',
      'expired',
      'overloaded',
      'replayed',
      'unauthenticated',
      'wrong_target',
    ]);
  });

  it('forwards only to the owner named by the metadata, whatever the Host header says', async () => {
    fake.owns(owner.endpoint);
    const answer = await call(base, '/stats/u1', { headers: { Host: 'evil.example:80' } });
    expect(answer.status).toBe(200);
    expect(forward).toHaveBeenCalledTimes(1);
    expect((forward.mock.calls[0][1] as HostInfo).toString()).toBe(owner.endpoint);
    expect(owner.seen[0].headers.host).toBe(owner.endpoint);
  });

  it('does not forward to an owner missing from the current cluster metadata', async () => {
    fake.owns(owner.endpoint);
    fake.instances = fake.instances.filter((m) => m.hostInfo.toString() !== owner.endpoint);
    const answer = await call(base, '/stats/u1');
    expect(answer.status).toBe(503);
    expect(forward).not.toHaveBeenCalled();
  });

  it('answers 400 when the request has no key', async () => {
    fake.owns(SELF);
    const answer = await call(base, '/stats/by-query');
    expect(answer.status).toBe(400);
    expect(answer.headers['x-served-by']).toBe(SELF);
  });

  it("maps the engine's typed errors to statuses", async () => {
    fake.owns(SELF);
    routed.failWith = new StateStoreNotAvailableError('restoring');
    let answer = await call(base, '/stats/u1');
    expect(answer.status).toBe(503);
    expect(answer.headers['retry-after']).toBe('3');
    expect(answer.json).toMatchObject({ code: 'STORE_NOT_AVAILABLE', retriable: true });

    routed.failWith = new SerializationError('bad key');
    answer = await call(base, '/stats/u1');
    expect(answer.status).toBe(400);

    routed.failWith = new UnknownStateStoreError('no such store');
    answer = await call(base, '/stats/u1');
    expect(answer.status).toBe(500);
    expect(answer.json).toMatchObject({ code: 'UNKNOWN_STATE_STORE', retriable: false });
  });

  it('counts routing outcomes', async () => {
    const metrics = app.get(StreamsMetricsService);
    const before = await metrics.metrics();
    const count = (text: string, outcome: string) =>
      Number(new RegExp(`routing_requests_total\\{outcome="${outcome}"\\} (\\d+)`).exec(text)?.[1]);
    fake.owns(SELF);
    await call(base, '/stats/u1');
    fake.owns(owner.endpoint);
    await call(base, '/stats/u1');
    const after = await metrics.metrics();
    expect(count(after, 'local') - count(before, 'local')).toBe(1);
    expect(count(after, 'forwarded') - count(before, 'forwarded')).toBe(1);
    const scrape = await call(base, '/metrics');
    expect(scrape.status).toBe(200);
    expect(scrape.headers['content-type']).toContain('text/plain');
    expect(scrape.text).toContain('kafka_streams_routing_requests_total{outcome="local"}');
  });
});
