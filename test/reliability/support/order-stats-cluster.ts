import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@nest-streams/testing/kafka';
import { OrderStatsInstance } from '../../../tools/instances/order-stats-instance';
import { readyAndRunning } from '../../support/health';
import { nestLogLines } from '../../support/nest-log';
import { streamsClient, streamsGroupProtocol } from '../../support/streams-client';
import { setStreamsGroupConfigs } from '../../support/streams-group-configs';

/** One seat of the cluster: a fixed address and state dir, and the process currently in it. */
export interface ClusterSeat {
  /** 0-based position in the cluster. */
  readonly index: number;
  readonly port: number;
  readonly queryPort: number;
  readonly stateDir: string;
  /** The running (or last) process of this seat. */
  instance: OrderStatsInstance;
  /**
   * True from the moment the seat's HTTP server answers until the driver kills it; false while
   * it is paused (SIGSTOP).
   */
  alive: boolean;
  /** Every kill of this seat (epoch ms), for attributing connection errors. */
  readonly killedAt: number[];
  /** Output of the seat's earlier (killed) processes. */
  readonly pastOutput: string[];
}

/** Answers of `GET path` on a seat: status, headers (lower-case) and body text. */
export interface SeatAnswer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

/**
 * Starts one process of a seat on its ports: the example application by default, or another
 * application of the same HTTP contract (the Java peer's, `tools/instances/java-stats-instance.ts`).
 */
export type InstanceStarter = (
  env: Record<string, string>,
  ports: { port: number; queryPort: number },
) => Promise<OrderStatsInstance>;

/**
 * N order-stats processes sharing one `APPLICATION_ID`, each with its own `STATE_DIR`, port and
 * query port. A seat can be SIGKILLed (or terminated gracefully) and restarted on the same
 * address and state dir, as a pod coming back with its volume; frozen (SIGSTOP) and let run on
 * (SIGCONT); seats can be added and removed (scale out and in). {@link OrderStatsCluster.close} stops every process and removes the state
 * dirs.
 */
export class OrderStatsCluster {
  private constructor(
    readonly seats: ClusterSeat[],
    private readonly env: Record<string, string>,
    /** Settings of one seat, kept across its restarts (a pod's name: its group instance id). */
    private readonly seatEnv: (index: number) => Record<string, string> = () => ({}),
    private readonly starter: InstanceStarter = (env, ports) =>
      OrderStatsInstance.start(env, ports),
  ) {}

