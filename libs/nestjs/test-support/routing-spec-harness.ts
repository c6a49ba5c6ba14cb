import {
  Body,
  Controller,
  Get,
  Inject,
  NotFoundException,
  Param,
  Post,
  type INestApplication,
} from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import type { AddressInfo } from 'node:net';
import { InjectStore } from '../src/decorators/inject-store.decorator';
import { RouteByKey } from '../src/decorators/route-by-key.decorator';
import { KafkaStreamsHost } from '../src/client/internals/kafka-streams.host';
import { InteractiveQueryService } from '../src/queries/interactive-query.service';
import type { KeyValueStoreFacade } from '../src/queries/key-value-store.facade';
import { StoreReadContext } from '../src/queries/internals/store-read-context';
import { HttpRequestForwarder } from '../src/routing/internals/http-request.forwarder';
import { StoreRoutingInterceptor } from '../src/routing/store-routing.interceptor';
import { HopAuthenticator } from '../src/security/internals/hop-authenticator';
import { InstanceAuthenticator } from '../src/security/internals/instance.authenticator';
import { StreamsModuleSettings } from '../src/settings/internals/streams-module.settings';
import { StreamsModule } from '../src/streams.module';
import { FakeKafkaStreams, instance } from './fake-kafka-streams';
import { deadEndpoint, Peer, sumAggregation } from './http-fixtures';
import { baseOptions } from './stats-module-fixtures';

/** This instance's advertised endpoint: never contacted (only compared). */
export const SELF = '127.0.0.1:1111';
/** The cluster secret of the application and of every instance around it. */
export const CLUSTER_SECRET = 'routing-spec-cluster-secret';

/**
 * The hop authenticator of another instance of the cluster, advertised as `self` (with a
 * clock of its own): what it signs, and how it checks what it is sent.
 */
export function hopsOf(self: string, clock: () => number = Date.now): HopAuthenticator {
  const settings = new StreamsModuleSettings({
    ...baseOptions,
    streams: { ...baseOptions.streams, applicationServer: self },
    security: { clusterSecret: CLUSTER_SECRET },
  });
  return new HopAuthenticator(settings, new InstanceAuthenticator(settings.security, clock));
}

/** What the routing specs' controller saw, and what it should throw (reset before each test). */
export const routed: { handled: string[]; failWith: Error | undefined } = {
  handled: [],
  failWith: undefined,
};

@Controller('stats')
class StatsController {
  constructor(
    @InjectStore('stats-store') private readonly stats: KeyValueStoreFacade<string, number>,
    @Inject(InteractiveQueryService) private readonly queries: InteractiveQueryService,
  ) {}

  @Get('by-query')
  @RouteByKey('stats-store', 'query.user')
  byQuery(): { ok: boolean } {
    return { ok: true };
  }

  @Get(':userId')
  @RouteByKey('stats-store', 'userId')
  get(@Param('userId') userId: string): Record<string, unknown> {
    routed.handled.push(userId);
    if (routed.failWith) throw routed.failWith;
    return { userId, servedHere: true, stale: StoreReadContext.current().staleStores };
  }

  @Get('stale/:userId')
  @RouteByKey('stats-store', 'userId', { allowStaleReads: true })
  getStale(@Param('userId') userId: string): Record<string, unknown> {
    routed.handled.push(userId);
    return { userId, servedHere: true, stale: StoreReadContext.current().staleStores };
  }

  /** Reads the store as an application does: 404 when the store says the key is absent. */
  @Get('read/:userId')
  @RouteByKey('stats-store', 'userId', { allowStaleReads: true })
  async read(@Param('userId') userId: string): Promise<Record<string, unknown>> {
    routed.handled.push(userId);
    const value = await this.stats.getAsync(userId);
    if (value === undefined) throw new NotFoundException(`no stats for '${userId}'`);
    return { userId, value };
  }

  /** No `@RouteByKey`: the application's own stale read through the query service. */
  @Get('query/:userId')
  async query(@Param('userId') userId: string): Promise<Record<string, unknown>> {
    routed.handled.push(userId);
    const value = await this.queries.get('stats-store', userId, { allowStaleReads: true });
    return { userId, value };
  }

  @Post(':userId/orders')
  @RouteByKey('stats-store', 'userId')
  order(@Param('userId') userId: string, @Body() body: unknown): Record<string, unknown> {
    routed.handled.push(userId);
    return { userId, body };
  }
}

// The application the routing specs drive and the instances around it, set by the hooks of
/** How a routing spec's `@RouteByKey` handlers are routed (see {@link useRoutingApp}). */
export type RoutingPath = 'handler' | 'interceptor';
/** Every platform and routing path a routing spec runs on. */
export const ROUTING_APPS: readonly (readonly ['express' | 'fastify', RoutingPath])[] = [
  ['express', 'handler'],
  ['fastify', 'handler'],
  ['express', 'interceptor'],
  ['fastify', 'interceptor'],
];

// useRoutingApp (live bindings: read them inside tests and hooks).
/** The application, and its base URL. */
export let app: INestApplication;
export let base: string;
/** The engine the application runs on, as each test sets it. */
export let fake: FakeKafkaStreams;
/** The key's owner and a standby: HTTP servers that record what they are sent. */
export let owner: Peer;
export let standby: Peer;
/** An endpoint nothing listens on. */
export let dead: string;
/** The spy on the forwarder's `forward`. */
export let forward: jest.SpyInstance;

/**
 * Registers the hooks of a routing spec on `platform`: the application (`StreamsModule` with
 * `@RouteByKey` routes over a {@link FakeKafkaStreams}) and two peers, started before all
 * tests and stopped after; before each test the peers' answers, the cluster (this instance
 * active for partition 1, `owner` for 0 with `standby`'s copy, `dead` for 2) and the fake's
 * copies are reset. `routing`: how `@RouteByKey` handlers are routed, by themselves (the
 * module's default) or by `StoreRoutingInterceptor` registered for every route (then the
 * handlers do not route again).
 */
export function useRoutingApp(
  platform: 'express' | 'fastify',
  routing: RoutingPath = 'handler',
): void {
  beforeAll(async () => {
    owner = await new Peer().start();
    standby = await new Peer().start();
    dead = await deadEndpoint();
    const moduleRef = await Test.createTestingModule({
      imports: [
        StreamsModule.forRoot({
          ...baseOptions,
          streams: { ...baseOptions.streams, applicationServer: SELF },
          security: { clusterSecret: CLUSTER_SECRET },
          http: { servedByHeader: true, retryAfterSeconds: 3, forwardingTimeoutMs: 2000 },
          metrics: { endpoint: 'metrics' },
        }),
      ],
      providers: [
        sumAggregation('stats-store'),
        ...(routing === 'interceptor'
          ? [{ provide: APP_INTERCEPTOR, useExisting: StoreRoutingInterceptor }]
          : []),
      ],
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
    routed.handled.length = 0;
    routed.failWith = undefined;
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
    fake.releaseLags();
  });
}
