import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@nest-streams/testing/kafka';

/** The example application, run from its sources (the built one runs the same code). */
const MAIN = join(__dirname, '..', '..', 'apps', 'order-stats', 'src', 'main.ts');
/** The example application as `npm run build` leaves it. */
const BUILT_MAIN = join(__dirname, '..', '..', 'dist', 'apps', 'order-stats', 'main.js');

/**
 * The cluster secret test instances share unless the test gives its own `FORWARDING_SECRET`
 * (or `SECURITY_INSECURE`): the application refuses to start several instances without one.
 */
export const TEST_CLUSTER_SECRET = 'order-stats-test-cluster-secret';

/** The stats of one user, as `GET /stats/:userId` answers them. */
export interface OrderStats {
  count: number;
  sum: number;
}

/** An HTTP answer: status, headers, and the body parsed when it is JSON (else its text). */
export interface Answer<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
}

/**
 * One order-stats process (the example application, `apps/order-stats`), started as the
 * contract describes (environment variables, see DESIGN.md): the one way the integration and
 * end-to-end tests, the reliability suite and the benchmarks run instances.
 */
export class OrderStatsInstance {
  output = '';
  /** True between {@link pause} and {@link resume}: the process exists but runs nothing. */
  paused = false;
  /** Protected: a process of the same HTTP contract started otherwise extends this class. */
  protected constructor(
    readonly port: number,
    readonly queryPort: number,
    readonly process: ChildProcess,
  ) {
    process.stdout!.on('data', (d: Buffer) => (this.output += d.toString()));
    process.stderr!.on('data', (d: Buffer) => (this.output += d.toString()));
  }

  /**
   * Spawns an instance on free ports, or on the given ones (a restart keeps its address, so the
   * cluster's metadata still names it); from its sources, or with `built` the application in
   * dist/ (`npm run build` first).
   */
  static async start(
    env: Record<string, string>,
    ports: { port?: number; queryPort?: number } = {},
    { built = false }: { built?: boolean } = {},
  ): Promise<OrderStatsInstance> {
    const port = ports.port ?? (await freePort());
    const queryPort = ports.queryPort ?? (await freePort());
    const secret =
      env.SECURITY_INSECURE === 'true' ? {} : { FORWARDING_SECRET: TEST_CLUSTER_SECRET };
    // The test run's Kafka client (`NEST_STREAMS_CLIENT`, as the engine's suites; unset, the
    // application's default, @platformatic/kafka): an `env` that names its own `KAFKA_CLIENT` wins.
    const client = process.env.NEST_STREAMS_CLIENT;
    const child = spawn(process.execPath, built ? [BUILT_MAIN] : ['--import', 'tsx', MAIN], {
      env: {
        ...process.env,
        ...(client ? { KAFKA_CLIENT: client } : {}),
        ...secret,
        ...env,
        PORT: String(port),
        QUERY_PORT: String(queryPort),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return new OrderStatsInstance(port, queryPort, child);
  }

  /**
   * Starts `count` instances with `env`, each with a fresh state directory (in `stateDirs`, for
   * the caller to remove).
   */
  static async startMany(
    count: number,
    env: Record<string, string>,
    stateDirs: string[],
  ): Promise<OrderStatsInstance[]> {
    const started: OrderStatsInstance[] = [];
    for (let i = 0; i < count; i++) {
      const dir = mkdtempSync(join(tmpdir(), 'order-stats-'));
      stateDirs.push(dir);
      started.push(await OrderStatsInstance.start({ ...env, STATE_DIR: dir }));
    }
    return started;
  }

  /** `127.0.0.1:<port>`: its APPLICATION_SERVER, and what `X-Served-By` names it. */
  get endpoint(): string {
    return `127.0.0.1:${this.port}`;
  }

  get alive(): boolean {
    return this.process.exitCode === null && this.process.signalCode === null;
  }

  /** `GET path` with `headers` (10 s at most): the answer, its body parsed when it is JSON. */
  async request<T = unknown>(
    path: string,
    headers: Readonly<Record<string, string>> = {},
  ): Promise<Answer<T>> {
    const response = await fetch(`http://${this.endpoint}${path}`, {
      headers,
      signal: AbortSignal.timeout(10_000),
    });
    const text = await response.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON
    }
    return { status: response.status, headers: response.headers, body: body as T };
  }

  /** {@link request}, typed. */
  get<T = unknown>(path: string): Promise<Answer<T>> {
    return this.request<T>(path);
  }

  /**
   * Freezes the process (SIGSTOP), as a long GC pause, a stalled VM or a throttled container
   * would: its sockets stay open, its timers and heartbeats stop, its session can expire.
   */
  pause(): void {
    if (!this.alive || this.paused) return;
    this.process.kill('SIGSTOP');
    this.paused = true;
  }

  /** Lets a {@link pause}d process run on (SIGCONT), from where it stopped. */
  resume(): void {
    if (!this.alive || !this.paused) return;
    this.process.kill('SIGCONT');
    this.paused = false;
  }

  /**
   * Sends `signal` (SIGKILL after 20 s); resolves once the process exited. A paused process is
   * resumed after the signal, so that it handles it.
   */
  stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    return new Promise((resolve) => {
      if (!this.alive) return resolve();
      const timer = setTimeout(() => this.process.kill('SIGKILL'), 20_000);
      this.process.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      this.process.kill(signal);
      this.resume();
    });
  }
}
