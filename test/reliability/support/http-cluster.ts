import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OrderStatsInstance } from '../../../tools/instances/order-stats-instance';
import { waitFor } from '../../cluster/cluster-harness';
import { brokers, KafkaTestContext } from '../../support/kafka-test-context';
import { readyAndRunning } from '../../support/health';

/** The order-stats tumbling window (5 minutes). */
export const WINDOW_MS = 300_000;

/** A user's exact totals, as produced. */
export interface UserStats {
  count: number;
  sum: number;
}

/** What an {@link HttpTestCluster} is started with. */
export interface HttpTestClusterOptions {
  /** How many users hold data (ids `user-000`...). */
  readonly users: number;
  /** How many events in total, spread round-robin over the users. */
  readonly events: number;
  /** Partitions of the input topic. */
  readonly partitions?: number;
  /** More environment for both instances (e.g. `FORWARDING_TIMEOUT_MS`). */
  readonly env?: Readonly<Record<string, string>>;
}

/**
 * Two order-stats processes (standby 1) on the real broker, holding exact, known data: the
 * HTTP scenarios of the reliability suite (fuzzing, load) run against it. Knows every user's
 * truth and owner (the instance named by `X-Served-By`). `stop()` kills both processes,
 * deletes the test's topics and the state directories.
 */
export class HttpTestCluster {
  readonly ctx = new KafkaTestContext();
  readonly instances: OrderStatsInstance[] = [];
  readonly truth = new Map<string, UserStats>();
  /** User id → its 5-minute windows (`start` → count), as the windowed store must hold them. */
  readonly windowsOf = new Map<string, Map<number, number>>();
  /** Each user's event amounts in the order produced (one partition per user: processed so). */
  private readonly amountsOf = new Map<string, number[]>();
  /** User id → `host:port` of the instance that owns it. */
  readonly ownerOf = new Map<string, string>();
  /** When the events were stamped (all within the minute before). */
  readonly producedAt = Date.now();
  private readonly dirs: string[] = [];
  /** The environment each instance was started with (its state directory included). */
  private readonly envs: Record<string, string>[] = [];

  constructor(private readonly options: HttpTestClusterOptions) {}

  /** Sorted user ids that hold data. */
  get users(): string[] {
    return [...this.truth.keys()].sort();
  }

  /** `host:port` of every instance (their `application.server`). */
  get endpoints(): string[] {
    return this.instances.map((i) => i.endpoint);
  }

  /** Starts both instances, produces the events and waits until all are processed. */
  async start(): Promise<void> {
    const input = await this.ctx.createTopic(
      this.ctx.topicName('http-events'),
      this.options.partitions ?? 6,
    );
    const env = {
      KAFKA_BROKERS: brokers().join(','),
      APPLICATION_ID: this.ctx.applicationId,
      INPUT_TOPIC: input,
      NUM_STANDBY_REPLICAS: '1',
      COMMIT_INTERVAL_MS: '200',
      ...this.options.env,
    };
    for (let i = 0; i < 2; i++) {
      const dir = mkdtempSync(join(tmpdir(), 'http-cluster-'));
      this.dirs.push(dir);
      this.envs.push({ ...env, STATE_DIR: dir });
      this.instances.push(await OrderStatsInstance.start(this.envs[i]));
    }
    await this.waitReady();

    const ids = Array.from(
      { length: this.options.users },
      (_, i) => `user-${String(i).padStart(3, '0')}`,
    );
    const messages = Array.from({ length: this.options.events }, (_, i) => {
      const userId = ids[i % ids.length];
      const amount = ((i % 17) + 1) * 0.5;
      const t = this.truth.get(userId) ?? { count: 0, sum: 0 };
      this.truth.set(userId, { count: t.count + 1, sum: t.sum + amount });
      this.amountsOf.set(userId, [...(this.amountsOf.get(userId) ?? []), amount]);
      const timestamp = this.producedAt - 60_000 + (i % 1000);
      const start = timestamp - (timestamp % WINDOW_MS);
      const windows = this.windowsOf.get(userId) ?? new Map<number, number>();
      windows.set(start, (windows.get(start) ?? 0) + 1);
      this.windowsOf.set(userId, windows);
      return {
        key: userId,
        value: JSON.stringify({ userId, amount }),
        timestamp: String(timestamp),
      };
    });
    const producer = this.ctx.kafka.producer();
    await producer.connect();
    await producer.send({ topic: input, messages });
    await producer.disconnect();

    await waitFor(
      async () => (await this.processed()) === this.options.events,
      120_000,
      'every event processed',
    );
    await this.waitReady();
    await this.learnOwners();
  }

