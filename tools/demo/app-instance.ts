/**
 * One instance of the example application (`node dist/apps/order-stats/main.js`), configured
 * through the environment variables of the contract.
 */
import { isReady, waitUntil } from './http-probe';
import type { ExitInfo, ManagedProcess, ProcessSupervisor } from './processes';

/** How to run the application: the command and its arguments. */
export interface AppCommand {
  readonly command: string;
  readonly args: readonly string[];
}

/** One instance's settings. */
export interface InstanceSettings {
  /** `A`, `B`: how the demo's output names it. */
  readonly label: string;
  readonly port: number;
  /** Port of its instance-to-instance query server (QUERY_PORT). */
  readonly queryPort: number;
  readonly stateDir: string;
  readonly logFile: string;
}

/** What all instances of a run share. */
export interface ClusterSettings {
  readonly brokers: string;
  readonly applicationId: string;
  readonly inputTopic: string;
  readonly standbyReplicas: number;
  /** The cluster secret every instance of the run shares (FORWARDING_SECRET). */
  readonly clusterSecret: string;
}

/**
 * The environment of one instance: the contract's variables (KAFKA_BROKERS, PORT,
 * APPLICATION_SERVER, APPLICATION_ID, STATE_DIR, INPUT_TOPIC, NUM_STANDBY_REPLICAS), QUERY_PORT
 * for its query server, the run's FORWARDING_SECRET, and COMMIT_INTERVAL_MS of 1 s unless the
 * caller's environment sets it (standbys and restores then trail by about a second).
 * Everything else is inherited.
 */
export function instanceEnv(
  cluster: ClusterSettings,
  instance: InstanceSettings,
  base: NodeJS.ProcessEnv = process.env,
): NodeJS.ProcessEnv {
  return {
    ...base,
    KAFKA_BROKERS: cluster.brokers,
    PORT: String(instance.port),
    APPLICATION_SERVER: `127.0.0.1:${instance.port}`,
    APPLICATION_ID: cluster.applicationId,
    STATE_DIR: instance.stateDir,
    INPUT_TOPIC: cluster.inputTopic,
    NUM_STANDBY_REPLICAS: String(cluster.standbyReplicas),
    QUERY_PORT: String(instance.queryPort),
    FORWARDING_SECRET: cluster.clusterSecret,
    COMMIT_INTERVAL_MS: base.COMMIT_INTERVAL_MS ?? '1000',
  };
}

/** Where an instance is in its life, as the demo shows it. */
export type InstanceStatus = 'starting' | 'ready' | 'stopping' | 'exited';

/** A running instance of the application, and the demo's view of it. */
export class AppInstance {
  status: InstanceStatus = 'starting';

  constructor(
    readonly settings: InstanceSettings,
    readonly process: ManagedProcess,
  ) {
    void process.exited.then(() => (this.status = 'exited'));
  }

  /** Starts an instance under `supervisor`, its output appended to its log file. */
  static start(
    supervisor: ProcessSupervisor,
    app: AppCommand,
    cluster: ClusterSettings,
    settings: InstanceSettings,
    cwd: string,
  ): AppInstance {
    const child = supervisor.start({
      name: settings.label,
      command: app.command,
      args: app.args,
      env: instanceEnv(cluster, settings),
      cwd,
      logFile: settings.logFile,
    });
    return new AppInstance(settings, child);
  }

  get label(): string {
    return this.settings.label;
  }

  /** `127.0.0.1:<port>`: its APPLICATION_SERVER, and what `X-Served-By` says for it. */
  get endpoint(): string {
    return `127.0.0.1:${this.settings.port}`;
  }

  get alive(): boolean {
    return this.process.alive;
  }

  /**
   * Waits for `GET /health/ready` to answer 200. Rejects when the process exits first (with
   * the end of its output), on timeout, or when `signal` aborts.
   */
  async waitReady(timeoutMs: number, signal?: AbortSignal): Promise<void> {
    await waitUntil(() => isReady(this.endpoint), {
      timeoutMs,
      signal,
      what: `instance ${this.label} (${this.endpoint}) to be ready; its log: ${this.settings.logFile}`,
      check: () => {
        if (!this.alive) {
          throw new Error(
            `instance ${this.label} exited (${describeExit(this.process.exit)}) before it was ready:\n${this.process.tail(25)}`,
          );
        }
      },
    });
    this.status = 'ready';
  }

  /** SIGTERM, then SIGKILL after `graceMs`; resolves with how it ended. */
  stop(graceMs = 30_000): Promise<ExitInfo> {
    if (this.alive) this.status = 'stopping';
    return this.process.stop('SIGTERM', graceMs);
  }

  /** One line: `A 127.0.0.1:8080 (pid 123) ready`. */
  describe(): string {
    const status =
      this.status === 'exited' ? `exited (${describeExit(this.process.exit)})` : this.status;
    return `${this.label} ${this.endpoint} (pid ${this.process.pid ?? '?'}) ${status}`;
  }
}

/** `code 0`, `signal SIGKILL`. */
export function describeExit(exit: ExitInfo | undefined): string {
  if (exit === undefined) return 'running';
  return exit.signal ? `signal ${exit.signal}` : `code ${exit.code}`;
}
