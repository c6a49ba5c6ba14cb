/** Runs instances of test/nestjs/fixtures/order-stats-app.ts as separate processes. */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { freePort } from '../../tools/kafka/free-port';
import { readyAndRunning } from '../support/health';

const APP = join(__dirname, 'fixtures', 'order-stats-app.ts');
export interface OrderStats {
  count: number;
  sum: number;
}

export interface Answer<T> {
  status: number;
  headers: Headers;
  body: T;
}

/** One instance of the application, a separate process. */
export class AppInstance {
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
    return readyAndRunning(await this.get('/health/ready'));
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

export { waitFor } from '../support/wait-for';

export function routingCount(metrics: string, outcome: string): number {
  const match = new RegExp(
    `kafka_streams_routing_requests_total\\{outcome="${outcome}"\\} (\\d+)`,
  ).exec(metrics);
  return match ? Number(match[1]) : NaN;
}