  /**
   * Starts `size` instances (concurrently) and waits until each one's HTTP server answers. A
   * port found free can be taken by another process before the instance listens on it (an
   * ephemeral port of some client): such a seat starts again on new ports, up to 3 times.
   * `starter` starts each process (default: the example application).
   */
  static async start(
    size: number,
    env: Record<string, string>,
    seatEnv?: (index: number) => Record<string, string>,
    starter?: InstanceStarter,
  ): Promise<OrderStatsCluster> {
    // The client and group protocol under test (NEST_STREAMS_CLIENT, NEST_STREAMS_GROUP_PROTOCOL),
    // unless the test names them.
    const suite = { KAFKA_CLIENT: streamsClient(), GROUP_PROTOCOL: streamsGroupProtocol() };
    const merged = { ...suite, ...env };
    if (merged.GROUP_PROTOCOL === 'streams') await configureStreamsGroup(merged);
    const cluster = new OrderStatsCluster([], merged, seatEnv, starter);
    const launched = await Promise.allSettled(
      Array.from({ length: size }, (_, index) => cluster.launch(index)),
    );
    const failed = launched.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) {
      // Nothing is left behind when an instance cannot start: processes, state dirs.
      await cluster.close();
      throw failed.reason;
    }
    return cluster;
  }

  /** Adds a seat (scale out): a new instance with a new state dir, once its HTTP answers. */
  async addSeat(): Promise<ClusterSeat> {
    const index = this.seats.length;
    await this.launch(index);
    return this.seats[index];
  }

  /**
   * Removes the last seat (scale in) after {@link terminate} stopped it, and deletes its state
   * dir, as a StatefulSet scaled down whose volume claim is deleted.
   */
  removeLastSeat(): void {
    const seat = this.seats.pop();
    if (seat) rmSync(seat.stateDir, { recursive: true, force: true });
  }

  /**
   * Stops a seat's process as Kubernetes does: SIGTERM, and SIGKILL if it is still running
   * after `graceMs`. Resolves with the time it took to exit and whether it had to be killed.
   */
  async terminate(
    seat: ClusterSeat,
    graceMs: number,
  ): Promise<{ exitMs: number; killed: boolean }> {
    seat.alive = false;
    const started = Date.now();
    let killed = false;
    const timer = setTimeout(() => {
      killed = true;
      seat.instance.process.kill('SIGKILL');
    }, graceMs);
    await seat.instance.stop('SIGTERM');
    clearTimeout(timer);
    seat.pastOutput.push(seat.instance.output);
    return { exitMs: Date.now() - started, killed };
  }

  /**
   * Starts the instance of seat `index` and waits until its HTTP server answers. A port found
   * free can be taken by another process before the instance listens on it (an ephemeral port
   * of some client): such a seat starts again on new ports, up to 3 times.
   */
  private async launch(index: number): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      const port = await freePort();
      let queryPort = await freePort();
      while (queryPort === port) queryPort = await freePort();
      const stateDir = mkdtempSync(join(tmpdir(), `order-stats-r${index}-`));
      const instance = await this.starter(
        { ...this.env, ...this.seatEnv(index), STATE_DIR: stateDir },
        { port, queryPort },
      );
      const seat: ClusterSeat = {
        index,
        port,
        queryPort,
        stateDir,
        instance,
        alive: false,
        killedAt: [],
        pastOutput: [],
      };
      this.seats[index] = seat;
      try {
        await this.waitListening(seat);
        return;
      } catch (error) {
        if (attempt >= 3 || !instance.output.includes('EADDRINUSE')) throw error;
        rmSync(stateDir, { recursive: true, force: true });
      }
    }
  }

  /** Seats the cluster believes alive (answering HTTP, not being killed). */
  aliveSeats(): ClusterSeat[] {
    return this.seats.filter((s) => s.alive);
  }

  /** SIGKILLs a seat's process: marked dead first, so no new request targets it. */
  async kill(seat: ClusterSeat): Promise<void> {
    seat.alive = false;
    seat.killedAt.push(Date.now());
    await seat.instance.stop('SIGKILL');
    seat.pastOutput.push(seat.instance.output);
  }

  /**
   * Freezes seat `index`'s process (SIGSTOP) without killing it: marked dead first, so no new
   * request targets it (it would hang), but its sockets, group membership and open transaction
   * stay as they were, until {@link resume}.
   */
  pause(index: number): ClusterSeat {
    const seat = this.seat(index);
    seat.alive = false;
    seat.instance.pause();
    return seat;
  }

  /** Lets seat `index`'s paused process run on (SIGCONT); it answers requests again. */
  resume(index: number): ClusterSeat {
    const seat = this.seat(index);
    seat.instance.resume();
    seat.alive = seat.instance.alive;
    return seat;
  }

  private seat(index: number): ClusterSeat {
    const seat = this.seats[index];
    if (seat === undefined) throw new RangeError(`no seat ${index} in ${this.seats.length}`);
    return seat;
  }

  /** Starts a new process in a killed seat (same ports and state dir) and waits for its HTTP. */
  async restart(seat: ClusterSeat): Promise<void> {
    seat.instance = await this.starter(
      { ...this.env, ...this.seatEnv(seat.index), STATE_DIR: seat.stateDir },
      { port: seat.port, queryPort: seat.queryPort },
    );
    await this.waitListening(seat);
  }

  /** `GET path` on a seat (a fresh connection each time, so a killed process is never reused). */
  get(seat: ClusterSeat, path: string, timeoutMs = 30_000): Promise<SeatAnswer> {
    return new Promise((resolve, reject) => {
      const req = request(
        { host: '127.0.0.1', port: seat.port, path, method: 'GET', agent: false },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers,
              body: Buffer.concat(chunks).toString('utf8'),
            }),
          );
          res.on('error', reject);
        },
      );
      req.setTimeout(timeoutMs, () => req.destroy(new Error(`timeout after ${timeoutMs} ms`)));
      req.on('error', reject);
      req.end();
    });
  }

  /** True when every seat is alive, ready and RUNNING (every store restored, no rebalance). */
  async allReady(): Promise<boolean> {
    this.assertHealthy();
    if (this.seats.some((s) => !s.alive)) return false;
    const answers = await Promise.all(this.seats.map((s) => this.get(s, '/health/ready')));
    return answers.every(readyAndRunning);
  }

  /**
   * Throws when a live seat's process exited on its own or its client reached the ERROR state
   * (the app prints `STATE ERROR`): waiting for it to become ready would be in vain.
   */
  assertHealthy(): void {
    for (const seat of this.seats) {
      const { exitCode, signalCode } = seat.instance.process;
      const exited = seat.alive && (exitCode !== null || signalCode !== null);
      if (exited || seat.instance.output.includes('STATE ERROR')) {
        throw new Error(
          `seat ${seat.index} ${exited ? `exited (${exitCode ?? signalCode})` : 'is in ERROR'}:\n${quiet(seat.instance.output)}`,
        );
      }
    }
  }

  /** How many lines of every process's output (earlier ones included) contain `text`. */
  countInOutputs(text: string): number {
    return this.seats
      .flatMap((s) => [...s.pastOutput, s.instance.output])
      .reduce((n, out) => n + out.split('\n').filter((line) => line.includes(text)).length, 0);
  }

  /**
   * Rebalances the processes went through once running: the `STATE REBALANCING` lines the
   * application printed after its first `STATE RUNNING` (the start's own assignment left out),
   * in every process of `seats` (by default the cluster's; a removed seat keeps its outputs).
   */
  rebalancesSeen(seats: readonly ClusterSeat[] = this.seats): number {
    return seats
      .flatMap((s) => [...s.pastOutput, s.instance.output])
      .reduce((n, out) => {
        const lines = out.split('\n');
        const running = lines.findIndex((l) => l.includes('STATE RUNNING'));
        if (running < 0) return n;
        return n + lines.slice(running).filter((l) => l.includes('STATE REBALANCING')).length;
      }, 0);
  }

  /** Every process's output (earlier processes of a seat included), for a failure's report. */
  outputs(): string {
    return this.seats
      .map((s) =>
        [...s.pastOutput, s.instance.output]
          .map((out, n) => `--- seat ${s.index} process ${n} ---\n${quiet(out)}`)
          .join('\n'),
      )
      .join('\n');
  }

  /**
   * Per seat, the last `count` lines the engine and the application wrote (warnings and state
   * changes of `[KafkaStreams]` and `[OrderStats]`, without colours): what a failure's message
   * needs to say why a seat answers as it does, when the whole output is not kept.
   */
  engineLines(count: number): string[] {
    return this.seats.map((s) => {
      const lines = nestLogLines(s.instance.output)
        .filter((l) => l.context === 'KafkaStreams' || l.context === 'OrderStats')
        .map((l) => `${l.level} ${l.message}`);
      return `seat ${s.index}: ${lines.slice(-count).join(' | ')}`;
    });
  }

  /** Stops every process (SIGTERM, SIGKILL after 20 s) and removes the state dirs. */
  async close(): Promise<void> {
    await Promise.all(
      this.seats.map(async (seat) => {
        seat.alive = false;
        const timer = setTimeout(() => seat.instance.process.kill('SIGKILL'), 20_000);
        await seat.instance.stop('SIGTERM');
        clearTimeout(timer);
      }),
    );
    // (A seat whose launch failed before it had a process leaves a hole: skipped.)
    this.seats.forEach((seat) => rmSync(seat.stateDir, { recursive: true, force: true }));
  }

  private async waitListening(seat: ClusterSeat, timeoutMs = 120_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const { exitCode, signalCode } = seat.instance.process;
      if (exitCode !== null || signalCode !== null) {
        throw new Error(
          `seat ${seat.index} exited (${exitCode ?? signalCode}) while starting:\n${seat.instance.output}`,
        );
      }
      try {
        await this.get(seat, '/health/live', 5_000);
        seat.alive = true;
        return;
      } catch {
        if (Date.now() > deadline) {
          throw new Error(`seat ${seat.index} does not answer HTTP after ${timeoutMs} ms`);
        }
        await new Promise((r) => setTimeout(r, 200));
      }
    }
  }
}

