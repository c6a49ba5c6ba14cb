import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  Consumed,
  KafkaStreams,
  KafkaStreamsState,
  Materialized,
  Produced,
  QueryableStoreTypes,
  Serdes,
  StoreQueryParameters,
  Stores,
  StreamsBuilder,
  type KeyValueStore,
  type ProcessorContext,
  type Record,
  type Topology,
} from '@nest-streams/streams';
import { waitFor } from '../support/wait-for';
import { brokers, KafkaTestContext } from '../support/kafka-test-context';
import { streamsClient } from '../support/streams-client';

const quiet = { info: () => undefined, warn: () => undefined };
const str = Serdes.String();

interface Topics {
  readonly users: string;
  readonly regions: string;
  readonly orders: string;
  readonly output: string;
}

/**
 * Orders (keyed by order id, valued by user id) joined with the users global table on the
 * value; and a global store of regions, upper-cased by an update processor that counts the
 * records it processed in `processed`.
 */
function enrichment(topics: Topics, processed: { count: number }): Topology {
  const builder = new StreamsBuilder();
  const users = builder.globalTable(
    topics.users,
    Consumed.with(str, str),
    Materialized.as<string, string>('users-global'),
  );
  builder.addGlobalStore(
    Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore('regions-upper'), str, str),
    topics.regions,
    Consumed.with(str, str),
    () => {
      let store!: KeyValueStore<string, string>;
      return {
        init(context: ProcessorContext<never, never>) {
          store = context.getStateStore<KeyValueStore<string, string>>('regions-upper');
        },
        process(record: Record<string, string>) {
          processed.count++;
          store.put(record.key, record.value.toUpperCase());
        },
      };
    },
  );
  builder
    .stream(topics.orders, Consumed.with(str, str))
    .join(
      users,
      (_orderId, userId) => userId,
      (userId, name) => `${userId}:${name}`,
    )
    .to(topics.output, Produced.with(str, str));
  return builder.build();
}

/** Every key and value of a global key-value store, read through `store()`. */
function contents(streams: KafkaStreams, store: string): Map<string, string> {
  const view = streams.store(
    StoreQueryParameters.fromNameAndType(
      store,
      QueryableStoreTypes.keyValueStore<string, string>(),
    ),
  );
  return new Map([...view.all()].map((kv) => [kv.key, kv.value]));
}

/**
 * GlobalKTable and addGlobalStore in the real runtime: two instances each hold every user and
 * region (all partitions, no group), join every order exactly once between them, follow
 * updates while running, and a restarted instance resumes from its global checkpoint.
 */
