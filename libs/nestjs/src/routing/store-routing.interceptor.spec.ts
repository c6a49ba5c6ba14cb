import {
  Body,
  Controller,
  Get,
  NotFoundException,
  Param,
  Post,
  type INestApplication,
} from '@nestjs/common';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import type { AddressInfo } from 'node:net';
import {
  type HostInfo,
  KeyQueryMetadata,
  SerializationError,
  StateStoreMigratedError,
  StateStoreNotAvailableError,
  UnknownStateStoreError,
} from '@nest-streams/streams';
import { InjectStore } from '../decorators/inject-store.decorator';
import type { KeyValueStoreFacade } from '../queries/key-value-store.facade';
import { RouteByKey } from '../decorators/route-by-key.decorator';
import { KafkaStreamsHost } from '../internals/kafka-streams.host';
import { StreamsMetricsService } from '../metrics/streams-metrics.service';
import { StoreReadContext } from '../queries/internals/store-read-context';
import { StreamsModule } from '../streams.module';
import { FakeKafkaStreams, instance, partitionOf } from '../../test-support/fake-kafka-streams';
import { call, deadEndpoint, Peer, sumAggregation } from '../../test-support/http-fixtures';
import { baseOptions } from '../../test-support/stats-module-fixtures';
import { HopAuthenticator } from './internals/hop-authenticator';
import { HttpRequestForwarder } from './internals/http-request.forwarder';

/** This instance's advertised endpoint: never contacted (only compared). */
const SELF = '127.0.0.1:1111';

const handled: string[] = [];
let failWith: Error | undefined;

@Controller('stats')
class StatsController {
  constructor(
    @InjectStore('stats-store') private readonly stats: KeyValueStoreFacade<string, number>,
  ) {}

  @Get('by-query')
  @RouteByKey('stats-store', 'query.user')
  byQuery(): { ok: boolean } {
    return { ok: true };
  }

  @Get(':userId')
  @RouteByKey('stats-store', 'userId')
  get(@Param('userId') userId: string): Record<string, unknown> {
    handled.push(userId);
    if (failWith) throw failWith;
    return { userId, servedHere: true, stale: StoreReadContext.current().staleStores };
  }

  @Get('stale/:userId')
  @RouteByKey('stats-store', 'userId', { allowStaleReads: true })
  getStale(@Param('userId') userId: string): Record<string, unknown> {
    handled.push(userId);
    return { userId, servedHere: true, stale: StoreReadContext.current().staleStores };
  }

  /** Reads the store as an application does: 404 when the store says the key is absent. */
  @Get('read/:userId')
  @RouteByKey('stats-store', 'userId', { allowStaleReads: true })
  async read(@Param('userId') userId: string): Promise<Record<string, unknown>> {
    handled.push(userId);
    const value = await this.stats.getAsync(userId);
    if (value === undefined) throw new NotFoundException(`no stats for '${userId}'`);
    return { userId, value };
  }

  @Post(':userId/orders')
  @RouteByKey('stats-store', 'userId')
  order(@Param('userId') userId: string, @Body() body: unknown): Record<string, unknown> {
    handled.push(userId);
    return { userId, body };
  }
}

