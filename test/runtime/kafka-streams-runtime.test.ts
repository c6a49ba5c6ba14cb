import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KafkaStreams, KafkaStreamsState } from '@nest-streams/streams';
import { brokers, KafkaTestContext } from '../support/kafka-test-context';
import { storeContents } from '../support/store-contents';
import { statsTopology, type OrderStats } from './stats-topology';
import { streamsClient } from '../support/streams-client';

const quiet = {
  info: () => undefined,
  warn: (m: string) => (process.env.DEBUG_STREAMS ? console.warn(m) : undefined),
};

async function waitFor(
  condition: () => boolean | Promise<boolean>,
  timeoutMs = 60_000,
  what = 'condition',
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function truthOf(events: { userId: string; amount: number }[]): Map<string, OrderStats> {
  const truth = new Map<string, OrderStats>();
  for (const e of events) {
    const t = truth.get(e.userId) ?? { count: 0, sum: 0 };
    truth.set(e.userId, { count: t.count + 1, sum: t.sum + e.amount });
  }
  return truth;
}

function readAll(streams: KafkaStreams): Map<string, OrderStats> {
  return storeContents<OrderStats>(streams, 'stats-store');
}

describe('KafkaStreams runtime against the real broker', () => {
  const ctx = new KafkaTestContext();
  const stateDir = mkdtempSync(join(tmpdir(), 'streams-runtime-'));
  afterAll(async () => {
    await ctx.cleanup();
    rmSync(stateDir, { recursive: true, force: true });
  });

  it('aggregates count and sum per user into a RocksDB store with a changelog, and restores it after a restart', async () => {
    const input = await ctx.createTopic(ctx.topicName('events'), 3);
    const events = Array.from({ length: 3000 }, (_, i) => ({
      userId: `user-${i % 50}`,
      amount: (i % 7) + 0.5,
    }));
    const producer = ctx.kafka.producer();
    await producer.connect();
    await producer.send({
      topic: input,
      messages: events.map((e, i) => ({
        key: e.userId,
        value: JSON.stringify(e),
        timestamp: String(Date.now() - 60_000 + i),
      })),
    });
    await producer.disconnect();
    const truth = truthOf(events);

    const config = {
      applicationId: ctx.applicationId,
      bootstrapServers: brokers(),
      kafkaClient: streamsClient(),
      stateDir,
      commitIntervalMs: 200,
    };
    const states: string[] = [];
    const streams = new KafkaStreams(statsTopology(input), config, { logger: quiet });
    streams.onStateChange((s) => states.push(s));
    // The store's partitions are known once start() prepared the topics.
    expect(streams.storePartitionCount('stats-store')).toBeUndefined();
    await streams.start();
    expect(streams.storePartitionCount('stats-store')).toBe(3);
    expect(streams.storePartitionCount('no-such-store')).toBeUndefined();
    await waitFor(
      () => streams.metrics().processed === events.length,
      60_000,
      'all events processed',
    );
    await waitFor(() => streams.state === KafkaStreamsState.RUNNING, 10_000, 'RUNNING');
    await waitFor(() => streams.metrics().commits > 0, 10_000, 'a commit');
    // Commit latency: the time commits took is measured and summed.
    expect(streams.metrics().commitTimeMs).toBeGreaterThan(0);
    expect(readAll(streams)).toEqual(truth);
    // Consumer lag: every input partition processed to its end.
    const lags = await streams.inputLags();
    expect(lags.map((l) => [l.partition, l.lag])).toEqual([
      [0, 0],
      [1, 0],
      [2, 0],
    ]);
    expect(lags.reduce((n, l) => n + l.endOffset, 0)).toBe(events.length);
    await streams.close();
    expect(states).toEqual(['REBALANCING', 'RUNNING', 'PENDING_SHUTDOWN', 'NOT_RUNNING']);
    expect(streams.state).toBe(KafkaStreamsState.NOT_RUNNING);

    // The changelog holds each user's latest value (compacted topic, caching collapsed updates).
    const admin = await ctx.admin();
    const changelog = `${ctx.applicationId}-stats-store-changelog`;
    const offsets = await admin.fetchTopicOffsets(changelog);
    expect(offsets).toHaveLength(3);
    const changelogRecords = offsets.reduce((n, p) => n + Number(p.high), 0);
    expect(changelogRecords).toBeGreaterThanOrEqual(truth.size);
    expect(changelogRecords).toBeLessThan(events.length);
    const committed = await admin.fetchOffsets({ groupId: ctx.applicationId, topics: [input] });
    expect(committed[0].partitions.reduce((n, p) => n + Number(p.offset), 0)).toBe(events.length);

    // Restart on an empty state dir: the store is rebuilt from the changelog.
    rmSync(join(stateDir, ctx.applicationId), { recursive: true, force: true });
    let restored = 0;
    const again = new KafkaStreams(statsTopology(input), config, { logger: quiet });
    again.setGlobalStateRestoreListener({
      onRestoreEnd: (_tp, _store, total) => (restored += total),
    });
    await again.start();
    await waitFor(() => again.state === KafkaStreamsState.RUNNING, 60_000, 'RUNNING after restore');
    expect(restored).toBe(changelogRecords);
    expect(readAll(again)).toEqual(truth);
    await again.close();
  });
});