/** The end of a process's output without the repetitive lines (health checks, heartbeats). */
function quiet(output: string): string {
  return output
    .split('\n')
    .filter((line) => !line.includes('Health Check has failed') && !line.includes('Heartbeat('))
    .join('\n')
    .slice(-6000);
}

/**
 * Under the streams protocol the broker assigns from the group's configs, not the instances':
 * the standbys (`NUM_STANDBY_REPLICAS`) and, for static members, how long a member that left
 * keeps its tasks (`SESSION_TIMEOUT_MS`), as an operator sets them with `kafka-configs
 * --entity-type groups` before the first instance starts (see docs/deployment.md).
 */
async function configureStreamsGroup(env: Record<string, string>): Promise<void> {
  const configs: Record<string, string> = {};
  if (env.NUM_STANDBY_REPLICAS && env.NUM_STANDBY_REPLICAS !== '0') {
    configs['streams.num.standby.replicas'] = env.NUM_STANDBY_REPLICAS;
  }
  if (env.SESSION_TIMEOUT_MS) configs['streams.session.timeout.ms'] = env.SESSION_TIMEOUT_MS;
  if (Object.keys(configs).length === 0) return;
  await setStreamsGroupConfigs(env.KAFKA_BROKERS.split(','), env.APPLICATION_ID, configs);
}
