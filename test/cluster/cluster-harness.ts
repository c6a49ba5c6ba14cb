import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { freePort } from '@nest-streams/testing/kafka';

const APP = join(__dirname, 'fixtures', 'cluster-app.ts');

/** What `GET /state` of an instance answers. */
export interface InstanceState {
  state: string;
  /** Every state the client entered since the process started, with when (epoch ms). */
  transitions: { state: string; at: number }[];
  active: string[];
  standby: string[];
  warmup: string[];
  restored: number;
  metrics: { processed: number };
}

/** One instance of the test application, a separate process. */
export class ClusterInstance {
  output = '';
  private constructor(
    readonly port: number,
    readonly process: ChildProcess,
  ) {
    process.stdout!.on('data', (d: Buffer) => (this.output += d.toString()));
    process.stderr!.on('data', (d: Buffer) => (this.output += d.toString()));
  }

  /** Starts `app` (the stats application by default) with `env` on `port` (a free one). */
  static async start(
    env: Record<string, string>,
    port?: number,
    app = APP,
  ): Promise<ClusterInstance> {
    const p = port ?? (await freePort());
    const child = spawn(process.execPath, ['--import', 'tsx', app], {
      env: { ...process.env, ...env, PORT: String(p) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return new ClusterInstance(p, child);
  }

  get endpoint(): string {
    return `127.0.0.1:${this.port}`;
  }

  get alive(): boolean {
    return this.process.exitCode === null && this.process.signalCode === null;
  }

  async get<T = unknown>(path: string): Promise<{ status: number; body: T }> {
    const response = await fetch(`http://${this.endpoint}${path}`);
    return { status: response.status, body: (await response.json()) as T };
  }

  async state(): Promise<InstanceState> {
    return (await this.get<InstanceState>('/state')).body;
  }

  kill(signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    return new Promise((resolve) => {
      if (!this.alive) return resolve();
      this.process.once('exit', () => resolve());
      this.process.kill(signal);
    });
  }
}

export { waitFor } from '../support/wait-for';