describe.each(['at_least_once', 'exactly_once_v2'] as const)(
  'global stores under %s',
  (guarantee) => {
    const ctx = new KafkaTestContext();
    const dirs = [0, 1].map(() => mkdtempSync(join(tmpdir(), 'global-table-')));
    afterAll(async () => {
      await ctx.cleanup();
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    });

    it('restores, joins, answers on every instance and resumes from its checkpoint', async () => {
      const topics: Topics = {
        users: await ctx.createTopic(ctx.topicName('users'), 3),
        regions: await ctx.createTopic(ctx.topicName('regions'), 2),
        orders: await ctx.createTopic(ctx.topicName('orders'), 4),
        output: await ctx.createTopic(ctx.topicName('enriched'), 2),
      };
      const producer = ctx.kafka.producer();
      await producer.connect();
      const users = new Map(Array.from({ length: 30 }, (_, i) => [`user-${i}`, `name ${i}`]));
      const regions = new Map([
        ['r1', 'north'],
        ['r2', 'south'],
        ['r3', 'east'],
      ]);
      await producer.send({
        topic: topics.users,
        messages: [...users].map(([key, value]) => ({ key, value })),
      });
      await producer.send({
        topic: topics.regions,
        messages: [...regions].map(([key, value]) => ({ key, value })),
      });
      const counters = [{ count: 0 }, { count: 0 }];
      const start = async (i: number): Promise<KafkaStreams> => {
        const streams = new KafkaStreams(
          enrichment(topics, counters[i]),
          {
            applicationId: ctx.applicationId,
            bootstrapServers: brokers(),
            kafkaClient: streamsClient(),
            stateDir: dirs[i],
            commitIntervalMs: 200,
            processingGuarantee: guarantee,
          },
          { logger: quiet },
        );
        await streams.start();
        return streams;
      };
      const instances = [await start(0), await start(1)];
      const consumer = ctx.kafka.consumer({ groupId: `${ctx.applicationId}-check` });
      try {
        await waitFor(
          () => instances.every((s) => s.state === KafkaStreamsState.RUNNING),
          60_000,
          'both RUNNING',
        );
        // Restored before RUNNING: every user and region on both instances.
        for (const streams of instances) {
          expect(contents(streams, 'users-global')).toEqual(users);
          expect(contents(streams, 'regions-upper')).toEqual(
            new Map([...regions].map(([k, v]) => [k, v.toUpperCase()])),
          );
        }
        expect(counters.map((c) => c.count)).toEqual([3, 3]);

        // 200 orders, some of unknown users (an inner join drops them), spread over both tasks.
        const orders = Array.from({ length: 200 }, (_, i) => ({
          orderId: `order-${i}`,
          userId: i % 10 === 9 ? `nobody-${i}` : `user-${(i * 7) % 30}`,
        }));
        await producer.send({
          topic: topics.orders,
          messages: orders.map((o) => ({ key: o.orderId, value: o.userId })),
        });
        const expected = orders
          .filter((o) => users.has(o.userId))
          .map((o) => `${o.orderId}=${o.userId}:${users.get(o.userId)!}`)
          .sort();
        const seen: string[] = [];
        await consumer.connect();
        await consumer.subscribe({ topic: topics.output, fromBeginning: true });
        await consumer.run({
          eachMessage: async ({ message }) => {
            seen.push(`${message.key?.toString()}=${message.value?.toString()}`);
          },
        });
        await waitFor(() => seen.length >= expected.length, 60_000, 'every order joined');
        await new Promise((resolve) => setTimeout(resolve, 1_000)); // nothing more comes
        expect([...seen].sort()).toEqual(expected);
        expect(instances.every((s) => s.metrics().processed > 0)).toBe(true);

        // Updates while running reach both instances.
        await producer.send({
          topic: topics.users,
          messages: [{ key: 'user-0', value: 'renamed' }],
        });
        await producer.send({ topic: topics.regions, messages: [{ key: 'r4', value: 'west' }] });
        users.set('user-0', 'renamed');
        for (const streams of instances) {
          await waitFor(
            () =>
              contents(streams, 'users-global').get('user-0') === 'renamed' &&
              contents(streams, 'regions-upper').get('r4') === 'WEST',
            30_000,
            'the updates on every instance',
          );
        }

        // Restart instance 0 after more records arrived while it was down: it resumes from its
        // checkpoint, so its update processor sees only those.
        await instances[0].close();
        const checkpoint = join(dirs[0], ctx.applicationId, 'global', '.checkpoint');
        expect(existsSync(checkpoint)).toBe(true);
        expect(readFileSync(checkpoint, 'utf8')).toContain(`${topics.regions} `);
        await producer.send({
          topic: topics.regions,
          messages: [
            { key: 'r5', value: 'up' },
            { key: 'r1', value: 'far north' },
          ],
        });
        await producer.send({ topic: topics.users, messages: [{ key: 'user-30', value: 'new' }] });
        users.set('user-30', 'new');
        counters[0].count = 0;
        instances[0] = await start(0);
        await waitFor(
          () => instances[0].state === KafkaStreamsState.RUNNING,
          60_000,
          'the restarted instance RUNNING',
        );
        expect(counters[0].count).toBe(2);
        expect(contents(instances[0], 'users-global')).toEqual(users);
        expect(contents(instances[0], 'regions-upper')).toEqual(
          new Map([
            ['r1', 'FAR NORTH'],
            ['r2', 'SOUTH'],
            ['r3', 'EAST'],
            ['r4', 'WEST'],
            ['r5', 'UP'],
          ]),
        );
        await waitFor(
          () => contents(instances[1], 'users-global').get('user-30') === 'new',
          30_000,
          'the new user on the other instance',
        );
      } finally {
        await consumer.disconnect();
        await producer.disconnect();
        await Promise.all(instances.map((s) => s.close()));
      }
    });
  },
);
