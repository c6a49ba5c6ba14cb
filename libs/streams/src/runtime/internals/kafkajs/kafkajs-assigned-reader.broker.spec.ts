import type { Producer } from 'kafkajs';
import { KafkaTestContext } from '../../../../../../test/support/kafka-test-context';
import { PartitionOffsetOutOfRangeError } from '../../../errors/internals/partition-offset-out-of-range.error';
import type { AssignedPartitionReader, FetchedPartition } from '../assigned-partition-reader';
import { decodesBatchEnds, kafkajsAssignedReaderFactory } from './kafkajs-assigned-reader';

describe('kafkajs reader by assignment (real broker)', () => {
  let ctx: KafkaTestContext;
  let topic: string;
  let reader: AssignedPartitionReader;
  const producers: Producer[] = [];

  beforeEach(async () => {
    ctx = new KafkaTestContext();
    topic = await ctx.createTopic(ctx.topicName('changelog'), 2);
    reader = kafkajsAssignedReaderFactory(ctx.kafka)({ maxWaitTimeMs: 100 })!;
  });
  afterEach(async () => {
    await reader.close();
    await Promise.all(producers.splice(0).map((p) => p.disconnect()));
    await ctx.cleanup();
  });

  async function transactional(name: string): Promise<Producer> {
    const producer = ctx.kafka.producer({
      transactionalId: `${ctx.applicationId}-${name}`,
      idempotent: true,
      maxInFlightRequests: 1,
    });
    await producer.connect();
    producers.push(producer);
    return producer;
  }

  /** Fetches partition `partition` from `offset` until the log end; every fetch's result. */
  async function readToEnd(partition: number, offset: number): Promise<FetchedPartition[]> {
    const fetches: FetchedPartition[] = [];
    for (let at = offset, round = 0; round < 50; round++) {
      const [fetched] = await reader.fetch([{ topic, partition, offset: at }]);
      if (fetched === undefined) continue;
      fetches.push(fetched);
      at = fetched.nextOffset;
      if (at >= fetched.lastStableOffset) return fetches;
    }
    throw new Error(`partition ${partition} never reached its end`);
  }

  const values = (fetches: readonly FetchedPartition[]): string[] =>
    fetches.flatMap((f) => f.records.map((r) => `${r.offset}:${r.value?.toString()}`));

  it('returns only committed records of interleaved transactions from three producers, past every marker', async () => {
    const [p1, p2, p3] = [
      await transactional('p1'),
      await transactional('p2'),
      await transactional('p3'),
    ];
    const send = (t: Awaited<ReturnType<Producer['transaction']>>, value: string) =>
      t.send({ topic, messages: [{ partition: 0, key: 'k', value }] });
    const t1 = await p1.transaction();
    const t2 = await p2.transaction();
    const t3 = await p3.transaction();
    await send(t1, 'p1-aborted-a'); // 0
    await send(t2, 'p2-aborted-a'); // 1
    await send(t3, 'p3-committed'); // 2
    await send(t2, 'p2-aborted-b'); // 3
    await send(t1, 'p1-aborted-b'); // 4
    await t3.commit(); // marker 5
    await t1.abort(); // marker 6
    await t2.abort(); // marker 7
    const t4 = await p1.transaction();
    await send(t4, 'p1-committed'); // 8
    await t4.commit(); // marker 9

    expect(decodesBatchEnds()).toBe(true); // the engine's decoding, not kafkajs' fallback
    const fromStart = await readToEnd(0, 0);
    expect(values(fromStart)).toEqual(['2:p3-committed', '8:p1-committed']);
    expect(fromStart.at(-1)).toMatchObject({
      nextOffset: 10,
      highWatermark: 10,
      lastStableOffset: 10,
    });

    // From offset 3, both aborted transactions began before the fetch: kafkajs' own filter
    // would return p2's record 3 here.
    expect(values(await readToEnd(0, 3))).toEqual(['8:p1-committed']);
    // A fetch starting on the markers only moves past them.
    const markers = await readToEnd(0, 5);
    expect(values(markers)).toEqual(['8:p1-committed']);
    expect(markers.at(-1)!.nextOffset).toBe(10);
  });

  it('reads several partitions in one fetch, each from its own offset, and joins no consumer group', async () => {
    const producer = ctx.kafka.producer();
    await producer.connect();
    producers.push(producer);
    await producer.send({
      topic,
      messages: [
        ...['a', 'b', 'c'].map((value) => ({ partition: 0, key: value, value })),
        ...['x', 'y'].map((value) => ({ partition: 1, key: value, value })),
      ],
    });
    const admin = await ctx.admin();
    const groupsBefore = (await admin.listGroups()).groups.length;

    // A round whose leader lookup is not ready yet (a new topic) returns nothing: fetch again.
    let fetched: FetchedPartition[] = [];
    for (let round = 0; round < 50 && fetched.length < 2; round++) {
      fetched = await reader.fetch([
        { topic, partition: 0, offset: 1 },
        { topic, partition: 1, offset: 0 },
      ]);
    }

    const byPartition = Object.fromEntries(
      fetched.map((f) => [
        f.partition,
        { values: f.records.map((r) => r.value?.toString()), next: f.nextOffset },
      ]),
    );
    expect(byPartition).toEqual({
      0: { values: ['b', 'c'], next: 3 },
      1: { values: ['x', 'y'], next: 2 },
    });
    expect((await admin.listGroups()).groups.length).toBe(groupsBefore);
  });

  it('fails with PartitionOffsetOutOfRangeError naming the partition for a position past the log end', async () => {
    // A round whose leader lookup is not ready yet (a new topic) returns nothing: fetch again.
    let failure: unknown;
    for (let round = 0; round < 50 && failure === undefined; round++) {
      await reader.fetch([{ topic, partition: 1, offset: 500 }]).catch((e: unknown) => {
        failure = e;
      });
    }
    expect(failure).toBeInstanceOf(PartitionOffsetOutOfRangeError);
    expect(failure).toMatchObject({
      code: 'PARTITION_OFFSET_OUT_OF_RANGE',
      topic,
      partition: 1,
      offset: 500,
    });
  });
});
