import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  Consumed,
  KafkaStreams,
  KafkaStreamsState,
  Produced,
  Serdes,
  StreamsBuilder,
} from '@nest-streams/streams';
import { waitFor } from '../cluster/cluster-harness';
import { brokers, KafkaTestContext } from '../support/kafka-test-context';
import { streamsClient } from '../support/streams-client';

const quiet = { info: () => undefined, warn: () => undefined };

/** Users whose table takes several fetches (about 2.4 MB at 1 MiB per partition and fetch). */
const USERS = 20_000;
const ORDERS = 200;

/**
 * `max.task.idle.ms` as Kafka Streams defines it (KIP-353, KIP-695), against the broker: a task
 * reading two topics processes them in timestamp order. With the default 0 it waits for an
 * empty input whose records are on the broker and not fetched yet, so a stream-table join over
 * data written table first meets every row, however the fetches split the two topics.
 */
describe('max.task.idle.ms against the broker', () => {
  const ctx = new KafkaTestContext();
  const stateDir = mkdtempSync(join(tmpdir(), 'task-idling-'));
  afterAll(async () => {
    await ctx.cleanup();
    rmSync(stateDir, { recursive: true, force: true });
  });

  it('joins every order written after its user, the table taking several fetches (default 0)', async () => {
    const users = await ctx.createTopic(ctx.topicName('idle-users'), 1);
    const orders = await ctx.createTopic(ctx.topicName('idle-orders'), 1);
    const output = await ctx.createTopic(ctx.topicName('idle-joined'), 1);
    const producer = ctx.kafka.producer();
    await producer.connect();
    const padding = 'x'.repeat(100);
    for (let from = 0; from < USERS; from += 2_000) {
      await producer.send({
        topic: users,
        messages: Array.from({ length: 2_000 }, (_, i) => ({
          key: `user-${from + i}`,
          value: `name-${from + i}-${padding}`,
        })),
      });
    }
    // The orders of the users written last: their rows are in the table's last fetches.
    const orderUsers = Array.from({ length: ORDERS }, (_, i) => `user-${USERS - 1 - i}`);
    await producer.send({
      topic: orders,
      messages: orderUsers.map((user, i) => ({ key: user, value: `order-${i}` })),
    });
    await producer.disconnect();

    const builder = new StreamsBuilder();
    const table = builder.table(users, Consumed.with(Serdes.String(), Serdes.String()));
    builder
      .stream(orders, Consumed.with(Serdes.String(), Serdes.String()))
      .join(table, (order, name) => `${order}:${name.split('-')[1]}`)
      .to(output, Produced.with(Serdes.String(), Serdes.String()));
    const streams = new KafkaStreams(
      builder.build(),
      {
        applicationId: ctx.applicationId,
        bootstrapServers: brokers(),
        kafkaClient: streamsClient(),
        stateDir,
        commitIntervalMs: 200,
      },
      { logger: quiet },
    );
    const joined = new Map<string, string>();
    const consumer = ctx.kafka.consumer({ groupId: `${ctx.applicationId}-check` });
    try {
      await streams.start();
      await waitFor(async () => streams.state === KafkaStreamsState.RUNNING, 60_000, 'RUNNING');
      await consumer.connect();
      await consumer.subscribe({ topic: output, fromBeginning: true });
      await consumer.run({
        eachMessage: async ({ message }) => {
          joined.set(String(message.value).split(':')[0], String(message.key));
        },
      });
      // An order that missed its user leaves no output (an inner join): once every input
      // record was processed, the output holds what it will hold.
      await waitFor(
        async () => streams.metrics().processed >= USERS + ORDERS,
        60_000,
        'every input record processed',
      );
      await waitFor(async () => joined.size >= ORDERS, 10_000, 'the output read').catch(
        () => undefined,
      );
      expect(joined.size).toBe(ORDERS);
      expect([...joined].sort()).toEqual(
        orderUsers.map((user, i) => [`order-${i}`, user] as [string, string]).sort(),
      );
    } finally {
      await consumer.disconnect();
      await streams.close();
    }
  });
});
