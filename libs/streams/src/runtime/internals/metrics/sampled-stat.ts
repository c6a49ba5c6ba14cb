/**
 * Kafka's `metrics.sample.window.ms` default: rates, means, minima and maxima cover the last
 * one to two windows of this length (Kafka keeps `metrics.num.samples` = 2 of them).
 */
export const SAMPLE_WINDOW_MS = 30_000;

// The layout of a SampledStat's figures: [count, sum, min, max] of the previous window, then
// of the current one.
const COUNT = 0;
const SUM = 1;
const MIN = 2;
const MAX = 3;
const CURRENT = 4;

/** What a {@link SampledStat} reports, read at one instant. */
export interface SampledFigures {
  /** Values recorded since the stat was created. */
  readonly total: number;
  /** Their sum since it was created. */
  readonly sum: number;
  /** Values recorded per second over the last 30 to 60 s. */
  readonly rate: number;
  /** Mean, minimum and maximum of the values of the last 30 to 60 s; NaN without any. */
  readonly avg: number;
  readonly min: number;
  readonly max: number;
}

/**
 * Values recorded on a hot path (a latency, an end-to-end latency, a lateness) and what Kafka
 * Streams reports of them: the count and sum since creation, and the rate, mean, minimum and
 * maximum over the last 30 to 60 seconds (two sample windows of {@link SAMPLE_WINDOW_MS}).
 *
 * Recording writes four numbers of a preallocated `Float64Array`: no allocation and no clock.
 * The window moves when the figures are read: a read 30 s or more after the current window
 * opened closes it, so the figures cover the window before and the one since (when reads are
 * further apart than a window, the window before reaches back to the read before).
 */
export class SampledStat {
  private readonly windows = new Float64Array(8);
  private previousStart: number;
  private currentStart: number;
  private closedCount = 0;
  private closedSum = 0;

  constructor(now: number) {
    this.previousStart = this.currentStart = now;
    this.clear(0);
    this.clear(CURRENT);
  }

  /** Records one value. */
  record(value: number): void {
    const w = this.windows;
    w[CURRENT + COUNT]++;
    w[CURRENT + SUM] += value;
    if (value < w[CURRENT + MIN]) w[CURRENT + MIN] = value;
    if (value > w[CURRENT + MAX]) w[CURRENT + MAX] = value;
  }

  /** The figures at `now` (epoch ms), moving the window when it is 30 s old. */
  read(now: number): SampledFigures {
    const w = this.windows;
    if (now - this.currentStart >= SAMPLE_WINDOW_MS) {
      this.closedCount += w[COUNT];
      this.closedSum += w[SUM];
      w.copyWithin(0, CURRENT, CURRENT + 4);
      this.clear(CURRENT);
      this.previousStart = this.currentStart;
      this.currentStart = now;
    }
    const count = w[COUNT] + w[CURRENT + COUNT];
    const sum = w[SUM] + w[CURRENT + SUM];
    return {
      total: this.closedCount + count,
      sum: this.closedSum + sum,
      rate: (count * 1000) / Math.max(now - this.previousStart, SAMPLE_WINDOW_MS),
      avg: count === 0 ? NaN : sum / count,
      min: count === 0 ? NaN : Math.min(w[MIN], w[CURRENT + MIN]),
      max: count === 0 ? NaN : Math.max(w[MAX], w[CURRENT + MAX]),
    };
  }

  private clear(at: number): void {
    const w = this.windows;
    w[at + COUNT] = 0;
    w[at + SUM] = 0;
    w[at + MIN] = Infinity;
    w[at + MAX] = -Infinity;
  }
}
