import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IHeaders } from 'kafkajs';
import { OrderStatsInstance } from '../../tools/instances/order-stats-instance';
import { waitFor } from '../cluster/cluster-harness';
import { brokers, KafkaTestContext } from '../support/kafka-test-context';
import { poisonCases, type PoisonCase } from './support/poison-cases';
import { readDeadLetters } from './support/poison-dead-letters';
import { scrapedSum, sendWithRefusedAmounts } from './support/refused-amounts';
import { recordFigures } from './support/reliability-report';
import { sized } from './support/reliability-size';
import { readyAndRunning } from '../support/health';

interface Stats {
  count: number;
  sum: number;
}
interface Metrics {
  processed: number;
  skippedDeserialization: number;
  skippedProcessing: number;
  deadLettered: number;
  droppedRecords: number;
}

const VALID_EVENTS = sized({ reduced: 2_400, full: 60_000 });
/** Events of the processing-error case, one in 1,000 refused by the aggregation. */
const AGGREGATED_EVENTS = sized({ reduced: 3_000, full: 60_000 });
const USERS = 20;
const PARTITIONS = 3;

/**
 * Poison input (issues #9 and #43): bad records of every kind interleaved with valid events, consumed at
 * the same time by two order-stats applications: one under exactly-once with a dead-letter
 * topic, one at-least-once without (log and continue). Each bad record must be handled as the
 * configured handler says (dead-lettered with its origin and error in headers, or logged),
 * counted in the metrics, and the valid events around them counted exactly; both keep running.
 * Then processing errors: a value that makes the aggregator throw, 1 record in 1,000, under
 * each guarantee with the processing exception handler continuing and a dead-letter topic.
 */
