/**
 * The example application tested as its users would test theirs: its own AppModule, with
 * StreamsTestingModule running the decorator topology in the TopologyTestDriver instead of
 * against a broker, and its HTTP answers asserted through supertest — on Express and Fastify.
 * No broker is contacted (its bootstrap servers point at a closed port).
 */
import type { INestApplication } from '@nestjs/common';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import request from 'supertest';
import { KAFKA_STREAMS_FACTORY } from '@nest-streams/nestjs';
import { KafkaStreams, KafkaStreamsState, Serdes } from '@nest-streams/streams';
import {
  StreamsTestingModule,
  TopologyTestDriver,
  type TestInputTopic,
} from '@nest-streams/testing';
import { HTTP_PLATFORMS } from '../support/http-platforms';

process.env.KAFKA_BROKERS = '127.0.0.1:1';
process.env.PORT = '18080';
process.env.FORWARDING_SECRET = 'order-stats-testing-module-secret';

type OrderEvent = { userId: string; amount: number };
const T0 = 1_700_000_100_000; // a window start (5-minute windows), event time of the first order
const MINUTE = 60_000;

describe.each(HTTP_PLATFORMS)('order-stats with StreamsTestingModule, on %s', (platform) => {
  let app: INestApplication;
  let orders: TestInputTopic<string, OrderEvent>;
  let raw: TestInputTopic<Buffer, Buffer>;

  beforeAll(async () => {
    // Imported here: the module reads the environment set above when it loads.
    const { AppModule } = await import('../../apps/order-stats/src/app.module');
    const moduleRef = await Test.createTestingModule({
      imports: [AppModule, StreamsTestingModule.forRoot()],
    }).compile();
    app =
      platform === 'fastify'
        ? moduleRef.createNestApplication<NestFastifyApplication>(new FastifyAdapter(), {
            logger: false,
          })
        : moduleRef.createNestApplication({ logger: false });
    await app.init();
    if (platform === 'fastify')
      await (app as NestFastifyApplication).getHttpAdapter().getInstance().ready();
    const driver = app.get(TopologyTestDriver);
    orders = driver.createInputTopic('labs.events', Serdes.String(), Serdes.Json<OrderEvent>());
    raw = driver.createInputTopic('labs.events', Serdes.Bytes(), Serdes.Bytes());
    await orders.pipeInput('alice', { userId: 'alice', amount: 10.25 }, T0);
    await orders.pipeInput('bob', { userId: 'bob', amount: 3 }, T0 + MINUTE);
    await raw.pipeInput(Buffer.from('mallory'), Buffer.from('{not json'), T0 + 2 * MINUTE);
    await orders.pipeInput('alice', { userId: 'alice', amount: 4.5 }, T0 + 3 * MINUTE);
    await orders.pipeInput('alice', { userId: 'alice', amount: 1 }, T0 + 6 * MINUTE);
  });

  afterAll(async () => {
    await app?.close();
  });

  const http = () => request(app.getHttpServer());

  it('runs the client in the driver: RUNNING, no broker', () => {
    const streams = app.get(KafkaStreams);
    expect(streams.state).toBe(KafkaStreamsState.RUNNING);
    expect(streams.metrics()).toMatchObject({ processed: 4, skippedDeserialization: 1 });
    expect(KAFKA_STREAMS_FACTORY).toBe(Symbol.for('nest-streams:kafka-streams-factory'));
  });

  it('answers GET /stats/:userId from the store, 404 for an unknown user', async () => {
    const alice = await http().get('/stats/alice').expect(200);
    expect(alice.body).toEqual({ count: 3, sum: 15.75 });
    expect(alice.headers['x-served-by']).toBe('127.0.0.1:18080');
    await http().get('/stats/bob').expect(200, { count: 1, sum: 3 });
    const carol = await http().get('/stats/carol').expect(404);
    expect(carol.body).toMatchObject({ statusCode: 404, message: "no stats for user 'carol'" });
  });

  it('answers GET /stats/range across the (one) instance, sorted', async () => {
    await http()
      .get('/stats/range?from=a&to=c')
      .expect(200, [
        { userId: 'alice', count: 3, sum: 15.75 },
        { userId: 'bob', count: 1, sum: 3 },
      ]);
    await http().get('/stats/range?from=b&to=a').expect(400);
  });

  it('answers GET /windowed/:userId with the 5-minute windows', async () => {
    await http()
      .get(`/windowed/alice?from=${T0}&to=${T0 + 10 * MINUTE}`)
      .expect(200, [
        { start: T0, end: T0 + 5 * MINUTE, count: 2 },
        { start: T0 + 5 * MINUTE, end: T0 + 10 * MINUTE, count: 1 },
      ]);
    await http()
      .get(`/windowed/bob?from=${T0 + 5 * MINUTE}&to=${T0 + 10 * MINUTE}`)
      .expect(200, []);
    await http()
      .get(`/windowed/dave?from=${T0}&to=${T0 + 10 * MINUTE}`)
      .expect(200, []);
    await http()
      .get(`/windowed/alice?from=${T0 + MINUTE}&to=${T0}`)
      .expect(400);
  });

  it('sees records piped after start-up at once', async () => {
    await orders.pipeInput('carol', { userId: 'carol', amount: 2 }, T0 + 7 * MINUTE);
    await http().get('/stats/carol').expect(200, { count: 1, sum: 2 });
  });

  it('says ready and live, with its stores, and serves its metadata and metrics', async () => {
    const ready = await http().get('/health/ready').expect(200);
    expect(ready.body.details.streams).toMatchObject({
      status: 'up',
      state: 'RUNNING',
      started: true,
      stores: {
        'stats-store': { activePartitions: [0], restored: true },
        'windowed-count-store': { activePartitions: [0], restored: true },
      },
    });
    await http().get('/health/live').expect(200);
    await http().get('/health/started').expect(200);
    const metadata = await http().get('/streams/metadata').expect(200);
    expect(metadata.body).toMatchObject({
      state: 'RUNNING',
      instances: [
        {
          host: '127.0.0.1:18080',
          stores: {
            'stats-store': { active: [0], standby: [] },
            'windowed-count-store': { active: [0], standby: [] },
          },
        },
      ],
    });
    const metrics = await http().get('/metrics').expect(200);
    expect(metrics.text).toContain('kafka_streams_state{state="RUNNING"} 1');
  });
});
