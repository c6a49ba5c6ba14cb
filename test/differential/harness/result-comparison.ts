import type { CaseResult, DifferentialCase, OutputRecord, StoreEntry } from './differential-case';
import type { DifferentialScenario, OutputSpec } from './scenario';

/** How many records either side of the first difference a report shows. */
const CONTEXT = 3;

/**
 * Compares our result of a case with Java's: the same error or none; every output topic's
 * records (key and value bytes, timestamp) in the same order; every store's entries (sorted by
 * key and window) equal. Returns `undefined` when equal, else a report of the first difference
 * (the scenario, seed, where, and both sequences around it, decoded for reading).
 */
export function compareResults(
  scenario: DifferentialScenario,
  testCase: DifferentialCase,
  java: CaseResult,
  ours: CaseResult,
): string | undefined {
  const head = `scenario ${testCase.scenario}, seed ${testCase.seed}, caching ${testCase.caching ? 'on' : 'off'} (${testCase.steps.length} steps)`;
  if (Boolean(java.error) !== Boolean(ours.error) || java.errorStep !== ours.errorStep) {
    const failed = (r: CaseResult) =>
      r.error ? `${r.error} (at step ${r.errorStep ?? '-'})` : 'none';
    return `${head}: java error: ${failed(java)}; ours: ${failed(ours)}`;
  }
  for (const spec of scenario.outputs) {
    const left = java.outputs[spec.topic] ?? [];
    const right = ours.outputs[spec.topic] ?? [];
    const at = firstDifference(left, right, sameRecord);
    if (at === undefined) continue;
    const show = (r: OutputRecord) => showRecord(spec, r);
    return [
      `${head}: output topic '${spec.topic}' differs at record #${at} (java has ${left.length}, ours ${right.length})`,
      `  java: ${around(left, at, show)}`,
      `  ours: ${around(right, at, show)}`,
    ].join('\n');
  }
  for (const spec of testCase.stores) {
    const left = sortEntries(java.stores[spec.name] ?? []);
    const right = sortEntries(ours.stores[spec.name] ?? []);
    const at = firstDifference(left, right, sameEntry);
    if (at === undefined) continue;
    return [
      `${head}: store '${spec.name}' differs at entry #${at} (java has ${left.length}, ours ${right.length})`,
      `  java: ${around(left, at, showEntry)}`,
      `  ours: ${around(right, at, showEntry)}`,
    ].join('\n');
  }
  return undefined;
}

function firstDifference<T>(
  left: readonly T[],
  right: readonly T[],
  same: (a: T, b: T) => boolean,
): number | undefined {
  const length = Math.max(left.length, right.length);
  for (let i = 0; i < length; i++) {
    if (i >= left.length || i >= right.length || !same(left[i], right[i])) return i;
  }
  return undefined;
}

function sameRecord(a: OutputRecord, b: OutputRecord): boolean {
  return a.k === b.k && a.v === b.v && a.ts === b.ts;
}

function sameEntry(a: StoreEntry, b: StoreEntry): boolean {
  return a.k === b.k && a.v === b.v && a.ts === b.ts && a.start === b.start && a.end === b.end;
}

function sortEntries(entries: readonly StoreEntry[]): StoreEntry[] {
  return [...entries].sort(
    (a, b) =>
      (a.k < b.k ? -1 : a.k > b.k ? 1 : 0) ||
      (a.start ?? 0) - (b.start ?? 0) ||
      (a.end ?? 0) - (b.end ?? 0),
  );
}

/** The records around `at`, the one at `at` in brackets: `... a, [b], c ...`. */
function around<T>(items: readonly T[], at: number, show: (item: T) => string): string {
  const from = Math.max(0, at - CONTEXT);
  const to = Math.min(items.length, at + CONTEXT + 1);
  const shown = items
    .slice(from, to)
    .map((item, i) => (from + i === at ? `[${show(item)}]` : show(item)));
  if (at >= items.length) shown.push('[end]');
  return `${from > 0 ? '... ' : ''}${shown.join(', ')}${to < items.length ? ' ...' : ''}`;
}

function showEntry(e: StoreEntry): string {
  const window = e.start === undefined ? '' : `@${e.start}/${e.end}`;
  return `${e.k}${window}=${e.v}${e.ts === undefined ? '' : ` t${e.ts}`}`;
}

/** `key=value tN`, decoded as the output spec says (hex when the bytes do not decode). */
export function showRecord(spec: OutputSpec, r: OutputRecord): string {
  return `${decodeKey(spec, r.k)}=${decodeValue(spec, r.v)} t${r.ts}`;
}

function decodeKey(spec: OutputSpec, k: string | null): string {
  if (k === null) return 'null';
  const bytes = Buffer.from(k, 'base64');
  if (spec.key === 'string') return bytes.toString('utf8');
  if (spec.key === 'session-windowed') {
    if (bytes.length < 16) return `0x${bytes.toString('hex')}`;
    const inner = bytes.subarray(0, bytes.length - 16).toString('utf8');
    const end = bytes.readBigInt64BE(bytes.length - 16);
    const start = bytes.readBigInt64BE(bytes.length - 8);
    return `${inner}@${start}/${end}`;
  }
  if (bytes.length < 8) return `0x${bytes.toString('hex')}`;
  const size = BigInt(spec.key.slice('time-windowed:'.length));
  const start = bytes.readBigInt64BE(bytes.length - 8);
  return `${bytes.subarray(0, bytes.length - 8).toString('utf8')}@${start}/${start + size}`;
}

function decodeValue(spec: OutputSpec, v: string | null): string {
  if (v === null) return 'null';
  const bytes = Buffer.from(v, 'base64');
  if (spec.value === 'long') {
    return bytes.length === 8 ? String(bytes.readBigInt64BE(0)) : `0x${bytes.toString('hex')}`;
  }
  return JSON.stringify(bytes.toString('utf8'));
}