describe.each(['express', 'fastify'] as const)('StoreRoutingInterceptor on %s', (platform) => {
  let app: INestApplication;
  let base: string;
  let fake: FakeKafkaStreams;
  let owner: Peer;
  let standby: Peer;
  let dead: string;
  let forward: jest.SpyInstance;

  beforeAll(async () => {
    owner = await new Peer().start();
    standby = await new Peer().start();
    dead = await deadEndpoint();
    const moduleRef = await Test.createTestingModule({
      imports: [
        StreamsModule.forRoot({
          ...baseOptions,
          streams: { ...baseOptions.streams, applicationServer: SELF },
          security: { clusterSecret: 'routing-spec-cluster-secret' },
          http: { servedByHeader: true, retryAfterSeconds: 3, forwardingTimeoutMs: 2000 },
          metrics: { endpoint: 'metrics' },
        }),
      ],
      providers: [sumAggregation('stats-store')],
      controllers: [StatsController],
    }).compile();
    app =
      platform === 'fastify'
        ? moduleRef.createNestApplication(new FastifyAdapter(), { logger: false })
        : moduleRef.createNestApplication({ logger: false });
    await app.init();
    fake = new FakeKafkaStreams();
    const host = app.get(KafkaStreamsHost);
    host.set(fake.asKafkaStreams(), host.declarations);
    await app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
    forward = jest.spyOn(app.get(HttpRequestForwarder), 'forward');
  });

  afterAll(async () => {
    await app.close();
    await owner.stop();
    await standby.stop();
  });

  beforeEach(() => {
    handled.length = 0;
    failWith = undefined;
    owner.seen.length = 0;
    standby.seen.length = 0;
    owner.status = 200;
    owner.body = { from: 'owner' };
    standby.body = { from: 'standby' };
    standby.headers = {};
    forward.mockClear();
    fake.instances = [
      instance(SELF, { active: ['0_1'] }),
      instance(owner.endpoint, { active: ['0_0'] }),
      instance(standby.endpoint, { standby: ['0_0'] }),
      instance(dead, { active: ['0_2'] }),
    ];
    fake.lags = new Map();
    fake.keyValueCopies = [];
    fake.localCopy = 'active';
  });

  it('runs the handler here when this instance owns the key, never calling the forwarder', async () => {
    fake.owns(SELF);
    const answer = await call(base, '/stats/u1');
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ userId: 'u1', servedHere: true, stale: false });
    expect(answer.headers['x-served-by']).toBe(SELF);
    expect(handled).toEqual(['u1']);
    expect(forward).not.toHaveBeenCalled();
    expect(owner.seen).toHaveLength(0);
  });

  it('forwards to exactly the owner, once, with the hop header, and relays its answer', async () => {
    fake.owns(owner.endpoint);
    const answer = await call(base, '/stats/u1?detail=1');
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ from: 'owner' });
    expect(answer.headers['x-served-by']).toBe(owner.endpoint);
    expect(handled).toEqual([]);
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
    expect(handled).toEqual([]);
    expect(forward).not.toHaveBeenCalled();
  });

  it('answers 503 when the owner is unreachable and stale reads are not allowed', async () => {
    fake.owns(dead, [SELF]);
    const answer = await call(base, '/stats/u1');
    expect(answer.status).toBe(503);
    expect(answer.headers['retry-after']).toBe('3');
    expect(answer.headers['x-stale']).toBeUndefined();
    expect(handled).toEqual([]);
  });

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
    expect(handled).toEqual(['u1']);
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
    expect(handled).toEqual([]);
  });

  it('without stale reads, the named owner without an active copy runs the handler (503 from the store)', async () => {
    const p = partitionOf('u1');
    fake.owns(SELF, [standby.endpoint], p);
    fake.localCopy = 'standby';
    failWith = new StateStoreMigratedError('no active copy of partition 1 here: rediscover');
    const answer = await call(base, '/stats/u1');
    expect(answer.status).toBe(503);
    expect(answer.headers['retry-after']).toBe('3');
    expect(handled).toEqual(['u1']);
    expect(standby.seen).toHaveLength(0);
  });

  it('a forwarded request to the named owner without an active copy is not forwarded on', async () => {
    const p = partitionOf('u1');
    fake.owns(SELF, [standby.endpoint], p);
    fake.localCopy = undefined;
    fake.keyValueCopies = [];
    const answer = await call(base, '/stats/read/u1', {
      headers: app.get(HopAuthenticator).sign(owner.endpoint, false, 'GET', '/stats/read/u1'),
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
      headers: app.get(HopAuthenticator).sign(owner.endpoint, true, 'GET', '/stats/read/u1'),
    });
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ userId: 'u1', value: 4 });
    expect(answer.headers['x-stale']).toBe('true');
    expect(answer.headers['x-lag']).toBe('2');
    expect(forward).not.toHaveBeenCalled();
  });

  it('never forwards again a request that carries a valid hop header', async () => {
    fake.owns(owner.endpoint);
    const answer = await call(base, '/stats/u1', {
      headers: app.get(HopAuthenticator).sign(standby.endpoint, false, 'GET', '/stats/u1'),
    });
    expect(answer.status).toBe(503);
    expect(answer.headers['retry-after']).toBe('3');
    expect(forward).not.toHaveBeenCalled();
    expect(owner.seen).toHaveLength(0);
    expect(handled).toEqual([]);
  });

  it('ignores forged hop headers: forwards once to the owner with its own signed hop', async () => {
    fake.owns(owner.endpoint);
    const signed = app.get(HopAuthenticator).sign(standby.endpoint, true, 'GET', '/stats/u2');
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
      expect(app.get(HopAuthenticator).verify(hop, 'GET', '/stats/u1')).toEqual({
        from: SELF,
        standby: false,
      });
    }
    expect(handled).toEqual([]);
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
    failWith = new StateStoreNotAvailableError('restoring');
    let answer = await call(base, '/stats/u1');
    expect(answer.status).toBe(503);
    expect(answer.headers['retry-after']).toBe('3');
    expect(answer.json).toMatchObject({ code: 'STORE_NOT_AVAILABLE', retriable: true });

    failWith = new SerializationError('bad key');
    answer = await call(base, '/stats/u1');
    expect(answer.status).toBe(400);

    failWith = new UnknownStateStoreError('no such store');
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
