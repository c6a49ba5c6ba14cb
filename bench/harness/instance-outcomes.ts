import type { ChildOutcome } from './child-process';

/** Detail fields that add up over the instances of one application. */
const SUMMED_DETAILS = [
  'processed',
  'commits',
  'commitSeconds',
  'restored',
  'restoredAtRunning',
  'cpuSeconds',
  'gcSeconds',
] as const;

/**
 * One outcome for the instances of one application, run side by side on the same input (each
 * reports the whole input as its records, as each waits until the group committed all of it):
 * the slowest instance's time (they started together), the sum of their peak RSS, store
 * entries, CPU, GC, commits and processed records, the first failure's exit and every
 * instance's output tail. Without a result from every instance there is no result.
 */
export function mergeInstanceOutcomes(outcomes: readonly ChildOutcome[]): ChildOutcome {
  if (outcomes.length === 0) throw new RangeError('no instance outcomes');
  if (outcomes.length === 1) return outcomes[0];
  const failed = outcomes.find((o) => o.exitCode !== 0 || o.timedOut);
  const results = outcomes.map((o) => o.result);
  const first = outcomes[0];
  const outputTail = outcomes
    .map((o, i) => `[instance ${i + 1}] ${o.outputTail}`)
    .join('\n')
    .trim();
  const base: ChildOutcome = {
    exitCode: failed?.exitCode ?? 0,
    signal: failed?.signal ?? null,
    timedOut: outcomes.some((o) => o.timedOut),
    result: undefined,
    polledPeakRssMb: sumOf(outcomes.map((o) => o.polledPeakRssMb)),
    outputTail,
    loadAverage: [first.loadAverage[0], Math.max(...outcomes.map((o) => o.loadAverage[1]))],
    killed: outcomes.some((o) => o.killed),
  };
  if (results.some((r) => r === undefined)) return base;
  const all = results as Readonly<Record<string, unknown>>[];
  const records = all.map((r) => r.records);
  if (records.some((n) => n !== records[0])) {
    const why = `instances disagree on the input's records: ${records.join(', ')}`;
    return { ...base, exitCode: base.exitCode || 1, outputTail: `${why}\n${outputTail}` };
  }
  const details = all.map((r) => (isRecord(r.details) ? r.details : {}));
  const merged: Record<string, unknown> = { ...details[0], instances: outcomes.length };
  for (const field of SUMMED_DETAILS) merged[field] = sumOf(details.map((d) => d[field]));
  merged.runningSeconds = maxOf(details.map((d) => d.runningSeconds));
  return {
    ...base,
    result: {
      records: records[0],
      seconds: maxOf(all.map((r) => r.seconds)),
      peakRssMb: sumOf(all.map((r) => r.peakRssMb)),
      storeEntries: sumOf(all.map((r) => r.storeEntries)),
      details: merged,
    },
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** The sum, or undefined when any value is not a number. */
function sumOf(values: readonly unknown[]): number | undefined {
  let sum = 0;
  for (const v of values) {
    if (typeof v !== 'number') return undefined;
    sum += v;
  }
  return sum;
}

/** The largest, or undefined when any value is not a number. */
function maxOf(values: readonly unknown[]): number | undefined {
  let max = -Infinity;
  for (const v of values) {
    if (typeof v !== 'number') return undefined;
    max = Math.max(max, v);
  }
  return max;
}
