import { KafkaTestContext, randomSuffix } from '../support/kafka-test-context';

describe('transactions (the exactly-once building blocks)', () => {
  const ctx = new KafkaTestContext();
  afterAll(() => ctx.cleanup());

  it('commits output and consumer-group offsets in one transaction; aborted records stay invisible', async () => {
    const input = await ctx.createTopic(ctx.topicName('tx-in'), 1);
    const output = await ctx.createTopic(ctx.topicName('tx-out'), 1);
    const groupId = `${ctx.applicationId}-eos`;
    const producer = ctx.kafka.producer({
      transactionalId: `${ctx.applicationId}-tx-${randomSuffix()}`,
      idempotent: true,
      maxInFlightRequests: 1,
    });
    await producer.connect();

    const committed = await producer.transaction();
    await committed.send({
      topic: output,
      messages: [
        { key: 'k', value: 'a' },
        { key: 'k', value: 'b' },
      ],
    });
    await committed.sendOffsets({
      consumerGroupId: groupId,
      topics: [{ topic: input, partitions: [{ partition: 0, offset: '5' }] }],
    });
    await committed.commit();

    const aborted = await producer.transaction();
    await aborted.send({
      topic: output,
      messages: [
        { key: 'k', value: 'x' },
        { key: 'k', value: 'y' },
      ],
    });
    await aborted.sendOffsets({
      consumerGroupId: groupId,
      topics: [{ topic: input, partitions: [{ partition: 0, offset: '9' }] }],
    });
    await aborted.abort();

    const last = await producer.transaction();
    await last.send({ topic: output, messages: [{ key: 'k', value: 'c' }] });
    await last.commit();
    await producer.disconnect();

    const admin = await ctx.admin();
    const offsets = await admin.fetchOffsets({ groupId, topics: [input] });
    expect(offsets).toEqual([
      { topic: input, partitions: [{ partition: 0, offset: '5', metadata: null }] },
    ]);

    // read_committed (kafkajs' default): a, b, c; never x or y. Offsets include the markers.
    const consumer = ctx.kafka.consumer({
      groupId: `${ctx.applicationId}-reader`,
      readUncommitted: false,
    });
    await consumer.connect();
    await consumer.subscribe({ topics: [output], fromBeginning: true });
    const values: string[] = [];
    const offsetsSeen: string[] = [];
    await new Promise<void>((resolve, reject) => {
      consumer
        .run({
          eachMessage: async ({ message }) => {
            values.push(message.value!.toString());
            offsetsSeen.push(message.offset);
            if (values.length === 3) resolve();
          },
        })
        .catch(reject);
    });
    // Give a wrongly visible aborted record the chance to arrive before asserting.
    await new Promise((r) => setTimeout(r, 500));
    await consumer.disconnect();
    expect(values).toEqual(['a', 'b', 'c']);
    // a=0, b=1, commit marker=2, x=3, y=4, abort marker=5, c=6
    expect(offsetsSeen).toEqual(['0', '1', '6']);

    const ends = await admin.fetchTopicOffsets(output);
    expect(ends[0].high).toBe('8');
  });
});