  /**
   * The user's stats after its first `count` events, summed in the order the application
   * adds them (`undefined` for none, or for more events than the user has): what a copy that
   * is behind may hold.
   */
  statsAfter(userId: string, count: number): UserStats | undefined {
    const amounts = this.amountsOf.get(userId) ?? [];
    if (count < 1 || count > amounts.length) return undefined;
    return { count, sum: amounts.slice(0, count).reduce((sum, amount) => sum + amount, 0) };
  }

  /** Both instances answer `/health/ready` with 200 and name the same two instances. */
  async waitReady(timeoutMs = 120_000): Promise<void> {
    await waitFor(
      async () => {
        const ready = await Promise.all(this.instances.map((i) => i.request('/health/ready')));
        if (!ready.every(readyAndRunning)) return false;
        const metadata = await Promise.all(
          this.instances.map((i) => i.request('/streams/metadata')),
        );
        const expected = JSON.stringify([...this.endpoints].sort());
        return metadata.every(
          (m) =>
            JSON.stringify(
              (m.body as { instances: { host: string }[] }).instances.map((x) => x.host).sort(),
            ) === expected,
        );
      },
      timeoutMs,
      'both instances ready with the same metadata',
    );
  }

  /** Records processed by both instances together. */
  async processed(): Promise<number> {
    const all = await Promise.all(this.instances.map((i) => i.request('/streams/metadata')));
    return all.reduce(
      (n, r) => n + (r.body as { metrics: { processed: number } }).metrics.processed,
      0,
    );
  }

  /**
   * Asks every user from every instance: each answer must be 200 with the exact truth and the
   * same owner; throws otherwise. Returns how many answers were checked.
   */
  async checkAllUsersExact(): Promise<number> {
    let checked = 0;
    for (const user of this.users) {
      for (const instance of this.instances) {
        const r = await instance.request(`/stats/${user}`);
        const by = r.headers.get('x-served-by');
        const seen = { user, via: instance.endpoint, status: r.status, body: r.body, by };
        const want = {
          ...seen,
          status: 200,
          body: this.truth.get(user),
          by: this.ownerOf.get(user),
        };
        if (JSON.stringify(seen) !== JSON.stringify(want)) {
          throw new Error(
            `wrong answer: ${JSON.stringify(seen)}, expected ${JSON.stringify(want)}`,
          );
        }
        checked++;
      }
    }
    return checked;
  }

  /** Sum of a routing outcome (`local`, `forwarded`...) over both instances' `/metrics`. */
  async routingCount(outcome: string): Promise<number> {
    const scrapes = await Promise.all(this.instances.map((i) => i.request('/metrics')));
    const pattern = new RegExp(
      `^kafka_streams_routing_requests_total\\{outcome="${outcome}"\\} (\\d+)$`,
      'm',
    );
    return scrapes.reduce((n, s) => n + Number(pattern.exec(String(s.body))?.[1] ?? NaN), 0);
  }

  /**
   * Restarts instance `index` as a rolling update does: SIGTERM, then a new process on the same
   * ports and state directory with its environment changed by `env` (kept for later restarts);
   * waits until both are ready with the same metadata and learns the owners again (a restart
   * may move partitions).
   */
  async restart(index: number, env: Readonly<Record<string, string>> = {}): Promise<void> {
    const old = this.instances[index];
    await old.stop();
    this.envs[index] = { ...this.envs[index], ...env };
    this.instances[index] = await OrderStatsInstance.start(this.envs[index], {
      port: old.port,
      queryPort: old.queryPort,
    });
    await this.waitReady();
    this.ownerOf.clear();
    await this.learnOwners();
  }

  /** Kills both processes, deletes the topics and state directories. */
  async stop(): Promise<void> {
    await Promise.all(this.instances.map((i) => i.stop('SIGKILL')));
    await this.ctx.cleanup();
    for (const dir of this.dirs) rmSync(dir, { recursive: true, force: true });
  }

  private async learnOwners(): Promise<void> {
    const [a] = this.instances;
    for (const user of this.users) {
      const r = await a.request(`/stats/${user}`);
      const by = r.headers.get('x-served-by');
      if (r.status !== 200 || by === null || !this.endpoints.includes(by)) {
        throw new Error(`cannot learn the owner of ${user}: ${r.status} ${String(by)}`);
      }
      this.ownerOf.set(user, by);
    }
    const owners = new Set(this.ownerOf.values());
    if (owners.size !== 2) throw new Error(`one instance owns every user: ${[...owners].join()}`);
  }
}
