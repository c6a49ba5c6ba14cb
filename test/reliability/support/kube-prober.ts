import type { ClusterSeat, OrderStatsCluster } from './order-stats-cluster';

/** One probe as a Kubernetes manifest declares it (HTTP GET). */
export interface ProbeSpec {
  readonly path: string;
  readonly periodSeconds: number;
  readonly timeoutSeconds: number;
  readonly failureThreshold: number;
  readonly successThreshold: number;
}

/** A container's three probes. */
export interface ProbeSpecs {
  readonly startup: ProbeSpec;
  readonly readiness: ProbeSpec;
  readonly liveness: ProbeSpec;
}

/** What the prober saw of one process (one container start of a seat). */
interface Watch {
  readonly seat: ClusterSeat;
  readonly since: number;
  started: boolean;
  ready: boolean;
  readyAt: number | undefined;
  stopped: boolean;
  readyStreak: number;
  unreadyStreak: number;
  deadStreak: number;
  readonly timers: Set<NodeJS.Timeout>;
}

/**
 * Probes every watched seat the way the kubelet does: the startup probe alone until it passes
 * (a container whose startup probe fails `failureThreshold` times in a row would be
 * restarted), then readiness and liveness on their own periods. A seat is ready after
 * `successThreshold` readiness successes in a row and unready after `failureThreshold`
 * failures in a row; liveness failing `failureThreshold` times in a row counts as a container
 * restart Kubernetes would have made (here: recorded, not done). Keeps the time during which
 * no watched seat was ready — what callers of the Service see as "no endpoints".
 */
export class KubeProber {
  private readonly watches = new Map<ClusterSeat, Watch>();
  private noReadySince: number | undefined;
  private noReadyTotal = 0;
  private counting = false;
  /** Startup or liveness failures that would have restarted a container, described. */
  readonly restartsWanted: string[] = [];

  constructor(
    private readonly cluster: OrderStatsCluster,
    readonly specs: ProbeSpecs,
  ) {}

  /** Starts probing the seat's current process as a newly started container. */
  watch(seat: ClusterSeat): void {
    this.unwatch(seat);
    const watch: Watch = {
      seat,
      since: Date.now(),
      started: false,
      ready: false,
      readyAt: undefined,
      stopped: false,
      readyStreak: 0,
      unreadyStreak: 0,
      deadStreak: 0,
      timers: new Set(),
    };
    this.watches.set(seat, watch);
    this.loop(watch, this.specs.startup, async (ok, failures) => {
      if (ok) {
        watch.started = true;
        this.loop(watch, this.specs.readiness, async (ready) => this.onReadiness(watch, ready));
        this.loop(watch, this.specs.liveness, async (live) => this.onLiveness(watch, live));
        return false;
      }
      if (failures >= this.specs.startup.failureThreshold) {
        this.restartsWanted.push(`seat ${seat.index}: startup probe failed ${failures} times`);
        return false;
      }
      return true;
    });
  }

  /** Stops probing a seat (its pod is deleted): it is no endpoint from now on. */
  unwatch(seat: ClusterSeat): void {
    const watch = this.watches.get(seat);
    if (!watch) return;
    watch.stopped = true;
    for (const t of watch.timers) clearTimeout(t);
    this.watches.delete(seat);
    this.update();
  }

  /** Seats whose readiness passed: the Service's endpoints. */
  readySeats(): ClusterSeat[] {
    return [...this.watches.values()].filter((w) => w.ready).map((w) => w.seat);
  }

  /** When the seat's current process became ready (epoch ms), if it did. */
  readyAt(seat: ClusterSeat): number | undefined {
    return this.watches.get(seat)?.readyAt;
  }

  /** Starts counting the time with no ready endpoint (call once every seat is ready). */
  startCounting(): void {
    this.counting = true;
    this.update();
  }

  /** Milliseconds during which no watched seat was ready, since {@link startCounting}. */
  noReadyEndpointMs(): number {
    const open = this.noReadySince === undefined ? 0 : Date.now() - this.noReadySince;
    return this.noReadyTotal + open;
  }

  stop(): void {
    for (const seat of [...this.watches.keys()]) this.unwatch(seat);
    this.counting = false;
  }

  private async onReadiness(watch: Watch, ok: boolean): Promise<boolean> {
    const spec = this.specs.readiness;
    if (ok) {
      watch.unreadyStreak = 0;
      if (++watch.readyStreak >= spec.successThreshold && !watch.ready) {
        watch.ready = true;
        watch.readyAt ??= Date.now();
      }
    } else {
      watch.readyStreak = 0;
      if (++watch.unreadyStreak >= spec.failureThreshold) watch.ready = false;
    }
    this.update();
    return true;
  }

  private async onLiveness(watch: Watch, ok: boolean): Promise<boolean> {
    if (ok) {
      watch.deadStreak = 0;
      return true;
    }
    if (++watch.deadStreak >= this.specs.liveness.failureThreshold) {
      this.restartsWanted.push(
        `seat ${watch.seat.index}: liveness failed ${watch.deadStreak} times in a row`,
      );
      watch.deadStreak = 0;
    }
    return true;
  }

  /** Probes `spec` every period until `next` says stop. */
  private loop(
    watch: Watch,
    spec: ProbeSpec,
    next: (ok: boolean, failuresInARow: number) => Promise<boolean>,
  ): void {
    let failures = 0;
    const schedule = (delayMs: number): void => {
      const timer = setTimeout(() => {
        watch.timers.delete(timer);
        void tick();
      }, delayMs);
      watch.timers.add(timer);
    };
    const tick = async (): Promise<void> => {
      if (watch.stopped) return;
      const ok = await this.probe(watch.seat, spec);
      if (watch.stopped) return;
      failures = ok ? 0 : failures + 1;
      if (await next(ok, failures)) schedule(spec.periodSeconds * 1000);
    };
    schedule(0);
  }

  private async probe(seat: ClusterSeat, spec: ProbeSpec): Promise<boolean> {
    try {
      const answer = await this.cluster.get(seat, spec.path, spec.timeoutSeconds * 1000);
      return answer.status >= 200 && answer.status < 400;
    } catch {
      return false;
    }
  }

  private update(): void {
    if (!this.counting) return;
    const none = this.readySeats().length === 0;
    if (none && this.noReadySince === undefined) this.noReadySince = Date.now();
    if (!none && this.noReadySince !== undefined) {
      this.noReadyTotal += Date.now() - this.noReadySince;
      this.noReadySince = undefined;
    }
  }
}
