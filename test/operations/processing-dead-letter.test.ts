import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  Consumed,
  DEAD_LETTER_HEADERS,
  Grouped,
  KafkaStreams,
  KafkaStreamsState,
  logAndContinueProcessing,
  Materialized,
  Serdes,
  StreamsBuilder,
} from '@nest-streams/streams';
import { brokers, KafkaTestContext } from '../support/kafka-test-context';
import { storeContents } from '../support/store-contents';
import { streamsClient } from '../support/streams-client';
import { waitFor } from '../support/wait-for';
import type { OrderEvent, OrderStats } from '../runtime/stats-topology';

const EVENTS = 3_000;
const USERS = 30;
/** Every thousandth event has a negative amount: the aggregator throws on it. */
const isPoison = (i: number) => i % 1_000 === 999;

/** Count and sum per user; the aggregator throws on a negative amount. */
function throwingStats(input: string) {
  const builder = new StreamsBuilder();
  builder
    .stream(input, Consumed.with(Serdes.String(), Serdes.Json<OrderEvent>()))
    .groupByKey(Grouped.with(undefined, Serdes.String(), Serdes.Json<OrderEvent>()))
    .aggregate(
      () => ({ count: 0, sum: 0 }),
      (key, event, agg: OrderStats) => {
        if (event.amount < 0) throw new RangeError(`negative amount ${event.amount} for ${key}`);
        return { count: agg.count + 1, sum: agg.sum + event.amount };
      },
      Materialized.as<string, OrderStats>('stats-store')
        .withKeySerde(Serdes.String())
        .withValueSerde(Serdes.Json<OrderStats>()),
    );
  return builder.build();
}

/**
 * A value that makes the aggregator throw, 1 record in 1,000, under exactly-once with
 * `logAndContinueProcessing()` and a dead-letter topic: nothing else is lost, the application
 * keeps running, and the dead-letter topic holds exactly the bad records with their origin.
 */
describe('processing errors dead-lettered against the broker', () => {
  const ctx = new KafkaTestContext();
  const stateDir = mkdtempSync(join(tmpdir(), 'processing-dlq-'));
  let streams: KafkaStreams | undefined;
  afterAll(async () => {
    await streams?.close();
    await ctx.cleanup();
    rmSync(stateDir, { recursive: true, force: true });
  });

  it('skips and dead-letters exactly the records the aggregator throws on, and keeps running', async () => {
    const input = await ctx.createTopic(ctx.topicName('poison-agg'), 3);
    const dlq = await ctx.createTopic(ctx.topicName('poison-agg-dlq'), 1);
    const truth = new Map<string, OrderStats>();
    const poison: { key: string; value: string; partition: number; offset: number }[] = [];
    const producer = ctx.kafka.producer();
    await producer.connect();
    let batch: { key: string; value: string }[] = [];
    for (let i = 0; i < EVENTS; i++) {
      const userId = `user-${i % USERS}`;
      if (!isPoison(i)) {
        const amount = (i % 9) + 1;
        const t = truth.get(userId) ?? { count: 0, sum: 0 };
        truth.set(userId, { count: t.count + 1, sum: t.sum + amount });
        batch.push({ key: userId, value: JSON.stringify({ userId, amount }) });
        continue;
      }
      await producer.send({ topic: input, messages: batch });
      batch = [];
      const value = JSON.stringify({ userId, amount: -i });
      const [meta] = await producer.send({ topic: input, messages: [{ key: userId, value }] });
      poison.push({
        key: userId,
        value,
        partition: meta.partition,
        offset: Number(meta.baseOffset),
      });
    }
    await producer.send({ topic: input, messages: batch });
    await producer.disconnect();

    const warnings: string[] = [];
    streams = new KafkaStreams(
      throwingStats(input),
      {
        applicationId: ctx.applicationId,
        bootstrapServers: brokers(),
        kafkaClient: streamsClient(),
        stateDir,
        commitIntervalMs: 200,
        processingGuarantee: 'exactly_once_v2',
        processingExceptionHandler: logAndContinueProcessing(),
        deadLetterQueueTopic: dlq,
      },
      { logger: { info: () => undefined, warn: (m) => warnings.push(m) } },
    );
    await streams.start();
    const client = streams;
    await waitFor(
      () => client.metrics().skippedProcessing + client.metrics().processed >= EVENTS,
      90_000,
      'every record processed or skipped',
      {
        context: () =>
          `state ${client.state}, metrics ${JSON.stringify(client.metrics())}\n${warnings.join('\n')}`,
      },
    );
    expect(client.state).toBe(KafkaStreamsState.RUNNING);
    expect(client.metrics()).toMatchObject({
      processed: EVENTS,
      skippedProcessing: poison.length,
      deadLettered: poison.length,
    });
    expect(storeContents<OrderStats>(client, 'stats-store')).toEqual(truth);

    // The dead-letter topic, read committed: exactly the bad records, bytes and origin.
    const consumer = ctx.kafka.consumer({ groupId: `${ctx.applicationId}-dlq-reader` });
    await consumer.connect();
    await consumer.subscribe({ topics: [dlq], fromBeginning: true });
    const letters: { key: string; value: string; headers: Record<string, string> }[] = [];
    await new Promise<void>((resolve, reject) => {
      consumer
        .run({
          eachMessage: async ({ message }) => {
            letters.push({
              key: message.key!.toString(),
              value: message.value!.toString(),
              headers: Object.fromEntries(
                Object.entries(message.headers ?? {}).map(([k, v]) => [k, String(v)]),
              ),
            });
            if (letters.length === poison.length) resolve();
          },
        })
        .catch(reject);
    });
    // Nothing more arrives (a duplicate would be a second transaction's).
    await new Promise((r) => setTimeout(r, 2_000));
    await consumer.disconnect();
    const byOffset = (a: { headers: Record<string, string> }, b: typeof a) =>
      Number(a.headers[DEAD_LETTER_HEADERS.offset]) - Number(b.headers[DEAD_LETTER_HEADERS.offset]);
    expect(
      letters.sort(byOffset).map(({ headers, ...l }) => {
        const { [DEAD_LETTER_HEADERS.stacktrace]: stack, ...rest } = headers;
        expect(stack.startsWith(`RangeError: ${rest[DEAD_LETTER_HEADERS.message]}\n`)).toBe(true);
        return { ...l, headers: rest };
      }),
    ).toEqual(
      [...poison]
        .sort((a, b) => a.offset - b.offset)
        .map((p) => ({
          key: p.key,
          value: p.value,
          headers: {
            [DEAD_LETTER_HEADERS.exception]: 'RangeError',
            [DEAD_LETTER_HEADERS.message]: `negative amount ${JSON.parse(p.value).amount} for ${p.key}`,
            [DEAD_LETTER_HEADERS.topic]: input,
            [DEAD_LETTER_HEADERS.partition]: String(p.partition),
            [DEAD_LETTER_HEADERS.offset]: String(p.offset),
          },
        })),
    );
    expect(warnings.filter((w) => w.includes('(processing error;')).sort()).toEqual(
      poison
        .map(
          (p) =>
            `skipping: processor 'KSTREAM-AGGREGATE-0000000001' of task 0_${p.partition} failed on ${input}-${p.partition}@${p.offset}: negative amount ${JSON.parse(p.value).amount} for ${p.key} (processing error; handler: log and continue)`,
        )
        .sort(),
    );
    expect(client.state).toBe(KafkaStreamsState.RUNNING);
  });
});
