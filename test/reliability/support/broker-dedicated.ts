import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kafka, logLevel } from 'kafkajs';

const REPO_ROOT = join(__dirname, '..', '..', '..');
const CLI = join(REPO_ROOT, 'libs', 'testing', 'src', 'kafka', 'cli.ts');

/**
 * A Kafka broker of one test's own, in its own `NEST_STREAMS_KAFKA_HOME`, driven through the
 * project's broker CLI (`nest-streams-kafka`, libs/testing/src/kafka/cli.ts) in child processes. It can be killed and
 * restarted on the same port with the same data, without touching the shared broker.
 */
export class DedicatedBroker {
  /** The bootstrap address (`127.0.0.1:<port>`), known after the first {@link start}. */
  address = '';
  /** The SASL_SSL listener's address, when started with one. */
  saslSslAddress = '';
  private constructor(readonly home: string) {}

  /**
   * A broker home in a new temporary directory. The classpath cached by the shared broker's
   * home (`.kafka/classpath-*.txt`) is copied so that no Maven resolution runs again.
   */
  static create(): DedicatedBroker {
    const home = mkdtempSync(join(tmpdir(), 'broker-restart-home-'));
    const sharedHome = join(REPO_ROOT, '.kafka');
    if (existsSync(sharedHome)) {
      for (const name of readdirSync(sharedHome).filter((n) => /^classpath-.*\.txt$/.test(n))) {
        copyFileSync(join(sharedHome, name), join(home, name));
      }
    }
    return new DedicatedBroker(home);
  }

  /**
   * Starts the broker (a fresh one, or with `reuseData` the previous one's port and data) and
   * returns the seconds it took to answer. Throws when the address changed across a restart.
   * `saslSslListener` names a listener file (libs/testing/src/kafka/sasl-ssl-listener.ts) for a fresh start.
   */
  async start(reuseData = false, saslSslListener?: string): Promise<number> {
    const started = Date.now();
    const output = await this.cli([
      'start',
      ...(reuseData ? ['--reuse-data'] : []),
      ...(saslSslListener ? ['--sasl-ssl', saslSslListener] : []),
    ]);
    this.saslSslAddress = /KAFKA_SASL_SSL_BROKERS=(\S+)/.exec(output)?.[1] ?? '';
    const match = /KAFKA_BROKERS=(\S+)/.exec(output);
    if (!match) throw new Error(`the broker CLI printed no address:\n${output}`);
    if (this.address && match[1] !== this.address) {
      throw new Error(`the broker came back on ${match[1]}, not ${this.address}`);
    }
    this.address = match[1];
    return (Date.now() - started) / 1000;
  }

  /** The broker's own log (`server.log` in its home). */
  serverLog(): string {
    const file = join(this.home, 'logs', 'server.log');
    return existsSync(file) ? readFileSync(file, 'utf8') : '';
  }

  /** The broker's pid from its `broker.json`, while it runs. */
  pid(): number {
    const state = JSON.parse(readFileSync(join(this.home, 'broker.json'), 'utf8')) as {
      pid: number;
    };
    return state.pid;
  }

  /**
   * Sends `signal` to the broker's JVM and waits for it to exit (SIGTERM: a controlled
   * shutdown; SIGKILL: a crash). The data stays for {@link start}(true).
   */
  async kill(signal: 'SIGTERM' | 'SIGKILL', timeoutMs = 60_000): Promise<void> {
    const pid = this.pid();
    process.kill(pid, signal);
    const deadline = Date.now() + timeoutMs;
    while (isAlive(pid)) {
      if (Date.now() > deadline) throw new Error(`broker pid ${pid} still alive after ${signal}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** A kafkajs client for this broker. */
  kafka(clientId: string): Kafka {
    return new Kafka({ clientId, brokers: [this.address], logLevel: logLevel.NOTHING });
  }

  /** Stops the broker (if it runs), removes its data and its home. */
  async destroy(): Promise<void> {
    try {
      if (existsSync(join(this.home, 'broker.json'))) await this.cli(['stop']);
    } finally {
      rmSync(this.home, { recursive: true, force: true });
    }
  }

  private cli(args: string[]): Promise<string> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...args], {
        cwd: REPO_ROOT,
        env: { ...process.env, NEST_STREAMS_KAFKA_HOME: this.home },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (d: Buffer) => (output += d.toString()));
      child.stderr.on('data', (d: Buffer) => (output += d.toString()));
      child.on('error', reject);
      child.on('exit', (code) =>
        code === 0
          ? resolve(output)
          : reject(new Error(`kafka cli ${args.join(' ')} exited ${code}:\n${output}`)),
      );
    });
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