describe('reliability: poison input', () => {
  const ctx = new KafkaTestContext();
  const withDlqApp = `${ctx.applicationId}-dlq`;
  const withoutDlqApp = `${ctx.applicationId}-log`;
  const dirs: string[] = [];
  const instances: OrderStatsInstance[] = [];

  afterAll(async () => {
    await Promise.all(instances.map((i) => i.stop('SIGKILL')));
    await ctx.cleanup();
    const admin = await ctx.admin();
    const topics = (await admin.listTopics()).filter(
      (t) => t.startsWith(`${withDlqApp}-`) || t.startsWith(`${withoutDlqApp}-`),
    );
    if (topics.length > 0) await admin.deleteTopics({ topics, timeout: 30_000 });
    await ctx.cleanup();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('dead-letters or logs every bad record, counts it, and counts the valid ones exactly', async () => {
    const wallStart = Date.now();
    const input = await ctx.createTopic(ctx.topicName('poison'), PARTITIONS);
    const dlq = await ctx.createTopic(ctx.topicName('poison-dlq'), 1);
    const start = async (env: Record<string, string>) => {
      const dir = mkdtempSync(join(tmpdir(), 'poison-state-'));
      dirs.push(dir);
      const instance = await OrderStatsInstance.start({
        KAFKA_BROKERS: brokers().join(','),
        INPUT_TOPIC: input,
        COMMIT_INTERVAL_MS: '200',
        STATE_DIR: dir,
        ...env,
      });
      instances.push(instance);
      return instance;
    };
    const withDlq = await start({
      APPLICATION_ID: withDlqApp,
      PROCESSING_GUARANTEE: 'exactly_once_v2',
      DEAD_LETTER_TOPIC: dlq,
    });
    const withoutDlq = await start({
      APPLICATION_ID: withoutDlqApp,
      PROCESSING_GUARANTEE: 'at_least_once',
    });
    await waitFor(
      async () =>
        (await Promise.all(instances.map((i) => i.request('/health/ready')))).every(
          readyAndRunning,
        ),
      180_000,
      'both applications ready',
    );

    // Valid events in chunks, one poison record after each chunk (sent alone: its offset known).
    const cases = poisonCases();
    const truth = new Map<string, { count: number; cents: number }>();
    const add = (user: string, cents: number) => {
      const t = truth.get(user) ?? { count: 0, cents: 0 };
      truth.set(user, { count: t.count + 1, cents: t.cents + cents });
    };
    const sent = new Map<string, { partition: number; offset: number }>();
    const producer = ctx.kafka.producer();
    await producer.connect();
    const chunk = Math.ceil(VALID_EVENTS / cases.length);
    let valid = 0;
    for (const poison of cases) {
      const messages = [];
      for (let i = 0; i < chunk && valid < VALID_EVENTS; i++, valid++) {
        const userId = `user-${String((valid * 7) % USERS).padStart(3, '0')}`;
        const cents = 10 * ((valid % 9) + 1);
        add(userId, cents);
        messages.push({ key: userId, value: JSON.stringify({ userId, amount: cents / 100 }) });
      }
      await producer.send({ topic: input, messages });
      const headers: IHeaders = { 'x-poison-case': poison.name };
      const [meta] = await producer.send({
        topic: input,
        messages: [{ key: poison.key, value: poison.value, headers }],
      });
      sent.set(poison.name, { partition: meta.partition, offset: Number(meta.baseOffset) });
      if (poison.outcome === 'counted') add(poison.key!, Math.round(poison.amount! * 100));
    }
    await producer.disconnect();

    const skipped = cases.filter((c) => c.outcome === 'skipped');
    // Dropped by the DSL (the task's dropped-records): the stats aggregation drops the null
    // key and the null value; the windowed count drops the null key and counts the null value.
    const dropped = cases.filter((c) => c.outcome === 'dropped');
    const droppedByTheDsl = dropped.length + dropped.filter((c) => c.key === null).length;
    const deserialized = VALID_EVENTS + cases.length - skipped.length;
    const metrics = async (instance: OrderStatsInstance) =>
      ((await instance.request('/streams/metadata')).body as { metrics: Metrics }).metrics;
    for (const instance of instances) {
      await waitFor(
        async () => (await metrics(instance)).processed >= deserialized,
        180_000,
        'every record processed',
      );
    }

    // Valid events exact per user, on both applications (counted cases under their record key).
    for (const instance of instances) {
      for (const [user, t] of [...truth].sort()) {
        const r = await instance.request(`/stats/${user}`);
        expect(r.status).toBe(200);
        expect(r.body).toEqual({ count: t.count, sum: t.cents / 100 } satisfies Stats);
      }
      // The value's userId of the mismatching record was not counted, nor was the null key's.
      expect((await instance.request('/stats/user-999')).status).toBe(404);
      expect((await instance.request('/stats/user-998')).status).toBe(404);
    }

    // Counted: processed = everything that deserialized; skipped = the bad ones.
    const dlqMetrics = await metrics(withDlq);
    const logMetrics = await metrics(withoutDlq);
    expect(dlqMetrics).toMatchObject({
      processed: deserialized,
      skippedDeserialization: skipped.length,
      deadLettered: skipped.length,
      droppedRecords: droppedByTheDsl,
    });
    expect(logMetrics).toMatchObject({
      processed: deserialized,
      skippedDeserialization: skipped.length,
      deadLettered: 0,
      droppedRecords: droppedByTheDsl,
    });
    const scrape = (await withDlq.request('/metrics')).body as string;
    expect(scrape).toContain(`\nkafka_streams_skipped_deserialization_records ${skipped.length}\n`);
    expect(scrape).toContain(`\nkafka_streams_dead_lettered_records ${skipped.length}\n`);
    expect(scrape).toContain(`\nkafka_streams_dropped_records ${droppedByTheDsl}\n`);
    const logScrape = (await withoutDlq.request('/metrics')).body as string;
    expect(logScrape).toContain(
      `\nkafka_streams_skipped_deserialization_records ${skipped.length}\n`,
    );
    expect(logScrape).toContain('\nkafka_streams_dead_lettered_records 0\n');

    // The dead-letter topic: exactly the skipped records, original bytes, origin and error.
    const letters = await readDeadLetters(ctx.kafka, dlq, skipped.length);
    expect(letters).toHaveLength(skipped.length);
    const byCase = new Map(letters.map((l) => [l.headers['x-poison-case'], l]));
    expect([...byCase.keys()].sort()).toEqual(skipped.map((c) => c.name).sort());
    for (const poison of skipped) {
      const letter = byCase.get(poison.name)!;
      const origin = sent.get(poison.name)!;
      expect(letter.key?.toString()).toBe(poison.key);
      expect(letter.value === null ? null : Buffer.compare(letter.value, poison.value!)).toBe(0);
      const { '__streams.errors.stacktrace': stacktrace, ...headers } = letter.headers;
      expect(headers).toEqual({
        'x-poison-case': poison.name,
        '__streams.errors.exception': 'SerializationError',
        '__streams.errors.message': `${poison.errorMessage} (topic ${input})`,
        '__streams.errors.topic': input,
        '__streams.errors.partition': String(origin.partition),
        '__streams.errors.offset': String(origin.offset),
      });
      expect(stacktrace.startsWith(`SerializationError: ${poison.errorMessage}`)).toBe(true);
    }

    // Without a dead-letter topic: one log line per bad record, naming it and the error.
    for (const poison of skipped) {
      const { partition, offset } = sent.get(poison.name)!;
      expect(withoutDlq.output).toContain(
        `skipping record ${input}-${partition}@${offset}: ${poison.errorMessage} (topic ${input}) (deserialization error; handler: log and continue)`,
      );
      expect(withDlq.output).toContain(
        `sending record ${input}-${partition}@${offset} to dead-letter topic ${dlq}: ${poison.errorMessage} (topic ${input})`,
      );
    }

    // Both keep running.
    for (const instance of instances) {
      expect(instance.process.exitCode).toBeNull();
      expect((await instance.request('/health/ready')).status).toBe(200);
    }

    recordFigures('poison-input', {
      validEvents: VALID_EVENTS,
      poisonSent: cases.length,
      poisonCases: Object.fromEntries(cases.map((c: PoisonCase) => [c.name, c.outcome])),
      deserializationSkipped: {
        withDeadLetterTopic: dlqMetrics.skippedDeserialization,
        logAndContinue: logMetrics.skippedDeserialization,
      },
      deadLettered: dlqMetrics.deadLettered,
      deadLetterRecordsRead: letters.length,
      processed: {
        withDeadLetterTopic: dlqMetrics.processed,
        logAndContinue: logMetrics.processed,
      },
      usersExact: truth.size,
      wallSeconds: (Date.now() - wallStart) / 1000,
    });
  });
  it('skips the records the aggregator throws on (1 in 1,000), dead-letters exactly them, loses nothing else', async () => {
    const wallStart = Date.now();
    const input = await ctx.createTopic(ctx.topicName('refused'), PARTITIONS);
    const guarantees = ['exactly_once_v2', 'at_least_once'] as const;
    const apps: { guarantee: string; dlq: string; instance: OrderStatsInstance }[] = [];
    for (const guarantee of guarantees) {
      const dlq = await ctx.createTopic(ctx.topicName(`refused-dlq-${guarantee}`), 1);
      const dir = mkdtempSync(join(tmpdir(), 'refused-state-'));
      dirs.push(dir);
      const instance = await OrderStatsInstance.start({
        KAFKA_BROKERS: brokers().join(','),
        APPLICATION_ID: `${ctx.applicationId}-refused-${guarantee === 'at_least_once' ? 'alos' : 'eos'}`,
        INPUT_TOPIC: input,
        PROCESSING_GUARANTEE: guarantee,
        DEAD_LETTER_TOPIC: dlq,
        COMMIT_INTERVAL_MS: '200',
        STATE_DIR: dir,
      });
      instances.push(instance);
      apps.push({ guarantee, dlq, instance });
    }
    await waitFor(
      async () =>
        (await Promise.all(apps.map((a) => a.instance.request('/health/ready')))).every(
          readyAndRunning,
        ),
      180_000,
      'both applications ready',
    );
    const producer = ctx.kafka.producer();
    await producer.connect();
    const { truth, refused } = await sendWithRefusedAmounts(
      producer,
      input,
      AGGREGATED_EVENTS,
      USERS,
    );
    await producer.disconnect();
    expect(refused).toHaveLength(AGGREGATED_EVENTS / 1_000);

    const figures: Record<string, unknown> = {};
    for (const { guarantee, dlq, instance } of apps) {
      const metrics = async () =>
        ((await instance.request('/streams/metadata')).body as { metrics: Metrics }).metrics;
      await waitFor(
        async () => (await metrics()).processed >= AGGREGATED_EVENTS,
        180_000,
        `every record processed (${guarantee})`,
      );
      // Nothing else lost: every user exact, without the refused amounts.
      for (const [user, t] of [...truth].sort()) {
        const r = await instance.request(`/stats/${user}`);
        expect({ user, status: r.status, body: r.body }).toEqual({
          user,
          status: 200,
          body: { count: t.count, sum: t.cents / 100 } satisfies Stats,
        });
      }
      const counted = await metrics();
      expect(counted).toMatchObject({
        processed: AGGREGATED_EVENTS,
        skippedProcessing: refused.length,
        deadLettered: refused.length,
      });
      const scrape = (await instance.request('/metrics')).body as string;
      const reason = 'reason="processing_error"';
      expect(scrapedSum(scrape, 'kafka_streams_stream_task_dropped_records_total', reason)).toBe(
        refused.length,
      );
      expect(
        scrapedSum(scrape, 'kafka_streams_stream_task_dead_letter_records_total', reason),
      ).toBe(refused.length);

      // The dead-letter topic holds exactly the refused records, bytes and origin unchanged.
      const letters = await readDeadLetters(ctx.kafka, dlq, refused.length);
      const byOffset = (l: { headers: Record<string, string> }) =>
        Number(l.headers['__streams.errors.offset']);
      expect(
        letters
          .sort((a, b) => byOffset(a) - byOffset(b))
          .map(({ key, value, headers }) => {
            const { '__streams.errors.stacktrace': stack, ...rest } = headers;
            expect(stack.startsWith(`RangeError: ${rest['__streams.errors.message']}\n`)).toBe(
              true,
            );
            return { key: key?.toString(), value: value?.toString(), headers: rest };
          }),
      ).toEqual(
        [...refused]
          .sort((a, b) => a.offset - b.offset)
          .map((r) => ({
            key: r.key,
            value: r.value,
            headers: {
              '__streams.errors.exception': 'RangeError',
              '__streams.errors.message': r.message,
              '__streams.errors.topic': input,
              '__streams.errors.partition': String(r.partition),
              '__streams.errors.offset': String(r.offset),
            },
          })),
      );
      for (const r of refused) {
        expect(instance.output).toContain(
          `failed on ${input}-${r.partition}@${r.offset}: ${r.message} (processing error; handler: log and continue)`,
        );
      }
      // It keeps running.
      expect(instance.process.exitCode).toBeNull();
      expect((await instance.request('/health/ready')).status).toBe(200);
      figures[guarantee] = {
        processed: counted.processed,
        skippedProcessing: counted.skippedProcessing,
        deadLettered: counted.deadLettered,
        deadLetterRecordsRead: letters.length,
      };
    }
    recordFigures('poison-input-processing', {
      events: AGGREGATED_EVENTS,
      refusedSent: refused.length,
      ...figures,
      usersExact: truth.size,
      wallSeconds: (Date.now() - wallStart) / 1000,
    });
  });
});
