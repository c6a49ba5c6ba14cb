import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  Consumed,
  Joined,
  KafkaStreams,
  KafkaStreamsState,
  Produced,
  Serdes,
  StreamsBuilder,
  TopicsNotCopartitionedError,
  type Topology,
} from '@nest-streams/streams';
import { waitFor } from '../cluster/cluster-harness';
import { brokers, KafkaTestContext } from '../support/kafka-test-context';
import { streamsClient } from '../support/streams-client';

const quiet = { info: () => undefined, warn: () => undefined };

interface Order {
  orderId: string;
  userId: string;
  amount: number;
}

/** Orders keyed by order id, re-keyed by user and joined with the users table. */
function enrichment(orders: string, users: string, output: string): Topology {
  const builder = new StreamsBuilder();
  const usersTable = builder.table(users, Consumed.with(Serdes.String(), Serdes.String()));
  builder
    .stream(orders, Consumed.with(Serdes.String(), Serdes.Json<Order>()))
    .selectKey((_orderId, order) => order.userId)
    .join(
      usersTable,
      (order, name) => `${order.orderId}:${name}:${order.amount}`,
      Joined.with(Serdes.String(), Serdes.Json<Order>(), Serdes.String()),
    )
    .to(output, Produced.with(Serdes.String(), Serdes.String()));
  return builder.build();
}

/**
 * Co-partitioning, as Kafka Streams enforces it: a repartition topic joined with a table takes
 * the table topic's partition count (not its writer's), so every order finds its user; two
 * input topics of a join with different counts refuse to start with a typed error.
 */
describe('co-partitioned joins against the broker', () => {
  const ctx = new KafkaTestContext();
  const stateDir = mkdtempSync(join(tmpdir(), 'copartition-'));
  afterAll(async () => {
    await ctx.cleanup();
    rmSync(stateDir, { recursive: true, force: true });
  });

  it('sizes the repartition topic to the joined table topic and joins every record', async () => {
    const orders = await ctx.createTopic(ctx.topicName('orders'), 6);
    const users = await ctx.createTopic(ctx.topicName('users'), 3);
    const output = await ctx.createTopic(ctx.topicName('enriched'), 3);
    const names = Array.from({ length: 30 }, (_, i) => `user-${i}`);
    const producer = ctx.kafka.producer();
    await producer.connect();
    await producer.send({
      topic: users,
      messages: names.map((u) => ({ key: u, value: `name of ${u}` })),
    });
    const streams = new KafkaStreams(
      enrichment(orders, users, output),
      {
        applicationId: ctx.applicationId,
        bootstrapServers: brokers(),
        kafkaClient: streamsClient(),
        stateDir,
        commitIntervalMs: 200,
      },
      { logger: quiet },
    );
    try {
      await streams.start();
      await waitFor(async () => streams.state === KafkaStreamsState.RUNNING, 60_000, 'RUNNING');
      const admin = await ctx.admin();
      const repartition = (await admin.listTopics()).filter(
        (t) => t.startsWith(ctx.applicationId) && t.endsWith('-repartition'),
      );
      expect(repartition).toHaveLength(1);
      const partitions = (await admin.fetchTopicMetadata({ topics: repartition })).topics[0]
        .partitions.length;
      expect(partitions).toBe(3);
      // Produced after the table is loaded, so every order meets its user.
      const orderList = Array.from({ length: 300 }, (_, i) => ({
        orderId: `order-${i}`,
        userId: names[(i * 7) % names.length],
        amount: i,
      }));
      await producer.send({
        topic: orders,
        messages: orderList.map((o) => ({ key: o.orderId, value: JSON.stringify(o) })),
      });
      const expected = new Set(
        orderList.map((o) => `${o.userId}|${o.orderId}:name of ${o.userId}:${o.amount}`),
      );
      const seen = new Set<string>();
      const consumer = ctx.kafka.consumer({ groupId: `${ctx.applicationId}-check` });
      await consumer.connect();
      await consumer.subscribe({ topic: output, fromBeginning: true });
      await consumer.run({
        eachMessage: async ({ message }) => {
          seen.add(`${message.key?.toString()}|${message.value?.toString()}`);
        },
      });
      await waitFor(async () => seen.size >= expected.size, 60_000, 'every order joined');
      await consumer.disconnect();
      expect(seen).toEqual(expected);
    } finally {
      await producer.disconnect();
      await streams.close();
    }
  });

  it('refuses to start when the input topics of a join have different partition counts', async () => {
    const orders = await ctx.createTopic(ctx.topicName('orders-by-user'), 6);
    const users = await ctx.createTopic(ctx.topicName('users-3'), 3);
    const output = await ctx.createTopic(ctx.topicName('enriched-2'), 3);
    const builder = new StreamsBuilder();
    const usersTable = builder.table(users, Consumed.with(Serdes.String(), Serdes.String()));
    builder
      .stream(orders, Consumed.with(Serdes.String(), Serdes.String()))
      .join(usersTable, (order, name) => `${order}:${name}`)
      .to(output, Produced.with(Serdes.String(), Serdes.String()));
    const streams = new KafkaStreams(
      builder.build(),
      {
        applicationId: `${ctx.applicationId}-mismatch`,
        bootstrapServers: brokers(),
        stateDir,
        kafkaClient: streamsClient(),
      },
      { logger: quiet },
    );
    try {
      const started = streams.start();
      await expect(started).rejects.toThrow(TopicsNotCopartitionedError);
      await expect(started).rejects.toThrow(`${orders} (6)`);
    } finally {
      await streams.close();
    }
  });
});
