import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { OrderStatsInstance } from '../../tools/instances/order-stats-instance';
import { sleep } from '../workers/worker-support';

interface MetadataBody {
  state: string;
  instances: { host: string; stores: Record<string, { active: number[] }> }[];
}

/**
 * Instances of the example application (apps/order-stats, spawned through tsx with its
 * environment contract, as the end-to-end tests do) sharing one application id: added one by
 * one, stopped one by one (SIGTERM: a clean close that leaves the group), all killed at the end.
 */
export class OrderStatsCluster {
  readonly instances: OrderStatsInstance[] = [];
  private readonly stateDirs: string[] = [];
  private started = 0;

  constructor(
    private readonly env: Readonly<Record<string, string>>,
    private readonly workDir: string,
  ) {}

  /** Spawns one more instance with its own state directory. */
  async add(): Promise<OrderStatsInstance> {
    const stateDir = join(this.workDir, `order-stats-${this.started++}`);
    mkdirSync(stateDir, { recursive: true });
    const instance = await OrderStatsInstance.start({ ...this.env, STATE_DIR: stateDir });
    this.instances.push(instance);
    this.stateDirs.push(stateDir);
    return instance;
  }

  /** Stops the last instance cleanly (SIGTERM) and forgets it. */
  async stopLast(): Promise<void> {
    const instance = this.instances.pop();
    this.stateDirs.pop();
    await instance?.stop('SIGTERM');
  }

  /**
   * Stops the last instance cleanly and starts it again with `env` added to its environment,
   * on the same ports and state directory (its stores resume from their checkpoints).
   */
  async restartLast(env: Readonly<Record<string, string>>): Promise<OrderStatsInstance> {
    const last = this.instances.pop();
    const stateDir = this.stateDirs[this.stateDirs.length - 1];
    if (!last || stateDir === undefined) throw new Error('no instance to restart');
    await last.stop('SIGTERM');
    const instance = await OrderStatsInstance.start(
      { ...this.env, ...env, STATE_DIR: stateDir },
      { port: last.port, queryPort: last.queryPort },
    );
    this.instances.push(instance);
    return instance;
  }

  /**
   * Waits until every instance is ready (`/health/ready` 200), RUNNING, and every one's
   * `/streams/metadata` names exactly these instances with the store's `partitions` active
   * partitions each owned once, the same answer twice in a row 1 s apart.
   */
  async waitStable(store: string, partitions: number, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    let previous = '';
    let last = '';
    for (;;) {
      const snapshot = await this.snapshot(store, partitions).catch((e: unknown) => {
        last = String(e);
        return undefined;
      });
      if (snapshot !== undefined && snapshot === previous) return;
      if (snapshot === undefined) previous = '';
      else previous = snapshot;
      if (Date.now() > deadline) {
        throw new Error(
          `the ${this.instances.length} order-stats instances did not settle (${last})\n${this.tails()}`,
        );
      }
      await sleep(1000);
    }
  }

  /** The last output lines of every instance, for error messages. */
  tails(): string {
    return this.instances
      .map((i) => `--- ${i.endpoint}\n${i.output.split('\n').slice(-15).join('\n')}`)
      .join('\n');
  }

  /** Kills every instance still running (SIGKILL). */
  async killAll(): Promise<void> {
    await Promise.all(this.instances.map((i) => i.stop('SIGKILL')));
    this.instances.length = 0;
  }

  /** The partition owners every instance agrees on, or undefined while they do not. */
  private async snapshot(store: string, partitions: number): Promise<string | undefined> {
    const hosts = this.instances.map((i) => i.endpoint).sort();
    const views = new Set<string>();
    for (const instance of this.instances) {
      if ((await instance.request('/health/ready')).status !== 200) return undefined;
      const meta = (await instance.request('/streams/metadata')).body as MetadataBody;
      if (meta.state !== 'RUNNING') return undefined;
      if (
        meta.instances
          .map((m) => m.host)
          .sort()
          .join(',') !== hosts.join(',')
      )
        return undefined;
      const owners = new Map<number, string>();
      for (const member of meta.instances) {
        for (const p of member.stores[store]?.active ?? []) {
          if (owners.has(p)) return undefined;
          owners.set(p, member.host);
        }
      }
      if (owners.size !== partitions) return undefined;
      views.add(
        [...owners]
          .sort((a, b) => a[0] - b[0])
          .map(([p, host]) => `${p}:${host}`)
          .join(','),
      );
    }
    return views.size === 1 ? [...views][0] : undefined;
  }
}
