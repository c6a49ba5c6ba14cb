import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  KafkaStreams,
  KafkaStreamsState,
  QueryableStoreTypes,
  StoreQueryParameters,
} from '@nest-streams/streams';
import { ConfigResourceTypes } from 'kafkajs';
import { brokers, KafkaTestContext } from '../support/kafka-test-context';
import { dslTopology } from './dsl-topology';
import type { OrderStats } from './stats-topology';
import { streamsClient } from '../support/streams-client';

const quiet = { info: () => undefined, warn: () => undefined };
// Six hours ago, on a 5-minute boundary (brokers refuse timestamps more than 1 h ahead).
const BASE = Math.floor((Date.now() - 6 * 3_600_000) / 300_000) * 300_000;

async function waitFor(
  condition: () => boolean | Promise<boolean>,
  timeoutMs: number,
  what: string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * The source text's aggregations written with the DSL, on the real broker: exact final values
 * in both stores, caching on and off give the same state, and caching emits fewer updates.
 */
describe('DSL aggregations against the broker', () => {
  const ctx = new KafkaTestContext();
  const stateDir = mkdtempSync(join(tmpdir(), 'dsl-'));
  afterAll(async () => {
    await ctx.cleanup();
    rmSync(stateDir, { recursive: true, force: true });
  });

  // 12 users; event i at BASE + i * 10 s: windows of 5 minutes hold 30 events each.
  const events = Array.from({ length: 1200 }, (_, i) => ({
    userId: `user-${i % 12}`,
    amount: (i % 4) + 1,
    timestamp: BASE + i * 10_000,
  }));
  const truth = new Map<string, OrderStats>();
  const windows = new Map<string, Map<number, number>>();
  for (const e of events) {
    const t = truth.get(e.userId) ?? { count: 0, sum: 0 };
    truth.set(e.userId, { count: t.count + 1, sum: t.sum + e.amount });
    const start = e.timestamp - (e.timestamp % 300_000);
    const perUser = windows.get(e.userId) ?? new Map<number, number>();
    perUser.set(start, (perUser.get(start) ?? 0) + 1);
    windows.set(e.userId, perUser);
  }

  const run = async (caching: boolean) => {
    const input = await ctx.createTopic(ctx.topicName(`dsl-in-${caching}`), 3);
    const output = await ctx.createTopic(ctx.topicName(`dsl-out-${caching}`), 3);
    const producer = ctx.kafka.producer();
    await producer.connect();
    await producer.send({
      topic: input,
      messages: events.map((e) => ({
        key: e.userId,
        value: JSON.stringify({ userId: e.userId, amount: e.amount }),
        timestamp: String(e.timestamp),
      })),
    });
    await producer.disconnect();
    const streams = new KafkaStreams(
      dslTopology(input, output, caching),
      {
        applicationId: `${ctx.applicationId}-${caching ? 'cached' : 'uncached'}`,
        bootstrapServers: brokers(),
        kafkaClient: streamsClient(),
        stateDir,
        commitIntervalMs: 1000,
      },
      { logger: quiet },
    );
    await streams.start();
    await waitFor(
      () =>
        streams.metrics().processed === events.length &&
        streams.state === KafkaStreamsState.RUNNING,
      60_000,
      'processed',
    );
    const windowStore = streams.store(
      StoreQueryParameters.fromNameAndType(
        'windowed-count-store',
        QueryableStoreTypes.windowStore<string, number>(),
      ),
    );
    const windowView = new Map<string, Map<number, number>>();
    for (const user of truth.keys()) {
      const fetched = await windowStore.fetchWindowsAsync(user, BASE, BASE + 12_000_000);
      windowView.set(user, new Map(fetched.map((kv) => [kv.key, kv.value])));
    }
    await streams.close();
    // Restart: the stats store is restored (from the changelog tail after the checkpoint).
    const again = new KafkaStreams(
      dslTopology(input, output, caching),
      {
        applicationId: `${ctx.applicationId}-${caching ? 'cached' : 'uncached'}`,
        bootstrapServers: brokers(),
        kafkaClient: streamsClient(),
        stateDir,
      },
      { logger: quiet },
    );
    await again.start();
    await waitFor(() => again.state === KafkaStreamsState.RUNNING, 60_000, 'RUNNING');
    const stats = again.store(
      StoreQueryParameters.fromNameAndType(
        'stats-store',
        QueryableStoreTypes.keyValueStore<string, OrderStats>(),
      ),
    );
    const statsView = new Map([...stats.all()].map((kv) => [kv.key, kv.value]));
    await again.close();
    const admin = await ctx.admin();
    const outputCount = (await admin.fetchTopicOffsets(output)).reduce(
      (n, p) => n + Number(p.high),
      0,
    );
    const appId = `${ctx.applicationId}-${caching ? 'cached' : 'uncached'}`;
    const described = await admin.describeConfigs({
      includeSynonyms: false,
      resources: ['stats-store', 'windowed-count-store'].map((store) => ({
        type: ConfigResourceTypes.TOPIC,
        name: `${appId}-${store}-changelog`,
        configNames: ['cleanup.policy', 'retention.ms'],
      })),
    });
    const changelogConfigs = ['stats-store', 'windowed-count-store'].map((store) => {
      const resource = described.resources.find(
        (r) => r.resourceName === `${appId}-${store}-changelog`,
      )!;
      return Object.fromEntries(resource.configEntries.map((e) => [e.configName, e.configValue]));
    });
    // Window-store updates logged: one per record without caching, one per window and flush with.
    const windowChangelogRecords = (
      await admin.fetchTopicOffsets(`${appId}-windowed-count-store-changelog`)
    ).reduce((n, p) => n + Number(p.high), 0);
    return { statsView, windowView, outputCount, changelogConfigs, windowChangelogRecords };
  };

  it('computes exact count/sum and windowed counts; caching only reduces emitted updates', async () => {
    const cached = await run(true);
    const uncached = await run(false);
    expect(cached.statsView).toEqual(truth);
    expect(uncached.statsView).toEqual(truth);
    // Retention is 1 hour: a window is live while start >= streamTime - retention + 1 (Kafka's rule).
    const streamTime = events[events.length - 1].timestamp;
    const live = new Map(
      [...windows].map(([user, perUser]) => [
        user,
        new Map([...perUser].filter(([start]) => start >= streamTime - 3_600_000 + 1)),
      ]),
    );
    expect(cached.windowView).toEqual(live);
    expect(uncached.windowView).toEqual(live);
    expect(uncached.outputCount).toBe(events.length);
    expect(cached.outputCount).toBeLessThan(events.length);
    expect(cached.outputCount).toBeGreaterThanOrEqual(truth.size);
    // The window store's cache collapses a window's updates between flushes.
    const userWindows = [...windows.values()].reduce((n, perUser) => n + perUser.size, 0);
    expect(uncached.windowChangelogRecords).toBe(events.length);
    expect(cached.windowChangelogRecords).toBeLessThan(events.length);
    expect(cached.windowChangelogRecords).toBeGreaterThanOrEqual(userWindows);
    // Changelogs as Kafka Streams configures them: compacted; windowed ones also deleted after
    // the store's retention + 1 day.
    expect(cached.changelogConfigs[0]['cleanup.policy']).toBe('compact');
    expect(cached.changelogConfigs[1]).toEqual({
      'cleanup.policy': 'compact,delete',
      'retention.ms': String(3_600_000 + 86_400_000),
    });
  });
});
