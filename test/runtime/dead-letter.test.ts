import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEAD_LETTER_HEADERS, KafkaStreams, sendToDeadLetterTopic } from '@nest-streams/streams';
import { brokers, KafkaTestContext } from '../support/kafka-test-context';
import { storeContents } from '../support/store-contents';
import { statsTopology, type OrderStats } from './stats-topology';
import { streamsClient } from '../support/streams-client';

/** Poison records go to the dead-letter topic with their origin in headers; processing goes on. */
describe('deserialization errors against the broker', () => {
  const ctx = new KafkaTestContext();
  const stateDir = mkdtempSync(join(tmpdir(), 'dlq-'));
  afterAll(async () => {
    await ctx.cleanup();
    rmSync(stateDir, { recursive: true, force: true });
  });

  it('writes each poison record to the dead-letter topic with its headers and keeps processing', async () => {
    const input = await ctx.createTopic(ctx.topicName('dlq-in'), 1);
    const dlq = await ctx.createTopic(ctx.topicName('dlq'), 1);
    const producer = ctx.kafka.producer();
    await producer.connect();
    await producer.send({
      topic: input,
      messages: [
        { key: 'alice', value: JSON.stringify({ userId: 'alice', amount: 2 }) },
        { key: 'mallory', value: '{"userId": "mallory", "amount": ', headers: { trace: 'abc' } },
        { key: 'alice', value: JSON.stringify({ userId: 'alice', amount: 3 }) },
        { key: 'bob', value: 'not json at all' },
        { key: 'bob', value: JSON.stringify({ userId: 'bob', amount: 5 }) },
      ],
    });
    await producer.disconnect();

    const streams = new KafkaStreams(
      statsTopology(input),
      {
        applicationId: ctx.applicationId,
        bootstrapServers: brokers(),
        kafkaClient: streamsClient(),
        stateDir,
        commitIntervalMs: 200,
        deserializationExceptionHandler: sendToDeadLetterTopic(dlq, () => undefined),
      },
      { logger: { info: () => undefined, warn: () => undefined } },
    );
    await streams.start();
    const deadline = Date.now() + 60_000;
    while (
      streams.metrics().processed + streams.metrics().skippedDeserialization < 5 &&
      Date.now() < deadline
    ) {
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(streams.metrics()).toMatchObject({
      processed: 3,
      skippedDeserialization: 2,
      deadLettered: 2,
    });
    expect(storeContents<OrderStats>(streams, 'stats-store')).toEqual(
      new Map([
        ['alice', { count: 2, sum: 5 }],
        ['bob', { count: 1, sum: 5 }],
      ]),
    );
    await streams.close();

    const consumer = ctx.kafka.consumer({ groupId: `${ctx.applicationId}-dlq-reader` });
    await consumer.connect();
    await consumer.subscribe({ topics: [dlq], fromBeginning: true });
    const dead: { key: string; value: string; headers: Record<string, string> }[] = [];
    await new Promise<void>((resolve, reject) => {
      consumer
        .run({
          eachMessage: async ({ message }) => {
            dead.push({
              key: message.key!.toString(),
              value: message.value!.toString(),
              headers: Object.fromEntries(
                Object.entries(message.headers ?? {}).map(([k, v]) => [k, String(v)]),
              ),
            });
            if (dead.length === 2) resolve();
          },
        })
        .catch(reject);
    });
    await consumer.disconnect();
    expect(dead.map((d) => [d.key, d.value])).toEqual([
      ['mallory', '{"userId": "mallory", "amount": '],
      ['bob', 'not json at all'],
    ]);
    expect(dead[0].headers).toMatchObject({
      trace: 'abc',
      [DEAD_LETTER_HEADERS.topic]: input,
      [DEAD_LETTER_HEADERS.partition]: '0',
      [DEAD_LETTER_HEADERS.offset]: '1',
      [DEAD_LETTER_HEADERS.exception]: 'SerializationError',
    });
    expect(dead[1].headers[DEAD_LETTER_HEADERS.offset]).toBe('3');
    expect(dead[1].headers[DEAD_LETTER_HEADERS.message]).toMatch(/not json|JSON/i);
  });
});
