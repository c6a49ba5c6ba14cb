/**
 * End-to-end: three Nest application processes (the order-stats contract, built with
 * StreamsModule's decorators) on the real broker. Every key through every instance gives the
 * same exact answer with the owner's X-Served-By; a scatter-gather range is the union of every
 * partition; readiness goes down during a rebalance and up after; the metrics endpoint scrapes
 * and its routing counters move.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DefaultStreamPartitioner } from '../../libs/streams/src/cluster/default-stream-partitioner';
import { freePort } from '../../tools/kafka/free-port';
import { brokers, KafkaTestContext } from '../support/kafka-test-context';

const APP = join(__dirname, 'fixtures', 'order-stats-app.ts');
const PARTITIONS = 6;
const USERS = 45;

interface OrderStats {
  count: number;
  sum: number;
}

interface Answer<T> {
  status: number;
  headers: Headers;
  body: T;
}

/** One instance of the application, a separate process. */
class AppInstance {
  output = '';
  private constructor(
    readonly port: number,
    readonly queryPort: number,
    readonly process: ChildProcess,
  ) {
    process.stdout!.on('data', (d: Buffer) => (this.output += d.toString()));
    process.stderr!.on('data', (d: Buffer) => (this.output += d.toString()));
  }

  static async start(env: Record<string, string>): Promise<AppInstance> {
    const port = await freePort();
    const queryPort = await freePort();
    const child = spawn(process.execPath, ['--import', 'tsx', APP], {
      env: { ...process.env, ...env, PORT: String(port), QUERY_PORT: String(queryPort) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return new AppInstance(port, queryPort, child);
  }

  get endpoint(): string {
    return `127.0.0.1:${this.port}`;
  }

  get alive(): boolean {
    return this.process.exitCode === null && this.process.signalCode === null;
  }

  async get<T = unknown>(path: string): Promise<Answer<T>> {
    const response = await fetch(`http://${this.endpoint}${path}`, {
      signal: AbortSignal.timeout(10_000),
    });
    const text = await response.text();
    const type = response.headers.get('content-type') ?? '';
    return {
      status: response.status,
      headers: response.headers,
      body: (type.includes('json') && text ? JSON.parse(text) : text) as T,
    };
  }

  async ready(): Promise<boolean> {
    return (await this.get('/health/ready')).status === 200;
  }

  stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    return new Promise((resolve) => {
      if (!this.alive) return resolve();
      const timer = setTimeout(() => this.process.kill('SIGKILL'), 20_000);
      this.process.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      this.process.kill(signal);
    });
  }
}

async function waitFor(
  condition: () => boolean | Promise<boolean>,
  timeoutMs: number,
  what: string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      if (await condition()) return;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

function routingCount(metrics: string, outcome: string): number {
  const match = new RegExp(
    `kafka_streams_routing_requests_total\\{outcome="${outcome}"\\} (\\d+)`,
  ).exec(metrics);
  return match ? Number(match[1]) : NaN;
}

describe('StreamsModule end-to-end: three Nest instances on the real broker', () => {
  const ctx = new KafkaTestContext();
  const dirs: string[] = [];
  const instances: AppInstance[] = [];
  const truth: Record<string, OrderStats> = {};
  const users = Array.from({ length: USERS }, (_, i) => `user-${String(i).padStart(2, '0')}`);
  let env: Record<string, string>;

  const stateDir = (): string => {
    const dir = mkdtempSync(join(tmpdir(), 'nest-e2e-'));
    dirs.push(dir);
    return dir;
  };
  const diagnostics = () =>
    instances.map((i) => `--- ${i.endpoint}\n${i.output.slice(-3000)}`).join('\n');

  beforeAll(async () => {
    const input = await ctx.createTopic(ctx.topicName('orders'), PARTITIONS);
    env = {
      APPLICATION_ID: ctx.applicationId,
      INPUT_TOPIC: input,
      KAFKA_BROKERS: brokers().join(','),
      NUM_STANDBY_REPLICAS: '1',
    };
    const events = Array.from({ length: 1800 }, (_, i) => ({
      userId: users[i % USERS],
      amount: (i % 7) + 1,
    }));
    for (const e of events) {
      const t = (truth[e.userId] ??= { count: 0, sum: 0 });
      t.count++;
      t.sum += e.amount;
    }
    const producer = ctx.kafka.producer();
    await producer.connect();
    await producer.send({
      topic: input,
      messages: events.map((e) => ({ key: e.userId, value: JSON.stringify(e) })),
    });
    await producer.disconnect();

    for (let i = 0; i < 3; i++)
      instances.push(await AppInstance.start({ ...env, STATE_DIR: stateDir() }));
    await waitFor(
      async () => (await Promise.all(instances.map((i) => i.ready()))).every(Boolean),
      120_000,
      'three ready instances',
    ).catch((error: unknown) => {
      throw new Error(`${String(error)}\n${diagnostics()}`);
    });
    // Every event aggregated (the last user's count is exact everywhere).
    await waitFor(
      async () => {
        const answers = await Promise.all(
          users.map((u) => instances[0].get<OrderStats>(`/stats/${u}`)),
        );
        return answers.every((a, i) => a.status === 200 && a.body.count === truth[users[i]].count);
      },
      60_000,
      'every event aggregated',
    ).catch((error: unknown) => {
      throw new Error(`${String(error)}\n${diagnostics()}`);
    });
  }, 240_000);

  afterAll(async () => {
    await Promise.all(instances.splice(0).map((i) => i.stop()));
    await ctx.cleanup();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }, 120_000);

  it('answers every key identically and exactly through every instance, served by its owner', async () => {
    const partitioner = new DefaultStreamPartitioner();
    const metadata = (
      await instances[0].get<{ instances: { host: string; activeTasks: string[] }[] }>(
        '/streams/metadata',
      )
    ).body;
    expect(metadata.instances.map((m) => m.host).sort()).toEqual(
      instances.map((i) => i.endpoint).sort(),
    );
    const ownerOf = (user: string): string => {
      const partition = partitioner.partition(Buffer.from(user, 'utf8'), PARTITIONS);
      const owner = metadata.instances.find((m) => m.activeTasks.includes(`0_${partition}`));
      return owner!.host;
    };
    const servedBy = new Set<string>();
    for (const user of users) {
      const owner = ownerOf(user);
      for (const instance of instances) {
        const answer = await instance.get<OrderStats>(`/stats/${user}`);
        expect({ user, via: instance.endpoint, status: answer.status, body: answer.body }).toEqual({
          user,
          via: instance.endpoint,
          status: 200,
          body: truth[user],
        });
        expect(answer.headers.get('x-served-by')).toBe(owner);
        expect(answer.headers.get('x-stale')).toBeNull();
        servedBy.add(answer.headers.get('x-served-by')!);

        // The same read over the instance-to-instance query transport.
        const viaQuery = await instance.get<OrderStats>(`/iq/stats/${user}`);
        expect(viaQuery.status).toBe(200);
        expect(viaQuery.body).toEqual(truth[user]);
      }
    }
    // Keys spread over all three owners.
    expect(servedBy.size).toBe(3);
    // An unknown user is a 404 from its owner, through any instance.
    for (const instance of instances) {
      const missing = await instance.get('/stats/nobody-at-all');
      expect(missing.status).toBe(404);
    }
  });

  it('serves windowed counts of a key from every instance', async () => {
    const user = users[3];
    const answers = await Promise.all(
      instances.map((i) => i.get<{ count: number }[]>(`/windowed/${user}?from=0&to=${Date.now()}`)),
    );
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(answer.body.reduce((n, w) => n + w.count, 0)).toBe(truth[user].count);
    }
  });

  it('scatter-gathers a range across every instance: the union of the partitions, sorted', async () => {
    const expected = users.map((userId) => ({ userId, ...truth[userId] }));
    for (const instance of instances) {
      const all = await instance.get<{ userId: string }[]>('/stats/range');
      expect(all.status).toBe(200);
      expect(all.body).toEqual(expected);
      const part = await instance.get<{ userId: string }[]>('/stats/range?from=user-10&to=user-19');
      expect(part.body).toEqual(
        expected.filter((e) => e.userId >= 'user-10' && e.userId <= 'user-19'),
      );
    }
  });

  it('scrapes metrics whose routing counters move', async () => {
    const before = await Promise.all(instances.map((i) => i.get<string>('/metrics')));
    for (const scrape of before) {
      expect(scrape.status).toBe(200);
      expect(scrape.body).toContain('kafka_streams_state{state="RUNNING"} 1');
      expect(scrape.body).toMatch(/kafka_streams_store_operations\{store="stats-store"/);
    }
    for (const user of users) await instances[0].get(`/stats/${user}`);
    const after = await instances[0].get<string>('/metrics');
    const local = routingCount(after.body, 'local') - routingCount(before[0].body, 'local');
    const forwarded =
      routingCount(after.body, 'forwarded') - routingCount(before[0].body, 'forwarded');
    expect(local + forwarded).toBe(users.length);
    expect(local).toBeGreaterThan(0);
    expect(forwarded).toBeGreaterThan(0);
  });

  it('goes not-ready during a rebalance and ready again after, staying live', async () => {
    const watched = instances[0];
    const seen: number[] = [];
    const live: number[] = [];
    let watching = true;
    const watcher = (async () => {
      while (watching) {
        const [ready, alive] = await Promise.all([
          watched.get('/health/ready').catch(() => ({ status: 0 })),
          watched.get('/health/live').catch(() => ({ status: 0 })),
        ]);
        seen.push(ready.status);
        live.push(alive.status);
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    // A fourth instance joins: the group rebalances.
    instances.push(await AppInstance.start({ ...env, STATE_DIR: stateDir() }));
    try {
      await waitFor(() => seen.includes(503), 60_000, 'readiness down during the rebalance');
      const downAt = seen.lastIndexOf(503);
      await waitFor(
        async () =>
          seen.length > downAt + 1 &&
          seen.at(-1) === 200 &&
          (await Promise.all(instances.map((i) => i.ready()))).every(Boolean),
        120_000,
        'every instance ready again',
      );
    } catch (error) {
      throw new Error(
        `${String(error)}; readiness seen ${JSON.stringify(seen.slice(-50))}\n${diagnostics()}`,
      );
    } finally {
      watching = false;
      await watcher;
    }
    expect(live.every((s) => s === 200)).toBe(true);
    const details = await watched.get<{ details: { streams: { rebalances: number } } }>(
      '/health/ready',
    );
    expect(details.body.details.streams.rebalances).toBeGreaterThanOrEqual(2);
    // Answers are still exact after the move.
    for (const user of users.slice(0, 10)) {
      const answer = await instances[3].get<OrderStats>(`/stats/${user}`);
      expect(answer.body).toEqual(truth[user]);
    }
  });
});
