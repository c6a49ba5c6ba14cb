// The contract of the reader by assignment (AssignedPartitionReader), against the real broker:
// every client adapter's `*.broker.spec.ts` runs these same cases.
import type { Producer, Transaction } from 'kafkajs';
import { PartitionOffsetOutOfRangeError } from '../src/errors/internals/partition-offset-out-of-range.error';
import type {
  AssignedPartitionReader,
  AssignedPartitionReaderFactory,
  FetchedPartition,
} from '../src/client/assigned-partition-reader';
import { KafkaTestContext } from '../../../test/support/kafka-test-context';
import { EXPECTED_HEADERS, MESSAGES_WITH_HEADERS } from './record-headers.fixture';

/** Rounds a fetch may need while a new topic's leader or a marker is not there yet. */
const ROUNDS = 50;
/** How long the broker may take to write the markers of transactions a test has decided. */
const DECIDED_WITHIN_MS = 15_000;

/**
 * Runs the reader-by-assignment contract against the real broker for the readers `factory`
 * makes (one per test, with a 100 ms fetch wait).
 */
export function assignedReaderContract(
  client: string,
  factory: (ctx: KafkaTestContext) => AssignedPartitionReaderFactory,
): void {
  describe(`${client} reader by assignment: contract (real broker)`, () => {
    let ctx: KafkaTestContext;
    let topic: string;
    let reader: AssignedPartitionReader;
    const producers: Producer[] = [];

    beforeEach(async () => {
      ctx = new KafkaTestContext();
      topic = await ctx.createTopic(ctx.topicName('changelog'), 2);
      const created = factory(ctx)({ maxWaitTimeMs: 100 });
      if (created === undefined) throw new Error(`the ${client} factory made no reader`);
      reader = created;
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

    async function plain(): Promise<Producer> {
      const producer = ctx.kafka.producer();
      await producer.connect();
      producers.push(producer);
      return producer;
    }

    const send = (to: Producer | Transaction, value: string, partition = 0) =>
      to.send({ topic, messages: [{ partition, key: 'k', value }] });

    /** One fetch of one partition, fetched again while its leader is not known yet. */
    async function fetchOne(partition: number, offset: number): Promise<FetchedPartition> {
      for (let round = 0; round < ROUNDS; round++) {
        const [fetched] = await reader.fetch([{ topic, partition, offset }]);
        if (fetched !== undefined) return fetched;
      }
      throw new Error(`partition ${partition} was never fetched`);
    }

    /**
     * Fetches a partition from `offset` to its end once every transaction the test decided is
     * decided on the log too; every fetch's result. A commit or abort returns before the broker
     * writes its markers (the coordinator answers EndTxn, then sends WriteTxnMarkers), so until
     * then the last stable offset stays below the high watermark: read on after a pause.
     */
    async function readToEnd(partition: number, offset: number): Promise<FetchedPartition[]> {
      const fetches: FetchedPartition[] = [];
      const deadline = Date.now() + DECIDED_WITHIN_MS;
      for (let at = offset; Date.now() < deadline;) {
        const fetched = await fetchOne(partition, at);
        fetches.push(fetched);
        at = fetched.nextOffset;
        if (at < fetched.lastStableOffset) continue;
        if (fetched.lastStableOffset === fetched.highWatermark) return fetches;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error(
        `partition ${partition} never reached its end with every transaction decided`,
      );
    }

    /**
     * One fetch from `offset` that reached the log end with every transaction decided (its
     * markers written, which the broker does after the producer's commit or abort returns).
     */
    async function wholeLogInOneFetch(offset: number, end: number): Promise<FetchedPartition> {
      for (let round = 0; round < ROUNDS; round++) {
        const fetched = await fetchOne(0, offset);
        if (fetched.nextOffset === end && fetched.lastStableOffset === end) return fetched;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error(`no fetch from ${offset} reached ${end} with every transaction decided`);
    }

    const values = (fetches: readonly FetchedPartition[]): string[] =>
      fetches.flatMap((f) => f.records.map((r) => `${r.offset}:${r.value?.toString()}`));

    it('returns only committed records of interleaved transactions from three producers, past every marker', async () => {
      const [p1, p2, p3] = [
        await transactional('p1'),
        await transactional('p2'),
        await transactional('p3'),
      ];
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

    it('leaves out every aborted transaction of every producer within one fetch: several per producer, interleaved', async () => {
      const producers = [
        await transactional('p1'),
        await transactional('p2'),
        await transactional('p3'),
      ];
      // Per round, which producers commit: p1 aborts 3 of 5, p2 4 of 5, p3 3 of 5.
      const commits = [
        [false, false, true],
        [true, false, false],
        [false, true, false],
        [false, false, true],
        [true, false, false],
      ];
      const committed: string[] = [];
      let end = 0;
      for (const [round, decisions] of commits.entries()) {
        const transactions = await Promise.all(producers.map((p) => p.transaction()));
        for (const part of ['x', 'y']) {
          for (const [i, t] of transactions.entries()) {
            const value = `p${i + 1}-r${round}-${part}`;
            await send(t, value);
            end++;
            if (decisions[i]) committed.push(value);
          }
        }
        for (const [i, t] of transactions.entries()) {
          await (decisions[i] ? t.commit() : t.abort());
          end++; // its marker
        }
      }

      const fetched = await wholeLogInOneFetch(0, end);
      expect(fetched.records.map((r) => r.value?.toString())).toEqual(committed);
      const offsets = fetched.records.map((r) => r.offset);
      expect(offsets).toEqual([...offsets].sort((a, b) => a - b));
      expect(new Set(offsets).size).toBe(committed.length);
      expect(fetched).toMatchObject({ fetchOffset: 0, highWatermark: end, lastStableOffset: end });
    });

    it('moves past markers: a commit marker, and an aborted transaction with its marker, give no records', async () => {
      const producer = await transactional('p1');
      const committed = await producer.transaction();
      await send(committed, 'committed'); // 0
      await committed.commit(); // marker 1
      const aborted = await producer.transaction();
      await send(aborted, 'aborted'); // 2
      await aborted.abort(); // marker 3

      expect(await wholeLogInOneFetch(1, 4)).toMatchObject({
        fetchOffset: 1,
        records: [],
        nextOffset: 4,
        highWatermark: 4,
      });
      expect((await wholeLogInOneFetch(2, 4)).records).toEqual([]);
      expect(values([await wholeLogInOneFetch(0, 4)])).toEqual(['0:committed']);
    });

    it('returns nothing for an empty partition and stays at its offset', async () => {
      expect(await fetchOne(1, 0)).toEqual({
        topic,
        partition: 1,
        fetchOffset: 0,
        records: [],
        nextOffset: 0,
        highWatermark: 0,
        lastStableOffset: 0,
      });
    });

    it('stops at the last stable offset of an open transaction, and reports it and the high watermark', async () => {
      const producer = await plain();
      await send(producer, 'a'); // 0
      await send(producer, 'b'); // 1
      const open = await (await transactional('p1')).transaction();
      await send(open, 'open'); // 2
      await send(producer, 'c'); // 3

      const held = await fetchOne(0, 0);
      expect(values([held])).toEqual(['0:a', '1:b']);
      expect(held).toMatchObject({ nextOffset: 2, highWatermark: 4, lastStableOffset: 2 });
      expect(await fetchOne(0, 2)).toMatchObject({ records: [], nextOffset: 2 });

      await open.commit(); // marker 4
      const rest = await wholeLogInOneFetch(2, 5);
      expect(values([rest])).toEqual(['2:open', '3:c']);
      expect(rest).toMatchObject({ highWatermark: 5, lastStableOffset: 5 });
    });

    it('reads several partitions in one fetch, each from its own offset, and joins no consumer group', async () => {
      const producer = await plain();
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
      for (let round = 0; round < ROUNDS && fetched.length < 2; round++) {
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

    it("returns each record's headers exactly with headers: true, and none by default", async () => {
      const producer = await plain();
      await producer.send({
        topic,
        messages: MESSAGES_WITH_HEADERS.map((m) => ({ ...m, partition: 0 })),
      });
      const withHeaders = factory(ctx)({ maxWaitTimeMs: 100, headers: true })!;
      try {
        let fetched: FetchedPartition | undefined;
        for (let round = 0; round < ROUNDS && fetched === undefined; round++) {
          [fetched] = await withHeaders.fetch([{ topic, partition: 0, offset: 0 }]);
        }
        expect(fetched!.records.map((r) => [r.offset, r.value?.toString()])).toEqual(
          MESSAGES_WITH_HEADERS.map((m, i) => [i, m.value]),
        );
        expect(fetched!.records.map((r) => r.headers)).toStrictEqual(EXPECTED_HEADERS);
      } finally {
        await withHeaders.close();
      }
      const plainRecords = (await fetchOne(0, 0)).records;
      expect(plainRecords).toHaveLength(MESSAGES_WITH_HEADERS.length);
      expect(plainRecords.filter((r) => 'headers' in r)).toEqual([]);
    });

    it('fails with PartitionOffsetOutOfRangeError naming the partition for a position past the log end', async () => {
      // A round whose leader lookup is not ready yet (a new topic) returns nothing: fetch again.
      let failure: unknown;
      for (let round = 0; round < ROUNDS && failure === undefined; round++) {
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
}
