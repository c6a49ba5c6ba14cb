import { rmSync } from 'node:fs';
import { HTTP_PLATFORMS } from '../support/http-platforms';
import { brokers, KafkaTestContext } from '../support/kafka-test-context';
import { waitFor } from '../cluster/cluster-harness';
import { OrderStatsInstance } from '../../tools/instances/order-stats-instance';
import { readyAndRunning } from '../support/health';

interface Stats {
  count: number;
  sum: number;
}

/**
 * The example application's contract (DESIGN.md), end to end with two instances on the real
 * broker: every endpoint, status code and header, exact values against the events' truth, and
 * bad input (malformed events skipped and counted, unknown users, bad queries, over-long keys).
 */
describe.each(HTTP_PLATFORMS)('order-stats: the contract end to end, on %s', (platform) => {
  const ctx = new KafkaTestContext();
  const dirs: string[] = [];
  const instances: OrderStatsInstance[] = [];
  afterAll(async () => {
    await Promise.all(instances.map((i) => i.stop()));
    await ctx.cleanup();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('answers every endpoint from any instance with exact values and the contract headers', async () => {
    const input = await ctx.createTopic(ctx.topicName('labs-events'), 6);
    const now = Date.now();
    const users = Array.from({ length: 20 }, (_, i) => `user-${String(i).padStart(3, '0')}`);
    const events = Array.from({ length: 2000 }, (_, i) => ({
      userId: users[i % users.length],
      amount: ((i % 13) + 1) * 0.25,
      timestamp: now - 60_000 + (i % 50),
    }));
    const truth = new Map<string, Stats>();
    for (const e of events) {
      const t = truth.get(e.userId) ?? { count: 0, sum: 0 };
      truth.set(e.userId, { count: t.count + 1, sum: t.sum + e.amount });
    }
    const env = {
      HTTP_PLATFORM: platform,
      KAFKA_BROKERS: brokers().join(','),
      APPLICATION_ID: ctx.applicationId,
      INPUT_TOPIC: input,
      NUM_STANDBY_REPLICAS: '1',
      COMMIT_INTERVAL_MS: '200',
    };
    instances.push(...(await OrderStatsInstance.startMany(2, env, dirs)));
    const [a, b] = instances;
    await waitFor(
      async () =>
        (await Promise.all(instances.map((i) => i.request('/health/ready')))).every(
          readyAndRunning,
        ),
      120_000,
      'both instances ready',
    );
    // Produce once both run and the group is stable, so per-task metrics stay where they are.
    const producer = ctx.kafka.producer();
    await producer.connect();
    await producer.send({
      topic: input,
      messages: [
        ...events.map((e) => ({
          key: e.userId,
          value: JSON.stringify({ userId: e.userId, amount: e.amount }),
          timestamp: String(e.timestamp),
        })),
        // Malformed: not JSON, wrong types, a number as a string.
        { key: 'user-000', value: '{not json' },
        { key: 'user-001', value: JSON.stringify({ userId: 42, amount: 'x' }) },
        { key: 'user-002', value: JSON.stringify({ userId: 'user-002', amount: '5' }) },
      ],
    });
    await producer.disconnect();

    const metadata = async () =>
      (await a.request('/streams/metadata')).body as {
        instances: { host: string }[];
        metrics: { processed: number; skippedDeserialization: number };
      };
    await waitFor(
      async () => {
        const [ma, mb] = await Promise.all([a, b].map((i) => i.request('/streams/metadata')));
        const sum = (r: { body: unknown }) =>
          (r.body as { metrics: { processed: number } }).metrics.processed;
        return sum(ma) + sum(mb) === events.length;
      },
      60_000,
      'every event processed',
    );
    expect((await metadata()).instances.map((i) => i.host).sort()).toEqual(
      [a.endpoint, b.endpoint].sort(),
    );

    // GET /stats/:userId from both instances: identical, exact, X-Served-By the owner.
    const servedBy = new Set<string>();
    const servedByOf = new Map<string, string>();
    for (const user of users) {
      for (const instance of instances) {
        const r = await instance.request(`/stats/${user}`);
        expect(r.status).toBe(200);
        expect(r.body).toEqual(truth.get(user));
        const by = r.headers.get('x-served-by');
        expect([a.endpoint, b.endpoint]).toContain(by);
        servedBy.add(by!);
        servedByOf.set(user, by!);
        expect(r.headers.get('x-stale')).toBeNull();
      }
    }
    expect(servedBy.size).toBe(2);

    // GET /stats/range: the whole cluster, sorted by key.
    const range = await b.request('/stats/range?from=user-005&to=user-014');
    expect(range.status).toBe(200);
    expect(range.headers.get('x-served-by')).toBe(b.endpoint);
    expect(range.body).toEqual(
      users.slice(5, 15).map((userId) => ({ userId, ...truth.get(userId)! })),
    );

    // GET /windowed/:userId: one 5-minute window holding all of the user's events.
    const start = Math.floor((now - 60_000) / 300_000) * 300_000;
    const lastStart = Math.floor((now - 60_000 + 49) / 300_000) * 300_000;
    const windowed = await a.request(`/windowed/user-003?from=${start - 300_000}&to=${now}`);
    expect(windowed.status).toBe(200);
    const windows = windowed.body as { start: number; end: number; count: number }[];
    expect(windows.reduce((n, w) => n + w.count, 0)).toBe(truth.get('user-003')!.count);
    expect(windows.map((w) => w.start)).toEqual(start === lastStart ? [start] : [start, lastStart]);
    for (const w of windows) expect(w.end).toBe(w.start + 300_000);

    // Malformed events were skipped and counted; the application kept running.
    const skipped = await Promise.all([a, b].map((i) => i.request('/streams/metadata')));
    expect(
      skipped.reduce(
        (n, r) =>
          n +
          (r.body as { metrics: { skippedDeserialization: number } }).metrics
            .skippedDeserialization,
        0,
      ),
    ).toBe(3);
    const scrape = await a.request('/metrics');
    expect(scrape.status).toBe(200);
    expect(String(scrape.body)).toMatch(/skipped_deserialization_records/);
    // Consumer lag per input partition, all processed: 0.
    const lagLines = String(scrape.body)
      .split('\n')
      .filter((l) => l.startsWith('kafka_streams_input_lag_records{'));
    expect(lagLines.length).toBeGreaterThan(0);
    for (const line of lagLines) expect(line).toMatch(/ 0$/);

    // Bad input: 404 unknown user, 400 for bad queries and over-long keys, never a 500.
    expect((await a.request('/stats/nobody-here')).status).toBe(404);
    for (const path of [
      '/stats/range?from=m&to=a',
      '/stats/range?from=a',
      '/stats/range',
      '/windowed/user-001?from=abc',
      '/windowed/user-001?from=200&to=100',
      `/stats/${'x'.repeat(300)}`,
      `/windowed/${'y'.repeat(300)}`,
    ]) {
      const r = await a.request(path);
      expect({ path, status: r.status }).toEqual({ path, status: 400 });
      expect(JSON.stringify(r.body)).toMatch(/message/);
    }

    // Health: live and ready.
    expect((await a.request('/health/live')).status).toBe(200);
    expect((await b.request('/health/ready')).status).toBe(200);

    // Stop B: while A takes B's partitions over, every answer through A is exact from A, a
    // marked standby answer (never newer than the truth), or 503 with Retry-After; then exact.
    const owned = users.filter((u) => servedByOf.get(u) === b.endpoint);
    expect(owned.length).toBeGreaterThan(0);
    await b.stop('SIGTERM');
    const seen = new Set<string>();
    const deadline = Date.now() + 60_000;
    let settled = false;
    while (!settled && Date.now() < deadline) {
      settled = true;
      for (const user of owned) {
        const r = await a.request(`/stats/${user}`);
        if (r.status === 503) {
          expect(r.headers.get('retry-after')).toMatch(/^\d+$/);
          seen.add('503');
          settled = false;
        } else {
          expect(r.status).toBe(200);
          const body = r.body as Stats;
          if (r.headers.get('x-stale') === 'true') {
            expect(Number(r.headers.get('x-lag'))).toBeGreaterThanOrEqual(0);
            expect(body.count).toBeLessThanOrEqual(truth.get(user)!.count);
            seen.add('stale');
            settled = false;
          } else {
            expect(r.headers.get('x-served-by')).toBe(a.endpoint);
            expect(body).toEqual(truth.get(user));
          }
        }
      }
      if (!settled) await new Promise((r) => setTimeout(r, 100));
    }
    expect(settled).toBe(true);
    // The takeover was seen: B's keys were not answered as if nothing had happened (right
    // after B leaves, A still names it the owner until its rebalance, so the first answers are
    // 503s or A's marked standby copy), and then every answer was exact from A.
    expect([...seen].filter((kind) => kind !== '503' && kind !== 'stale')).toEqual([]);
    expect(seen.size).toBeGreaterThan(0);
    for (const user of users)
      expect((await a.request(`/stats/${user}`)).body).toEqual(truth.get(user));
  });
});
