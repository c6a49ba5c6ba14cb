import type { ChildOutcome } from './child-process';
import type { SystemRow } from './system-row';
import type { TruthCheck } from './truth';

/** A worker's result line, read back from its JSON. */
export interface ParsedWorkerResult {
  readonly records: number;
  readonly seconds: number;
  readonly peakRssMb: number | undefined;
  readonly storeEntries: number | undefined;
  readonly mismatches: number;
  readonly firstMismatch: string | undefined;
  readonly details: Readonly<Record<string, unknown>>;
}

/** The result line of a child, or a description of why there is none. */
export function parseWorkerResult(outcome: ChildOutcome): ParsedWorkerResult | string {
  const r = outcome.result;
  if (outcome.timedOut) return `timed out\n${outcome.outputTail}`;
  if (!r || typeof r.records !== 'number' || typeof r.seconds !== 'number') {
    return `exited with ${outcome.exitCode ?? outcome.signal} and no result\n${outcome.outputTail}`;
  }
  const num = (v: unknown): number | undefined => (typeof v === 'number' && v >= 0 ? v : undefined);
  return {
    records: r.records,
    seconds: r.seconds,
    peakRssMb: num(r.peakRssMb) ?? outcome.polledPeakRssMb,
    storeEntries: num(r.storeEntries),
    mismatches: num(r.mismatches) ?? 0,
    firstMismatch: typeof r.firstMismatch === 'string' ? r.firstMismatch : undefined,
    details:
      typeof r.details === 'object' && r.details !== null
        ? (r.details as Record<string, unknown>)
        : {},
  };
}

/**
 * Turns a worker's outcome into a table row: a failure when the child failed, reported a
 * mismatch, processed another number of records than expected, or when the harness's own
 * check of its store found a difference; else its figures.
 */
export function rowFromWorker(
  base: Pick<SystemRow, 'system' | 'role' | 'compareKey' | 'loadAverage' | 'client'>,
  outcome: ChildOutcome,
  expectedRecords: number | undefined,
  check: TruthCheck | undefined,
  extraProblem?: (parsed: ParsedWorkerResult) => string | undefined,
): { row: SystemRow; parsed?: ParsedWorkerResult } {
  const parsed = parseWorkerResult(outcome);
  base = { ...base, loadAverage: outcome.loadAverage };
  if (typeof parsed === 'string') return { row: { ...base, failure: parsed } };
  const problems: string[] = [];
  if (outcome.exitCode !== 0) problems.push(`exit code ${outcome.exitCode ?? outcome.signal}`);
  if (parsed.mismatches > 0) {
    problems.push(`self-check: ${parsed.mismatches} mismatches (${parsed.firstMismatch ?? '?'})`);
  }
  if (expectedRecords !== undefined && parsed.records !== expectedRecords) {
    problems.push(`${parsed.records} records, expected ${expectedRecords}`);
  }
  if (check && check.mismatches > 0) {
    problems.push(
      `store differs from the truth: ${check.mismatches} mismatches in ${check.entries} entries (${check.firstMismatch ?? '?'})`,
    );
  }
  const extra = extraProblem?.(parsed);
  if (extra) problems.push(extra);
  const result = {
    system: base.system,
    ...(parsed.records > 0 ? { eventsPerSec: Math.round(parsed.records / parsed.seconds) } : {}),
    seconds: round(parsed.seconds, 3),
    ...(parsed.peakRssMb !== undefined ? { peakRssMb: round(parsed.peakRssMb, 1) } : {}),
  };
  if (problems.length > 0) {
    // A wrong answer reports no speed.
    return { row: { ...base, failure: `wrong or failed: ${problems.join('; ')}` }, parsed };
  }
  return { row: { ...base, result }, parsed };
}

function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
