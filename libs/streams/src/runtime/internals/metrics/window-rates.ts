import { SAMPLE_WINDOW_MS } from './sampled-stat';

/** Where one total stood when its current window opened, and when the one before opened. */
interface TotalWindows {
  previousStart: number;
  previousTotal: number;
  currentStart: number;
  currentTotal: number;
  /** The total at the last read. */
  last: number;
  /** The read that last touched it (see {@link WindowRates.beginRead}). */
  seen: number;
}

/**
 * Rates of totals that only grow (records processed, dropped, restored; RocksDB's byte
 * counters), computed when they are read, so the code that counts them only increments a
 * number. Each total is known by a key (its metric and labels); its rate covers the last 30 to
 * 60 seconds, as a SampledStat's, from where the total stood when the window before the
 * current one opened. A total's first read is its baseline (its first rate is 0), and so is a
 * read that finds it lower than the read before.
 *
 * A read begins with {@link beginRead}; a key no read touched since the one before is dropped
 * then (its task or store is gone).
 */
export class WindowRates {
  private readonly windows = new Map<string, TotalWindows>();
  private reads = 0;

  /** Starts a read: forgets the keys the previous read did not touch. */
  beginRead(): void {
    const previous = this.reads++;
    for (const [key, w] of this.windows) if (w.seen < previous) this.windows.delete(key);
  }

  /** Per second, how much `total` grew over the last 30 to 60 s. */
  rate(key: string, total: number, now: number): number {
    const { growth, elapsedMs } = this.growth(key, total, now);
    return (growth * 1000) / Math.max(elapsedMs, SAMPLE_WINDOW_MS);
  }

  /**
   * How much `total` grew over the last 30 to 60 s, and over how long (what a ratio of two
   * totals over the same window is computed from).
   */
  growth(key: string, total: number, now: number): { growth: number; elapsedMs: number } {
    let w = this.windows.get(key);
    // First seen, or a total that went back (a counter replaced under the same key, a window
    // store's segment dropped): it starts again from here.
    if (w === undefined || total < w.last) {
      w = {
        previousStart: now,
        previousTotal: total,
        currentStart: now,
        currentTotal: total,
        last: total,
        seen: this.reads,
      };
      this.windows.set(key, w);
    }
    w.seen = this.reads;
    w.last = total;
    if (now - w.currentStart >= SAMPLE_WINDOW_MS) {
      w.previousStart = w.currentStart;
      w.previousTotal = w.currentTotal;
      w.currentStart = now;
      w.currentTotal = total;
    }
    return { growth: total - w.previousTotal, elapsedMs: now - w.previousStart };
  }
}
