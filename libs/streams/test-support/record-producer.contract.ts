import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { CommitFailedError } from '../src/errors/internals/commit-failed.error';
import { MemberFencedError } from '../src/errors/internals/member-fenced.error';
import { ProducerFencedError } from '../src/errors/internals/producer-fenced.error';
import { UnknownTopicError } from '../src/errors/internals/unknown-topic.error';
import type { FetchedRecord } from '../src/client/assigned-partition-reader';
import { KafkajsClusterAdmin } from '../src/client/kafkajs/kafkajs-cluster-admin';
import { kafkajsAssignedReaderFactory } from '../src/client/kafkajs/kafkajs-assigned-reader';
import {
  groupOnlyMetadata,
  type ConsumerGroupMetadata,
  type ProducerRecord,
  type RecordProducer,
  type RecordProducerFactory,
} from '../src/client/record-producer';
import { KafkaTestContext, randomSuffix } from '../../../test/support/kafka-test-context';

/** One client's way to create the port's adapters and to join a group with its consumer. */
export interface RecordProducerContractClient {
  /** The adapter's producers over a new client of the test broker (`clientId` for its logs). */
  producers(clientId: string): RecordProducerFactory;
  /**
   * Joins `groupId` (subscribed to `topic`) with this client's consumer and resolves with the
   * member's metadata once it has an assignment; `undefined` when the adapter has no KIP-447.
   */
  joinGroup?(
    groupId: string,
    topic: string,
  ): Promise<{ metadata: ConsumerGroupMetadata; leave(): Promise<void> }>;
}

/**
 * Where the records' timestamps start: a minute ago. A record is stamped `T0 + at`: never older
 * than the topic's `retention.ms`, whose time retention would delete it (and move the log
 * start past it) at the broker's next retention pass.
 */
const T0 = Date.now() - 60_000;

const record = (
  key: string | null,
  value: string | null,
  at: number,
  headers?: ProducerRecord['headers'],
): ProducerRecord => ({
  key: key === null ? null : Buffer.from(key),
  value: value === null ? null : Buffer.from(value),
  timestamp: T0 + at,
  ...(headers ? { headers } : {}),
});

/**
 * The {@link RecordProducer} contract against the test broker: exact offsets and contents read
 * back (by the engine's kafkajs reader by assignment, read_committed, whatever the adapter),
 * transactions, offsets in transactions (read back through the admin port), fencing and, for
 * an adapter with KIP-447, a stale generation refused. Topics and groups are random per test
 * and deleted afterwards.
 */
