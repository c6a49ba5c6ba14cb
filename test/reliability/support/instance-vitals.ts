import { readFileSync } from 'node:fs';
import { request } from 'node:http';

/** What {@link InstanceVitals} saw while it ran. */
export interface VitalsReport {
  readonly rssStartMb: number;
  readonly rssPeakMb: number;
  readonly rssEndMb: number;
  /** `GET /health/live` answers (all must be 200) and their latency. */
  readonly probes: number;
  readonly probeFailures: number;
  readonly probeP50Ms: number;
  readonly probeP99Ms: number;
  readonly probeMaxMs: number;
}

/**
 * Watches one instance from outside while something is done to it: its resident memory
 * (`VmRSS` of its process) every 100 ms, and `GET /health/live` every 50 ms, one at a time —
 * an event loop blocked for N ms shows as a probe taking N ms.
 */
export class InstanceVitals {
  private readonly rss: number[] = [];
  private readonly latencies: number[] = [];
  private failures = 0;
  private running = true;
  private readonly loops: Promise<void>[];

  constructor(
    private readonly pid: number,
    private readonly httpPort: number,
  ) {
    this.loops = [this.sampleMemory(), this.probe()];
  }

  /** Resident memory of the process now, in MB. */
  static rssMb(pid: number): number {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? NaN) / 1024;
  }

  async stop(): Promise<VitalsReport> {
    this.running = false;
    await Promise.all(this.loops);
    const sorted = [...this.latencies].sort((a, b) => a - b);
    const at = (q: number) =>
      sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
    const round = (n: number) => Math.round(n * 10) / 10;
    return {
      rssStartMb: round(this.rss[0]),
      rssPeakMb: round(Math.max(...this.rss)),
      rssEndMb: round(this.rss[this.rss.length - 1]),
      probes: this.latencies.length + this.failures,
      probeFailures: this.failures,
      probeP50Ms: round(at(0.5)),
      probeP99Ms: round(at(0.99)),
      probeMaxMs: round(sorted[sorted.length - 1] ?? NaN),
    };
  }

  private async sampleMemory(): Promise<void> {
    while (this.running) {
      this.rss.push(InstanceVitals.rssMb(this.pid));
      await sleep(100);
    }
    this.rss.push(InstanceVitals.rssMb(this.pid));
  }

  private async probe(): Promise<void> {
    while (this.running) {
      const started = performance.now();
      const status = await new Promise<number>((resolve) => {
        const req = request(
          { host: '127.0.0.1', port: this.httpPort, path: '/health/live', agent: false },
          (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode ?? 0));
          },
        );
        req.setTimeout(10_000, () => req.destroy());
        req.on('error', () => resolve(0));
        req.end();
      });
      if (status === 200) this.latencies.push(performance.now() - started);
      else this.failures++;
      await sleep(50);
    }
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
