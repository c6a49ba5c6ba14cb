/** Latency figures of a series of timed operations, in milliseconds. */
export interface LatencySummary {
  readonly count: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
  readonly meanMs: number;
}

/**
 * The `q`-quantile (0 < q <= 1) of ascending `sorted` values by the nearest-rank method: the
 * smallest value with at least `q` of all values at or below it (no interpolation, so it is
 * always a measured value).
 *
 * @throws RangeError on an empty series or a quantile outside (0, 1].
 */
export function nearestRank(sorted: ArrayLike<number>, q: number): number {
  if (sorted.length === 0) throw new RangeError('no values');
  if (!(q > 0 && q <= 1)) throw new RangeError(`quantile must be in (0, 1], got ${q}`);
  return sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)];
}

/**
 * p50, p99, max and mean of durations given in nanoseconds (as `process.hrtime.bigint()`
 * differences, stored as numbers), in milliseconds. Sorts a copy; the input is left as is.
 */
export function summarizeNanos(durationsNs: ArrayLike<number>): LatencySummary {
  return summarize(durationsNs, 1e-6);
}

/** As {@link summarizeNanos}, for durations already in milliseconds. */
export function summarizeMillis(durationsMs: ArrayLike<number>): LatencySummary {
  return summarize(durationsMs, 1);
}

function summarize(values: ArrayLike<number>, toMs: number): LatencySummary {
  const sorted = Float64Array.from(values).sort();
  let total = 0;
  for (let i = 0; i < sorted.length; i++) total += sorted[i];
  return {
    count: sorted.length,
    p50Ms: nearestRank(sorted, 0.5) * toMs,
    p99Ms: nearestRank(sorted, 0.99) * toMs,
    maxMs: sorted[sorted.length - 1] * toMs,
    meanMs: (total / sorted.length) * toMs,
  };
}