export function describeRecordProducerContract(
  client: string,
  create: () => RecordProducerContractClient,
): void {
  describe(`${client}: record producer contract (real broker)`, () => {
    let ctx: KafkaTestContext;
    let harness: RecordProducerContractClient;
    let factory: RecordProducerFactory;
    let admin: KafkajsClusterAdmin;
    const opened: RecordProducer[] = [];
    const open = async (producer: RecordProducer): Promise<RecordProducer> => {
      opened.push(producer);
      await producer.connect();
      return producer;
    };
    const txId = (label: string) => `${ctx.applicationId}-${label}`;

    /**
     * Every record of a partition a read_committed reader sees from offset 0 to its end, once the
     * transactions the test decided are decided on the log too: a commit or abort returns before
     * the broker writes its markers (the coordinator answers EndTxn, then sends
     * WriteTxnMarkers), and until then the last stable offset stays below the high watermark.
     */
    async function readCommitted(topic: string, partition: number): Promise<FetchedRecord[]> {
      const reader = kafkajsAssignedReaderFactory(ctx.kafka)({ maxWaitTimeMs: 50 })!;
      const records: FetchedRecord[] = [];
      const deadline = Date.now() + 15_000;
      try {
        for (let offset = 0; Date.now() < deadline;) {
          const [fetched] = await reader.fetch([{ topic, partition, offset }]);
          if (!fetched) continue;
          records.push(...fetched.records);
          offset = fetched.nextOffset;
          if (offset < fetched.lastStableOffset) continue;
          if (fetched.lastStableOffset === fetched.highWatermark) return records;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      } finally {
        await reader.close();
      }
      throw new Error(`${topic}-${partition}: no end with every transaction decided in 15 s`);
    }
    /** The headers of the first `count` records of a topic, read by a plain kafkajs consumer. */
    async function readHeaders(topic: string, count: number): Promise<Record<string, unknown>[]> {
      const consumer = ctx.kafka.consumer({ groupId: `${ctx.applicationId}-reader` });
      const headers: Record<string, unknown>[] = [];
      try {
        await consumer.connect();
        await consumer.subscribe({ topics: [topic], fromBeginning: true });
        const done = new Promise<void>((resolve) => {
          void consumer.run({
            eachMessage: async ({ message }) => {
              headers.push({ ...message.headers });
              if (headers.length >= count) resolve();
            },
          });
        });
        await Promise.race([done, new Promise((r) => setTimeout(r, 20_000))]);
      } finally {
        await consumer.disconnect();
      }
      return headers;
    }
    /**
     * The group's committed offsets once they equal `expected`, or the last read after 10 s. A
     * transaction's offsets become visible when its commit marker reaches the group coordinator,
     * which the transaction coordinator writes after EndTxn has answered; the kafkajs admin reads
     * without KIP-447's require_stable, so a read right after the commit may still see none.
     */
    async function committedOnceEqual(
      group: string,
      topics: readonly string[],
      expected: readonly { topic: string; partition: number; offset: number }[],
    ) {
      const deadline = Date.now() + 10_000;
      for (;;) {
        const committed = await admin.fetchCommittedOffsets(group, topics);
        if (JSON.stringify(committed) === JSON.stringify(expected) || Date.now() > deadline) {
          return committed;
        }
        await new Promise((r) => setTimeout(r, 50));
      }
    }
    const contents = (records: readonly FetchedRecord[]) =>
      records.map((r) => [r.offset, r.key?.toString() ?? null, r.value?.toString() ?? null]);

    beforeEach(async () => {
      ctx = new KafkaTestContext();
      harness = create();
      factory = harness.producers(ctx.applicationId);
      admin = new KafkajsClusterAdmin(ctx.kafka.admin());
      await admin.connect();
    });

    afterEach(async () => {
      for (const producer of opened.splice(0)) await producer.disconnect().catch(() => undefined);
      await admin.disconnect();
      await ctx.cleanup();
    });

    it('writes each partition exactly as given and acknowledges its base offset', async () => {
      const topic = await ctx.createTopic(ctx.topicName('out'), 3);
      const producer = await open(factory.idempotent());
      expect(producer.transactionalId).toBeUndefined();
      const first = await producer.send([
        { topic, partition: 2, records: [record('a', 'x', 1_000), record('b', 'y', 2_000)] },
        { topic, partition: 0, records: [record('c', 'z', 3_000)] },
      ]);
      expect([...first].sort((a, b) => a.partition - b.partition)).toEqual([
        { topic, partition: 0, baseOffset: 0 },
        { topic, partition: 2, baseOffset: 0 },
      ]);
      const headers = { h1: 'text', h2: Buffer.from([0, 255]) };
      const second = await producer.send([
        {
          topic,
          partition: 2,
          records: [record(null, 'no key', 4_000, headers), record('tomb', null, 5_000)],
        },
      ]);
      expect(second).toEqual([{ topic, partition: 2, baseOffset: 2 }]);

      const p2 = await readCommitted(topic, 2);
      expect(contents(p2)).toEqual([
        [0, 'a', 'x'],
        [1, 'b', 'y'],
        [2, null, 'no key'],
        [3, 'tomb', null],
      ]);
      expect(p2.map((r) => r.timestamp - T0)).toEqual([1_000, 2_000, 4_000, 5_000]);
      const topic2 = await ctx.createTopic(ctx.topicName('headers'), 1);
      await producer.send([
        {
          topic: topic2,
          partition: 0,
          records: [record('a', 'x', 1), record('b', 'y', 2, headers)],
        },
      ]);
      expect(await readHeaders(topic2, 2)).toEqual([
        {},
        { h1: Buffer.from('text'), h2: Buffer.from([0, 255]) },
      ]);
      expect(contents(await readCommitted(topic, 0))).toEqual([[0, 'c', 'z']]);
      expect(await readCommitted(topic, 1)).toEqual([]);
    });

    it('refuses a partition the topic does not have, and a topic that does not exist', async () => {
      const topic = await ctx.createTopic(ctx.topicName('small'), 2);
      const producer = await open(factory.idempotent());
      const outside = await producer
        .send([{ topic, partition: 2, records: [record('k', 'v', 1)] }])
        .catch((e: unknown) => e);
      expect(outside).toBeInstanceOf(UnknownTopicError);
      const missing = `${ctx.applicationId}-missing-${randomSuffix()}`;
      const unknown = await producer
        .send([{ topic: missing, partition: 0, records: [record('k', 'v', 1)] }])
        .catch((e: unknown) => e);
      expect(unknown).toBeInstanceOf(UnknownTopicError);
      expect(await readCommitted(topic, 0)).toEqual([]);
    });

    it('shows a committed transaction to read_committed readers, never an aborted one', async () => {
      const topic = await ctx.createTopic(ctx.topicName('tx'), 1);
      const producer = await open(factory.transactional(txId('0_0'), 60_000));
      expect(producer.transactionalId).toBe(txId('0_0'));
      await producer.beginTransaction();
      await producer.send([{ topic, partition: 0, records: [record('a', '1', 10)] }]);
      await producer.send([{ topic, partition: 0, records: [record('b', '2', 20)] }]);
      await producer.abortTransaction();
      await producer.beginTransaction();
      const acks = await producer.send([
        { topic, partition: 0, records: [record('c', '3', 30), record('d', '4', 40)] },
      ]);
      // Two aborted records and the abort marker come first.
      expect(acks).toEqual([{ topic, partition: 0, baseOffset: 3 }]);
      await producer.commitTransaction();
      expect(contents(await readCommitted(topic, 0))).toEqual([
        [3, 'c', '3'],
        [4, 'd', '4'],
      ]);
    });

    it('never sends outside the transaction a send was made in: one queued across an abort is refused', async () => {
      const topic = await ctx.createTopic(ctx.topicName('queued'), 1);
      const producer = await open(factory.transactional(txId('0_1'), 60_000));
      await expect(
        producer.send([{ topic, partition: 0, records: [record('x', 'outside', 5)] }]),
      ).rejects.toThrow(/no transaction is open/);
      await producer.beginTransaction();
      // The second send waits for the first; the transaction both were made in aborts before
      // the second runs (as a stream thread closing its tasks dirty aborts while sends retry).
      const first = producer
        .send([{ topic, partition: 0, records: [record('a', 'first', 10)] }])
        .catch((e: unknown) => e);
      const queued = producer
        .send([{ topic, partition: 0, records: [record('b', 'queued', 20)] }])
        .catch((e: unknown) => e);
      await producer.abortTransaction();
      await producer.beginTransaction();
      await producer.send([{ topic, partition: 0, records: [record('c', 'next', 30)] }]);
      await first;
      expect(await queued).toBeInstanceOf(Error);
      expect(String(await queued)).toMatch(/transaction this send was made in has ended/);
      await producer.commitTransaction();
      // Neither in the next transaction nor outside any: only the next transaction's record.
      expect(contents(await readCommitted(topic, 0)).map(([, key, value]) => [key, value])).toEqual(
        [['c', 'next']],
      );
    });

    it('commits offsets sent in a transaction with it, and drops them with an abort', async () => {
      const input = await ctx.createTopic(ctx.topicName('in'), 2);
      const output = await ctx.createTopic(ctx.topicName('out'), 1);
      const group = `${ctx.applicationId}-group`;
      const producer = await open(factory.transactional(txId('0_1'), 60_000));
      await producer.beginTransaction();
      await producer.send([{ topic: output, partition: 0, records: [record('k', 'v', 1)] }]);
      await producer.sendOffsetsToTransaction(
        [
          { topic: input, partition: 0, offset: 7 },
          { topic: input, partition: 1, offset: 3 },
        ],
        groupOnlyMetadata(group),
      );
      expect(await admin.fetchCommittedOffsets(group, [input])).toEqual([]);
      await producer.commitTransaction();
      const expected = [
        { topic: input, partition: 0, offset: 7 },
        { topic: input, partition: 1, offset: 3 },
      ];
      expect(await committedOnceEqual(group, [input], expected)).toEqual(expected);

      await producer.beginTransaction();
      await producer.sendOffsetsToTransaction(
        [{ topic: input, partition: 0, offset: 99 }],
        groupOnlyMetadata(group),
      );
      await producer.abortTransaction();
      expect(await admin.fetchCommittedOffsets(group, [input])).toEqual([
        { topic: input, partition: 0, offset: 7 },
        { topic: input, partition: 1, offset: 3 },
      ]);
    });

    it('fences the older producer of a transactional id: its open transaction never shows', async () => {
      const topic = await ctx.createTopic(ctx.topicName('fence'), 1);
      const zombie = await open(factory.transactional(txId('1_0'), 60_000));
      await zombie.beginTransaction();
      await zombie.send([{ topic, partition: 0, records: [record('z', 'zombie', 1)] }]);
      const owner = await open(factory.transactional(txId('1_0'), 60_000));
      const sent = await zombie
        .send([{ topic, partition: 0, records: [record('z', 'again', 2)] }])
        .catch((e: unknown) => e);
      const committed = await zombie.commitTransaction().catch((e: unknown) => e);
      expect(committed).toBeInstanceOf(ProducerFencedError);
      expect(committed).toMatchObject({ code: 'PRODUCER_FENCED', transactionalId: txId('1_0') });
      if (sent instanceof Error) expect(sent).toBeInstanceOf(ProducerFencedError);
      await zombie.abortTransaction().catch(() => undefined);

      await owner.beginTransaction();
      await owner.send([{ topic, partition: 0, records: [record('o', 'owner', 3)] }]);
      await owner.commitTransaction();
      expect(contents(await readCommitted(topic, 0)).map(([, key, value]) => [key, value])).toEqual(
        [['o', 'owner']],
      );
    });

    it('refuses offsets of a stale generation when it sends the group metadata (KIP-447)', async () => {
      const producer = await open(factory.transactional(txId('2_0'), 60_000));
      if (!producer.supportsGroupMetadata || !harness.joinGroup) {
        expect(producer.supportsGroupMetadata).toBe(false);
        return;
      }
      const input = await ctx.createTopic(ctx.topicName('in'), 1);
      const group = `${ctx.applicationId}-kip447`;
      // A first member leaves: the next one joins in a later generation.
      const first = await harness.joinGroup(group, input);
      await first.leave();
      const member = await harness.joinGroup(group, input);
      try {
        const current = member.metadata;
        expect(current.generationId).toBeGreaterThan(first.metadata.generationId);
        const stale = { ...current, generationId: first.metadata.generationId };
        await producer.beginTransaction();
        const refused = await producer
          .sendOffsetsToTransaction([{ topic: input, partition: 0, offset: 5 }], stale)
          .catch((e: unknown) => e);
        expect(refused).toBeInstanceOf(CommitFailedError);
        expect(refused).toMatchObject({ groupId: group });
        expect((refused as CommitFailedError).cause).toBeInstanceOf(MemberFencedError);
        expect((refused as CommitFailedError).cause).toMatchObject({
          reason: 'illegal-generation',
        });
        await producer.abortTransaction();
        expect(await admin.fetchCommittedOffsets(group, [input])).toEqual([]);

        await producer.beginTransaction();
        await producer.sendOffsetsToTransaction(
          [{ topic: input, partition: 0, offset: 5 }],
          current,
        );
        await producer.commitTransaction();
        const expected = [{ topic: input, partition: 0, offset: 5 }];
        expect(await committedOnceEqual(group, [input], expected)).toEqual(expected);
      } finally {
        await member.leave();
      }
    });
  });
}
