import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  Consumed,
  Grouped,
  KafkaStreams,
  KafkaStreamsState,
  Materialized,
  Produced,
  Serdes,
  StreamsBuilder,
  TimeWindows,
  type StreamsMetric,
} from '@nest-streams/streams';
import { brokers, KafkaTestContext } from '../support/kafka-test-context';
import { streamsClient } from '../support/streams-client';
import { waitFor } from '../support/wait-for';

const IN_ORDER = 300;
const LATE = 7;
const NULL_KEYS = 3;
const TOTAL = IN_ORDER + LATE + NULL_KEYS;
const MINUTE = 60_000;

/** A windowed count (1-minute windows, no grace) and a copy of the input to an output topic. */
function topology(input: string, output: string) {
  const builder = new StreamsBuilder();
  const stream = builder.stream(input, Consumed.with(Serdes.String(), Serdes.String()));
  stream
    .groupByKey(Grouped.with(undefined, Serdes.String(), Serdes.String()))
    .windowedBy(TimeWindows.ofSizeWithNoGrace(MINUTE))
    .count(Materialized.as<string, number>('per-minute'));
  stream.to(output, Produced.with(Serdes.String(), Serdes.String()));
  return builder.build();
}

/**
 * Kafka Streams' metrics of a running client (`allMetrics()`, at DEBUG) against the broker,
 * where they are exact: one partition, 300 records a second apart, then 7 records for a window
 * closed long ago (late: dropped) and 3 with a null key (dropped by the count).
 */
describe('Kafka Streams metrics against the broker', () => {
  const ctx = new KafkaTestContext();
  const stateDir = mkdtempSync(join(tmpdir(), 'streams-metrics-'));
  let streams: KafkaStreams | undefined;
  afterAll(async () => {
    await streams?.close();
    await ctx.cleanup();
    rmSync(stateDir, { recursive: true, force: true });
  });

  it('reports dropped records by reason, records per node, thread and store figures exactly', async () => {
    const input = await ctx.createTopic(ctx.topicName('metrics-in'), 1);
    const output = await ctx.createTopic(ctx.topicName('metrics-out'), 1);
    const base = Date.now() - 60 * MINUTE;
    const messages = [
      ...Array.from({ length: IN_ORDER }, (_, i) => ({
        key: `user-${i % 5}`,
        value: `v${i}`,
        timestamp: String(base + i * 1_000),
      })),
      ...Array.from({ length: LATE }, (_, i) => ({
        key: `user-${i % 5}`,
        value: `late${i}`,
        timestamp: String(base + 1_000), // the first minute: closed 4 minutes of stream time ago
      })),
      ...Array.from({ length: NULL_KEYS }, (_, i) => ({
        key: null,
        value: `no-key${i}`,
        timestamp: String(base + IN_ORDER * 1_000),
      })),
    ];
    const producer = ctx.kafka.producer();
    await producer.connect();
    await producer.send({ topic: input, messages });
    await producer.disconnect();

    const client = new KafkaStreams(
      topology(input, output),
      {
        applicationId: ctx.applicationId,
        bootstrapServers: brokers(),
        kafkaClient: streamsClient(),
        stateDir,
        commitIntervalMs: 200,
        metricsRecordingLevel: 'DEBUG',
      },
      { logger: { info: () => undefined, warn: () => undefined } },
    );
    streams = client;
    const started = Date.now();
    await client.start();
    await waitFor(
      () => client.state === KafkaStreamsState.RUNNING && client.metrics().processed >= TOTAL,
      90_000,
      'every record processed',
    );
    await waitFor(() => client.metrics().commits > 0, 30_000, 'a commit');
    const metrics = client.allMetrics();
    const find = (group: string, name: string, tags: Record<string, string> = {}) =>
      metrics.filter(
        (m: StreamsMetric) =>
          m.group === group &&
          m.name === name &&
          Object.entries(tags).every(([k, v]) => m.tags[k] === v),
      );
    const value = (group: string, name: string, tags: Record<string, string> = {}) => {
      const found = find(group, name, tags);
      expect({ group, name, tags, series: found.length }).toEqual({ group, name, tags, series: 1 });
      return found[0].value;
    };

    // Dropped records, by reason: exactly the late ones and the null keys.
    const dropped = Object.fromEntries(
      find('stream-task-metrics', 'dropped-records-total', { 'task-id': '0_0' }).map((m) => [
        m.tags.reason,
        m.value,
      ]),
    );
    expect(dropped).toMatchObject({ late_record: LATE, null_key: NULL_KEYS, processing_error: 0 });
    expect(Object.values(dropped).reduce((a, b) => a + b, 0)).toBe(LATE + NULL_KEYS);

    // Records per processor node: every record entered the source, the count and the sink.
    const perNode = Object.fromEntries(
      find('stream-processor-node-metrics', 'process-total').map((m) => [
        m.tags['processor-node-id'],
        m.value,
      ]),
    );
    expect(perNode).toEqual({
      'KSTREAM-SOURCE-0000000000': TOTAL,
      'KSTREAM-AGGREGATE-0000000001': TOTAL,
      'KSTREAM-SINK-0000000002': TOTAL,
    });
    expect(value('stream-task-metrics', 'process-total', { 'task-id': '0_0' })).toBe(TOTAL);
    // The late ones: stream time (the last in-order record) minus the first minute's second.
    expect(value('stream-task-metrics', 'record-lateness-max')).toBe((IN_ORDER - 2) * 1_000);

    // End-to-end latency at the source: now minus timestamps an hour old.
    const e2e = (stat: string) =>
      value('stream-processor-node-metrics', `record-e2e-latency-${stat}`, {
        'processor-node-id': 'KSTREAM-SOURCE-0000000000',
      });
    const newest = base + IN_ORDER * 1_000;
    expect(e2e('min')).toBeGreaterThanOrEqual(started - newest);
    expect(e2e('max')).toBeGreaterThanOrEqual(started - base);
    expect(e2e('max')).toBeLessThanOrEqual(Date.now() - base);

    // The thread: the records, at least one commit and poll, one task created.
    const thread = { 'thread-id': `${ctx.applicationId}-StreamThread-1` };
    expect(value('stream-thread-metrics', 'process-total', thread)).toBe(TOTAL);
    expect(value('stream-thread-metrics', 'task-created-total', thread)).toBe(1);
    expect(value('stream-thread-metrics', 'commit-total', thread)).toBeGreaterThanOrEqual(1);
    expect(value('stream-thread-metrics', 'commit-latency-max', thread)).toBeGreaterThan(0);
    expect(value('stream-thread-metrics', 'poll-total', thread)).toBeGreaterThanOrEqual(1);
    expect(value('stream-metrics', 'alive-stream-threads')).toBe(1);
    expect(value('stream-metrics', 'failed-stream-threads')).toBe(0);
    // Restored nothing (a new application): nothing left to restore.
    expect(value('stream-task-metrics', 'restore-remaining-records-total')).toBe(0);

    // The window store on RocksDB, its figures summed over its segments; statistics at DEBUG.
    const store = { 'store-scope': 'rocksdb-window-state', 'store-id': 'per-minute' };
    expect(value('stream-state-metrics', 'estimate-num-keys', store)).toBeGreaterThan(0);
    expect(value('stream-state-metrics', 'bytes-written-total', store)).toBeGreaterThan(0);
    expect(value('stream-state-metrics', 'put-rate', store)).toBeGreaterThan(0);
    expect(client.state).toBe(KafkaStreamsState.RUNNING);
  });
});
