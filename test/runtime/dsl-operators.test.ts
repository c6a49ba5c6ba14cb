/**
 * The DSL's stateful operator families end to end on the real broker, each with two instances
 * of one application: a stream-stream join after a key change, suppress on windows, KTable
 * groupBy, and a foreign-key join. Each creates its internal topics under the names Kafka
 * Streams 4.4 gives them (its `describe()` of the same topology names the same repartition,
 * subscription and store topics), spreads its tasks over both instances, and writes exactly the
 * expected output.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  Consumed,
  Grouped,
  JoinWindows,
  KafkaStreams,
  KafkaStreamsState,
  Produced,
  Serdes,
  StreamJoined,
  StreamsBuilder,
  Suppressed,
  TimeWindowedSerde,
  TimeWindows,
  type Topology,
} from '@nest-streams/streams';
import { waitFor } from '../support/wait-for';
import { brokers, KafkaTestContext } from '../support/kafka-test-context';
import { streamsClient } from '../support/streams-client';

const quiet = { info: () => undefined, warn: () => undefined };
const str = Serdes.String();
// An hour ago, on a minute boundary (brokers refuse timestamps far ahead).
const BASE = Math.floor((Date.now() - 3_600_000) / 60_000) * 60_000;
const MINUTE = 60_000;

describe('DSL operator families on the broker, two instances each', () => {
  const ctx = new KafkaTestContext();
  const dirs: string[] = [];
  const running: KafkaStreams[] = [];
  afterEach(async () => {
    await Promise.all(running.splice(0).map((s) => s.close()));
  });
  afterAll(async () => {
    await ctx.cleanup();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  /**
   * Starts two instances of `topology()` as application `<ctx app>-<name>` and waits until
   * both run with tasks of their own; returns the application id.
   */
  async function twoInstances(name: string, topology: () => Topology): Promise<string> {
    const applicationId = `${ctx.applicationId}-${name}`;
    for (let i = 0; i < 2; i++) {
      const dir = mkdtempSync(join(tmpdir(), `dsl-${name}-`));
      dirs.push(dir);
      const streams = new KafkaStreams(
        topology(),
        {
          applicationId,
          bootstrapServers: brokers(),
          kafkaClient: streamsClient(),
          stateDir: dir,
          commitIntervalMs: 100,
          statestoreCacheMaxBytes: 0,
          sessionTimeoutMs: 6_000,
          heartbeatIntervalMs: 1_000,
        },
        { logger: quiet },
      );
      running.push(streams);
      await streams.start();
    }
    await waitFor(
      () =>
        running.every(
          (s) => s.state === KafkaStreamsState.RUNNING && s.localTaskIds().active.length > 0,
        ),
      30_000,
      `both instances of ${name} running tasks`,
    );
    return applicationId;
  }

  /** The topics the broker has that start with `<applicationId>-`, sorted. */
  async function internalTopics(applicationId: string): Promise<string[]> {
    const topics = await (await ctx.admin()).listTopics();
    return topics
      .filter((t) => t.startsWith(`${applicationId}-`))
      .map((t) => t.slice(applicationId.length + 1))
      .sort();
  }

  /** Sends `[key, value, timestamp]` records to `topic`. */
  async function send(topic: string, records: [string, string, number][]): Promise<void> {
    const producer = ctx.kafka.producer();
    await producer.connect();
    await producer.send({
      topic,
      messages: records.map(([key, value, timestamp]) => ({
        key,
        value,
        timestamp: String(timestamp),
      })),
    });
    await producer.disconnect();
  }

  /** A record as a line: `key=value@timestamp`, both as UTF-8 text. */
  const plain = (key: Buffer, value: Buffer | null, timestamp: string): string =>
    `${key.toString()}=${value?.toString()}@${timestamp}`;

  /**
   * Reads `topic` until `done` says the records seen (as lines, see {@link plain}) are
   * complete, then a second more: what arrived.
   */
  async function read(
    topic: string,
    done: (seen: string[]) => boolean,
    line: (key: Buffer, value: Buffer | null, timestamp: string) => string = plain,
  ): Promise<string[]> {
    const seen: string[] = [];
    const consumer = ctx.kafka.consumer({ groupId: `${topic}-reader` });
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ message }) => {
        seen.push(line(message.key!, message.value, message.timestamp));
      },
    });
    try {
      await waitFor(() => done(seen), 30_000, `the output of ${topic}`).catch((e: unknown) => {
        throw new Error(`${String(e)}; seen ${JSON.stringify(seen)}`);
      });
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      return [...seen];
    } finally {
      await consumer.disconnect();
    }
  }

  /** The last value of each key in `records` (`key=value@timestamp`), sorted by key. */
  const lastPerKey = (records: string[]): string[] =>
    [...new Map(records.map((r) => [r.split('=')[0], r.split('=')[1].split('@')[0]]))]
      .map(([k, v]) => `${k}=${v}`)
      .sort();

  it('stream-stream join after a key change: the repartition and window store topics as Java names them, every pair joined once', async () => {
    const left = await ctx.createTopic(ctx.topicName('left'), 2);
    const right = await ctx.createTopic(ctx.topicName('right'), 2);
    const out = await ctx.createTopic(ctx.topicName('joined'), 2);
    const applicationId = await twoInstances('ssj', () => {
      const builder = new StreamsBuilder();
      const lefts = builder.stream(left, Consumed.with(str, str));
      const rights = builder.stream(right, Consumed.with(str, str));
      lefts
        .selectKey((_k, v) => v.split(':')[0])
        .join(
          rights,
          (l, r) => `${l.split(':')[1]}+${r}`,
          JoinWindows.ofTimeDifferenceWithNoGrace(MINUTE),
          StreamJoined.with(str, str, str),
        )
        .to(out, Produced.with(str, str));
      return builder.build();
    });
    // Left records keyed by order id, valued `user:item`; right records keyed by user.
    const users = Array.from({ length: 12 }, (_, i) => `user-${i}`);
    await send(
      left,
      users.map((u, i) => [`order-${i}`, `${u}:item-${i}`, BASE + i * 1_000]),
    );
    await send(right, [
      ...users.map((u, i): [string, string, number] => [u, `addr-${i}`, BASE + i * 1_000 + 500]),
      // A user without orders: joins nothing.
      ['user-99', 'nowhere', BASE + 5_000],
    ]);
    const expected = users.map((u, i) => `${u}=item-${i}+addr-${i}@${BASE + i * 1_000 + 500}`);
    const seen = await read(out, (s) => s.length >= expected.length);
    expect(seen.sort()).toEqual(expected.sort());
    // Kafka Streams 4.4's describe() of this topology names the same topics.
    expect(await internalTopics(applicationId)).toEqual([
      'KSTREAM-JOINOTHER-0000000009-store-changelog',
      'KSTREAM-JOINTHIS-0000000008-store-changelog',
      'KSTREAM-KEY-SELECT-0000000002-repartition',
    ]);
  }, 60_000);

  it('suppress until windows close: one final count per key and window, its store topics as Java names them', async () => {
    const events = await ctx.createTopic(ctx.topicName('events'), 2);
    const out = await ctx.createTopic(ctx.topicName('final-counts'), 2);
    const applicationId = await twoInstances('suppress', () => {
      const builder = new StreamsBuilder();
      builder
        .stream(events, Consumed.with(str, str))
        .groupByKey()
        .windowedBy(TimeWindows.ofSizeAndGrace(MINUTE, 0))
        .count()
        .suppress(Suppressed.untilWindowCloses(Suppressed.BufferConfig.unbounded()))
        .toStream()
        .to(out, Produced.with(new TimeWindowedSerde(str, MINUTE), Serdes.Long()));
      return builder.build();
    });
    const keys = Array.from({ length: 8 }, (_, i) => `k${i}`);
    // Key i: i + 1 events in the first minute, then one in the sixth minute (closing the first
    // minute on its partition; its own window stays open, so it is never emitted).
    await send(events, [
      ...keys.flatMap((k, i) =>
        Array.from({ length: i + 1 }, (_, n): [string, string, number] => [k, 'x', BASE + n * 100]),
      ),
      ...keys.map((k): [string, string, number] => [k, 'x', BASE + 5 * MINUTE]),
    ]);
    // Windowed keys: the key's bytes, then the window start (8 bytes); counts are longs.
    const windowed = (key: Buffer, value: Buffer | null, timestamp: string) =>
      `${key.subarray(0, key.length - 8).toString()}@${key.readBigInt64BE(key.length - 8)}=${value?.readBigInt64BE()}@${timestamp}`;
    const seen = await read(out, (s) => s.length >= keys.length, windowed);
    expect(seen.sort()).toEqual(
      keys.map((k, i) => `${k}@${BASE}=${i + 1}@${BASE + i * 100}`).sort(),
    );
    expect(await internalTopics(applicationId)).toEqual([
      'KSTREAM-AGGREGATE-STATE-STORE-0000000001-changelog',
      'KTABLE-SUPPRESS-STATE-STORE-0000000004-changelog',
    ]);
  }, 60_000);

  it('KTable groupBy: the repartition topic as Java names it, counts moved by the subtractor', async () => {
    const users = await ctx.createTopic(ctx.topicName('users'), 2);
    const out = await ctx.createTopic(ctx.topicName('per-region'), 3);
    const applicationId = await twoInstances('regroup', () => {
      const builder = new StreamsBuilder();
      builder
        .table(users, Consumed.with(str, str))
        .groupBy((user, region) => ({ key: region, value: user }), Grouped.with(str, str))
        .count()
        .toStream()
        .to(out, Produced.with(str, Serdes.Long()));
      return builder.build();
    });
    // 30 users over three regions, then five move and two leave (tombstones).
    const regionOf = (i: number) => ['north', 'south', 'east'][i % 3];
    await send(
      users,
      Array.from({ length: 30 }, (_, i): [string, string, number] => [
        `user-${i}`,
        regionOf(i),
        BASE + i,
      ]),
    );
    const moves: [string, string | null][] = [
      ['user-0', 'west'],
      ['user-1', 'west'],
      ['user-3', 'south'],
      ['user-4', 'west'],
      ['user-6', 'east'],
      ['user-7', null],
      ['user-9', null],
    ];
    const producer = ctx.kafka.producer();
    await producer.connect();
    await producer.send({
      topic: users,
      messages: moves.map(([key, value]) => ({ key, value, timestamp: String(BASE + 100) })),
    });
    await producer.disconnect();
    const final = new Map<string, number>();
    const region = new Map(Array.from({ length: 30 }, (_, i) => [`user-${i}`, regionOf(i)]));
    for (const [user, to] of moves) {
      if (to === null) region.delete(user);
      else region.set(user, to);
    }
    for (const r of region.values()) final.set(r, (final.get(r) ?? 0) + 1);
    const expected = [...final].map(([r, n]) => `${r}=${n}`).sort();
    // Counts are longs.
    const counted = (key: Buffer, value: Buffer | null, timestamp: string) =>
      `${key.toString()}=${value?.readBigInt64BE()}@${timestamp}`;
    const seen = await read(out, (s) => expected.every((e) => lastPerKey(s).includes(e)), counted);
    expect(lastPerKey(seen)).toEqual(expected);
    expect(await internalTopics(applicationId)).toEqual([
      'KTABLE-AGGREGATE-STATE-STORE-0000000004-changelog',
      'KTABLE-AGGREGATE-STATE-STORE-0000000004-repartition',
      `${users}-STATE-STORE-0000000000-changelog`,
    ]);
  }, 60_000);

  it('foreign-key join: the subscription topics as Java names them, each order joined with its product', async () => {
    const orders = await ctx.createTopic(ctx.topicName('orders'), 2);
    const products = await ctx.createTopic(ctx.topicName('products'), 3);
    const out = await ctx.createTopic(ctx.topicName('order-lines'), 2);
    const applicationId = await twoInstances('fk', () => {
      const builder = new StreamsBuilder();
      const orderTable = builder.table(orders, Consumed.with(str, str));
      const productTable = builder.table(products, Consumed.with(str, str));
      orderTable
        .join(
          productTable,
          (order: string) => order.split(':')[0],
          (order: string, product: string) => `${order.split(':')[1]} x ${product}`,
        )
        .toStream()
        .to(out, Produced.with(str, str));
      return builder.build();
    });
    await send(
      products,
      Array.from({ length: 6 }, (_, p): [string, string, number] => [
        `p${p}`,
        `product ${p}`,
        BASE,
      ]),
    );
    await send(
      orders,
      Array.from({ length: 20 }, (_, o): [string, string, number] => [
        `order-${o}`,
        `p${o % 6}:${o + 1}`,
        BASE + 10 + o,
      ]),
    );
    const expected = Array.from({ length: 20 }, (_, o) => `order-${o}=${o + 1} x product ${o % 6}`);
    const seen = await read(out, (s) => expected.every((e) => lastPerKey(s).includes(e)));
    expect(lastPerKey(seen)).toEqual(expected.sort());
    expect(await internalTopics(applicationId)).toEqual([
      'KTABLE-FK-JOIN-SUBSCRIPTION-REGISTRATION-0000000006-topic',
      'KTABLE-FK-JOIN-SUBSCRIPTION-RESPONSE-0000000014-topic',
      'KTABLE-FK-JOIN-SUBSCRIPTION-STATE-STORE-0000000010-changelog',
      `${orders}-STATE-STORE-0000000000-changelog`,
      `${products}-STATE-STORE-0000000003-changelog`,
    ]);
  }, 60_000);
});
