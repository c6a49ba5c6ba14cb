import { DefaultStreamPartitioner } from '@nest-streams/streams';
import {
  EventGenerator,
  malformedRecord,
  sumToCents,
  TruthRecorder,
  userId,
  type GeneratorOptions,
} from '../../apps/event-generator/src/main';
import { brokers, KafkaTestContext } from '../support/kafka-test-context';

/**
 * The repeatable timestamps' start: an hour ago, on a second. Never older than the topic's
 * retention (7 days): the broker would delete the records at its next retention pass.
 */
const START = Math.floor(Date.now() / 1000) * 1000 - 3_600_000;

interface ReadRecord {
  readonly key: string;
  readonly value: string;
  readonly timestamp: number;
  readonly partition: number;
  readonly offset: number;
}

/**
 * The event generator against the real broker: what it says it produced is what a consumer
 * reads back, record for record, and a seed gives the same records every time.
 */
describe('event generator against the broker', () => {
  const ctx = new KafkaTestContext();
  afterAll(() => ctx.cleanup());
  /** A fresh topic name the context deletes at the end (it carries the application id). */
  const own = (label: string): string => `${ctx.applicationId}-${label}`;

  /** Reads every record of `topic` until `expected` have arrived, in partition order. */
  const readAll = async (topic: string, expected: number): Promise<ReadRecord[]> => {
    const consumer = ctx.kafka.consumer({ groupId: `${ctx.applicationId}-${topic}-reader` });
    await consumer.connect();
    await consumer.subscribe({ topics: [topic], fromBeginning: true });
    const records: ReadRecord[] = [];
    await new Promise<void>((resolve, reject) => {
      consumer
        .run({
          eachMessage: async ({ message, partition }) => {
            records.push({
              key: message.key!.toString('utf8'),
              value: message.value!.toString('utf8'),
              timestamp: Number(message.timestamp),
              partition,
              offset: Number(message.offset),
            });
            if (records.length >= expected) resolve();
          },
        })
        .catch(reject);
    });
    await consumer.disconnect();
    return records.sort((a, b) => a.partition - b.partition || a.offset - b.offset);
  };

  const options = (topic: string, extra: Partial<GeneratorOptions> = {}): GeneratorOptions => ({
    brokers: brokers(),
    topic,
    users: 12,
    seed: 2024,
    events: 3000,
    malformed: 9,
    startTime: START,
    stepMs: 100,
    ...extra,
  });

  it('produces the contract events and malformed records it reports, with exact truth', async () => {
    const topic = own('generator');
    const generator = new EventGenerator(options(topic));
    const summary = await generator.run();
    expect(summary).toMatchObject({ events: 3000, malformed: 9, aborted: false });
    expect(summary.topicStatus).toMatchObject({ topic, created: true, partitions: 6, records: 0 });

    const records = await readAll(topic, 3009);
    expect(records).toHaveLength(3009);

    // Recompute the truth from what the broker holds: only records of the contract's shape.
    const recomputed = new TruthRecorder(topic, 2024, 12);
    const malformed = new Set(Array.from({ length: 9 }, (_, j) => malformedRecord(j, 12).value));
    const partitioner = new DefaultStreamPartitioner();
    let skipped = 0;
    for (const r of records) {
      // Java-compatible murmur2 partitioning of the UTF-8 key.
      expect(r.partition).toBe(partitioner.partition(Buffer.from(r.key, 'utf8'), 6));
      let parsed: unknown;
      try {
        parsed = JSON.parse(r.value);
      } catch {
        parsed = undefined;
      }
      const event = parsed as { userId?: unknown; amount?: unknown } | undefined;
      if (
        typeof event !== 'object' ||
        event === null ||
        Array.isArray(event) ||
        typeof event.userId !== 'string' ||
        typeof event.amount !== 'number'
      ) {
        expect(malformed.has(r.value)).toBe(true);
        skipped++;
        continue;
      }
      expect(Object.keys(event).sort()).toEqual(['amount', 'userId']);
      expect(event.userId).toBe(r.key);
      expect(event.userId).toMatch(/^user-0(0[1-9]|1[0-2])$/);
      // Two decimals at most, exactly.
      expect(String(event.amount)).toMatch(/^\d+(\.\d{1,2})?$/);
      expect(r.timestamp).toBeGreaterThanOrEqual(START);
      recomputed.record(event.userId, sumToCents(event.amount), r.timestamp);
    }
    expect(skipped).toBe(9);
    const { totals, windows, events } = recomputed.report();
    expect(events).toBe(3000);
    expect(totals).toEqual(summary.truth.totals);
    expect(windows).toEqual(summary.truth.windows);
    expect(summary.truth).toMatchObject({
      topic,
      seed: 2024,
      users: 12,
      events: 3000,
      malformed: 9,
      firstTimestamp: START,
      lastTimestamp: START + 2999 * 100,
    });
    expect(Object.keys(summary.truth.totals)).toHaveLength(12);
    expect(Object.keys(summary.truth.totals)[0]).toBe(userId(1, 12));
  });

  it('is repeatable: the same seed produces the same records and the same truth', async () => {
    const [a, b] = [own('seed-a'), own('seed-b')];
    const first = await new EventGenerator(options(a, { malformed: 0, events: 800 })).run();
    const second = await new EventGenerator(
      options(b, { malformed: 0, events: 800, batchSize: 37 }),
    ).run();
    expect(second.truth.totals).toEqual(first.truth.totals);
    const strip = (records: ReadRecord[]): unknown[] =>
      records.map(({ key, value, timestamp, partition }) => ({ key, value, timestamp, partition }));
    expect(strip(await readAll(b, 800))).toEqual(strip(await readAll(a, 800)));
  });

  it('paces a rate for a duration, stops on abort, and never records an unsent event', async () => {
    const topic = own('paced');
    const paced = await new EventGenerator(
      options(topic, { events: undefined, durationMs: 1500, rate: 200, malformed: 2 }),
    ).run();
    // 200/s for 1.5 s: never more than 301 events; fewer only on a very busy machine.
    expect(paced.events).toBeLessThanOrEqual(301);
    expect(paced.events).toBeGreaterThanOrEqual(150);
    expect(paced.malformed).toBe(2);

    const stop = new AbortController();
    const generator = new EventGenerator(
      options(topic, { events: undefined, durationMs: 60_000, rate: 100, malformed: 0 }),
    );
    setTimeout(() => stop.abort(), 700);
    const aborted = await generator.run(stop.signal);
    expect(aborted.aborted).toBe(true);
    expect(aborted.elapsedMs).toBeLessThan(5000);
    expect(aborted.events).toBeGreaterThan(0);
    const records = await readAll(topic, paced.events + 2 + aborted.events);
    expect(records).toHaveLength(paced.events + 2 + aborted.events);
  });
});
