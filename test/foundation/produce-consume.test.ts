import { KafkaTestContext } from '../support/kafka-test-context';

/** Where the records' timestamps start: a minute ago (never older than the topic's retention). */
const T0 = Date.now() - 60_000;

describe('produce and consume keyed records', () => {
  const ctx = new KafkaTestContext();
  afterAll(() => ctx.cleanup());

  it('round-trips keys, values, headers and timestamps in order per partition', async () => {
    const topic = await ctx.createTopic(ctx.topicName('roundtrip'), 3);
    const producer = ctx.kafka.producer();
    await producer.connect();
    const sent = Array.from({ length: 30 }, (_, i) => ({
      key: `user-${i % 5}`,
      value: JSON.stringify({ userId: `user-${i % 5}`, amount: i }),
      timestamp: String(T0 + i),
      headers: { seq: String(i) },
    }));
    await producer.send({ topic, messages: sent });
    await producer.disconnect();

    const consumer = ctx.kafka.consumer({ groupId: `${ctx.applicationId}-reader` });
    await consumer.connect();
    await consumer.subscribe({ topics: [topic], fromBeginning: true });
    // By partition and offset: a consumer group may deliver a record again after a rebalance
    // (at-least-once), so the wait is for 30 distinct records, not for 30 deliveries.
    const byOffset = new Map<
      string,
      { key: string; value: string; ts: string; seq: string; partition: number; offset: number }
    >();
    await new Promise<void>((resolve, reject) => {
      consumer
        .run({
          eachMessage: async ({ message, partition }) => {
            byOffset.set(`${partition}:${message.offset}`, {
              key: message.key!.toString(),
              value: message.value!.toString(),
              ts: message.timestamp,
              seq: message.headers!.seq!.toString(),
              partition,
              offset: Number(message.offset),
            });
            if (byOffset.size === sent.length) resolve();
          },
        })
        .catch(reject);
    });
    await consumer.disconnect();
    const received = [...byOffset.values()].sort(
      (a, b) => a.partition - b.partition || a.offset - b.offset,
    );

    expect(received).toHaveLength(30);
    // Each key lives on exactly one partition, and per key the order is the send order.
    for (let k = 0; k < 5; k++) {
      const forKey = received.filter((r) => r.key === `user-${k}`);
      expect(new Set(forKey.map((r) => r.partition)).size).toBe(1);
      expect(forKey.map((r) => Number(r.seq))).toEqual([k, k + 5, k + 10, k + 15, k + 20, k + 25]);
      for (const r of forKey) {
        expect(JSON.parse(r.value)).toEqual({ userId: `user-${k}`, amount: Number(r.seq) });
        expect(r.ts).toBe(String(T0 + Number(r.seq)));
      }
    }
  });
});
