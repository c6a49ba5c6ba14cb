import type { ClusterSeat, OrderStatsCluster } from './order-stats-cluster';
import { AdvanceSeries } from './scale-out-progress';

/**
 * One line of the Prometheus text: `kafka_streams_store_operations{...} <count>`, the store
 * operations a task's store made since it opened (labels store, task, operation).
 */
const OPERATIONS = /^kafka_streams_store_operations\{([^}]*)\} ([0-9.e+]+)$/;

/**
 * The application's processing per task, seen from outside: every `intervalMs` it scrapes
 * each live instance's `GET /metrics` and reads the `put` count of `store` per task
 * (`kafka_streams_store_operations{store, task, operation="put"}`). order-stats writes its
 * aggregate once per record it processes, so the count moves with processing, whatever the
 * commits do. A task's partition advances when any instance's count for it grew since that
 * instance's previous scrape (a task that moves starts again from 0 on its new owner, which
 * counts as growth once it writes).
 */
export class TaskActivity {
  readonly series: AdvanceSeries;
  /** Scrapes made and failed (an instance starting or stopping does not answer). */
  scrapes = 0;
  failedScrapes = 0;
  private readonly last = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private polling: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly cluster: OrderStatsCluster,
    partitions: number,
    private readonly store = 'stats-store',
    private readonly intervalMs = 200,
  ) {
    this.series = new AdvanceSeries(partitions);
  }

  start(): void {
    const tick = (): void => {
      if (this.stopped) return;
      const seats = this.cluster.aliveSeats();
      this.polling = Promise.all(seats.map((seat) => this.scrape(seat))).then(() => {
        if (!this.stopped) this.timer = setTimeout(tick, this.intervalMs);
      });
    };
    tick();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.polling;
  }

  private async scrape(seat: ClusterSeat): Promise<void> {
    let body: string;
    try {
      const answer = await this.cluster.get(seat, '/metrics', 5_000);
      if (answer.status !== 200) throw new Error(`status ${answer.status}`);
      body = answer.body;
    } catch {
      this.failedScrapes++;
      return;
    }
    const now = Date.now();
    this.scrapes++;
    for (const line of body.split('\n')) {
      const match = OPERATIONS.exec(line);
      if (!match) continue;
      const labels = Object.fromEntries(
        [...match[1].matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]),
      );
      if (labels.store !== this.store || labels.operation !== 'put') continue;
      const partition = Number(labels.task?.split('_')[1]);
      if (!Number.isInteger(partition)) continue;
      const key = `${seat.port}/${labels.task}`;
      const count = Number(match[2]);
      const before = this.last.get(key);
      this.last.set(key, count);
      if (before === undefined ? count > 0 : count !== before) {
        this.series.advanced(partition, now);
      }
    }
  }
}
