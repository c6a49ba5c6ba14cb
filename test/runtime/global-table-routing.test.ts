/**
 * The GlobalKTable read through HTTP routing on a real broker: two Nest instances, each with
 * the users global table (whole on both) and a `@RouteByKey` route on it. Every key answers on
 * either instance from that instance's own copy (a global store is never forwarded), exactly;
 * the metadata says so (every instance holds it, a key lives where it is asked), and a
 * scatter-gather `all()` over it answers from the asked instance alone.
 */
import {
  Controller,
  Get,
  Inject,
  Injectable,
  NotFoundException,
  Param,
  type INestApplication,
} from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  Consumed,
  KafkaStreams,
  KafkaStreamsState,
  KeyQuery,
  Materialized,
  Produced,
  Serdes,
  type StreamsBuilder,
} from '@nest-streams/streams';
import {
  InjectStore,
  InteractiveQueryService,
  type KeyValueStoreFacade,
  RouteByKey,
  StreamsModule,
  Topology,
} from '@nest-streams/nestjs';
import { freePort } from '@nest-streams/testing/kafka';
import { waitFor } from '../support/wait-for';
import { brokers, KafkaTestContext } from '../support/kafka-test-context';
import { streamsClient } from '../support/streams-client';

const str = Serdes.String();
const USERS = 40;

describe('a global store through HTTP routing, two instances on the real broker', () => {
  const ctx = new KafkaTestContext();
  const dirs = [0, 1].map(() => mkdtempSync(join(tmpdir(), 'global-routing-')));
  const apps: INestApplication[] = [];
  afterAll(async () => {
    await Promise.all(apps.map((app) => app.close()));
    await ctx.cleanup();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  /** A Nest instance: the users global table, orders joined with it, and routes over it. */
  async function instance(topics: { users: string; orders: string; out: string }, dir: string) {
    @Injectable()
    class Enrichment {
      @Topology()
      build(builder: StreamsBuilder): void {
        const users = builder.globalTable(
          topics.users,
          Consumed.with(str, str),
          Materialized.as<string, string>('users-global'),
        );
        builder
          .stream(topics.orders, Consumed.with(str, str))
          .join(
            users,
            (_order, userId) => userId,
            (userId, name) => `${userId}:${name}`,
          )
          .to(topics.out, Produced.with(str, str));
      }
    }
    @Controller('users')
    class UsersController {
      constructor(
        @InjectStore('users-global') private readonly users: KeyValueStoreFacade<string, string>,
        @Inject(InteractiveQueryService) private readonly queries: InteractiveQueryService,
      ) {}
      @Get()
      async all(): Promise<{ entries: string[]; servedBy: string[]; complete: boolean }> {
        const { entries, servedBy, complete } = await this.queries.all<string, string>(
          'users-global',
        );
        return { entries: entries.map((e) => `${e.key}=${e.value}`), servedBy, complete };
      }
      @Get(':id')
      @RouteByKey('users-global', 'id')
      async one(@Param('id') id: string): Promise<{ name: string; viaQuery: unknown }> {
        const name = await this.users.getAsync(id);
        if (name === undefined) throw new NotFoundException(`no user '${id}'`);
        return { name, viaQuery: await this.queries.get('users-global', id) };
      }
    }
    const port = await freePort();
    const moduleRef = await Test.createTestingModule({
      imports: [
        StreamsModule.forRoot({
          streams: {
            applicationId: ctx.applicationId,
            bootstrapServers: brokers(),
            kafkaClient: streamsClient(),
            stateDir: dir,
            applicationServer: `127.0.0.1:${port}`,
            commitIntervalMs: 200,
            sessionTimeoutMs: 6000,
            heartbeatIntervalMs: 1000,
          },
          http: { servedByHeader: true },
          security: { clusterSecret: 'global-routing-secret' },
        }),
      ],
      providers: [Enrichment],
      controllers: [UsersController],
    }).compile();
    const app = moduleRef.createNestApplication({ logger: false });
    await app.listen(port, '127.0.0.1');
    apps.push(app);
    return { app, endpoint: `127.0.0.1:${port}` };
  }

  it('answers every key on each instance from its own copy, exactly, and never forwards', async () => {
    const topics = {
      users: await ctx.createTopic(ctx.topicName('users'), 3),
      orders: await ctx.createTopic(ctx.topicName('orders'), 2),
      out: await ctx.createTopic(ctx.topicName('out'), 2),
    };
    const users = new Map(
      Array.from({ length: USERS }, (_, i) => [`user-${String(i).padStart(2, '0')}`, `name ${i}`]),
    );
    const producer = ctx.kafka.producer();
    await producer.connect();
    await producer.send({
      topic: topics.users,
      messages: [...users].map(([key, value]) => ({ key, value })),
    });
    await producer.disconnect();

    const instances = [await instance(topics, dirs[0]), await instance(topics, dirs[1])];
    const streams = instances.map((i) => i.app.get(KafkaStreams));
    await waitFor(
      () =>
        streams.every(
          (s) =>
            s.state === KafkaStreamsState.RUNNING && s.metadataForAllStreamsClients().length === 2,
        ),
      60_000,
      'both RUNNING, each knowing both',
    );
    const endpoints = instances.map((i) => i.endpoint);

    for (const [i, { endpoint }] of instances.entries()) {
      // The metadata: the store on every instance, a key of it here, with no partition.
      expect(
        streams[i]
          .streamsMetadataForStore('users-global')
          .map((m) => String(m.hostInfo))
          .sort(),
      ).toEqual([...endpoints].sort());
      expect(streams[i].queryMetadataForKey('users-global', 'user-07', str).toJSON()).toEqual({
        activeHost: endpoint,
        standbyHosts: [],
        partition: -1,
      });
      expect(streams[i].localCopyOf('users-global', -1)).toBe('active');
      const iq = await streams[i].query({
        storeName: 'users-global',
        query: KeyQuery.withKey('user-07'),
      });
      expect(iq.globalResult).toMatchObject({ success: true, result: 'name 7', active: true });

      // Every key through HTTP routing, answered here.
      for (const [id, name] of users) {
        const answer = await fetch(`http://${endpoint}/users/${id}`);
        expect({ id, status: answer.status, body: await answer.json() }).toEqual({
          id,
          status: 200,
          body: { name, viaQuery: name },
        });
        expect(answer.headers.get('x-served-by')).toBe(endpoint);
      }
      const missing = await fetch(`http://${endpoint}/users/nobody`);
      expect(missing.status).toBe(404);
      expect(missing.headers.get('x-served-by')).toBe(endpoint);

      const all = await fetch(`http://${endpoint}/users`);
      expect(await all.json()).toEqual({
        entries: [...users].map(([id, name]) => `${id}=${name}`).sort(),
        servedBy: [endpoint],
        complete: true,
      });
    }
  }, 120_000);
});
