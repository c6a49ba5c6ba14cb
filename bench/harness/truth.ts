import { createReadStream, createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import type { EventData } from './event-data';

/**
 * What a correct run must end with, as lines `<key>\t<value>`: for the aggregate
 * `user\tcount\tsum`, for the windowed count `user\twindowStart\tcount`. Systems dump their
 * final store in the same format and {@link compareWithTruth} checks it.
 */
export type Truth = Map<string, string>;

/** Count and sum of amounts per user. */
export function aggregateTruth(data: EventData): Truth {
  const count = new Map<string, number>();
  const sum = new Map<string, number>();
  for (let i = 0; i < data.length; i++) {
    const key = data.keyOf(i);
    count.set(key, (count.get(key) ?? 0) + 1);
    sum.set(key, (sum.get(key) ?? 0) + data.amountOf(i));
  }
  const truth: Truth = new Map();
  for (const [key, n] of count) truth.set(key, `${n}\t${sum.get(key)!}`);
  return truth;
}

/** Count per user and tumbling window of `windowSizeMs` (windows start at multiples of it). */
export function windowedTruth(data: EventData, windowSizeMs: number): Truth {
  const counts = new Map<string, number>();
  for (let i = 0; i < data.length; i++) {
    const timestamp = data.timestampOf(i);
    const key = `${data.keyOf(i)}\t${timestamp - (timestamp % windowSizeMs)}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const truth: Truth = new Map();
  for (const [key, n] of counts) truth.set(key, String(n));
  return truth;
}

/** Writes the truth as TSV lines (the Java peer reads it to check itself). */
export async function writeTruth(truth: Truth, path: string): Promise<void> {
  const out = createWriteStream(path);
  let chunk = '';
  for (const [key, value] of truth) {
    chunk += `${key}\t${value}\n`;
    if (chunk.length > 1 << 20) {
      if (!out.write(chunk)) await once(out, 'drain');
      chunk = '';
    }
  }
  out.end(chunk);
  await once(out, 'finish');
}

/** The outcome of comparing a system's dump with the truth. */
export interface TruthCheck {
  readonly entries: number;
  readonly mismatches: number;
  /** A readable example of the first difference, when there is one. */
  readonly firstMismatch?: string;
}

/**
 * Compares a dump (TSV lines as the truth's, any order) with the truth: every truth entry must
 * be present with the same value (with `atLeast`, values at least the truth's), and nothing else.
 */
export async function compareWithTruth(
  truth: Truth,
  dumpFile: string,
  keyColumns: number,
  atLeast = false,
): Promise<TruthCheck> {
  const seen = new Set<string>();
  let entries = 0;
  let mismatches = 0;
  let firstMismatch: string | undefined;
  const lines = createInterface({ input: createReadStream(dumpFile), crlfDelay: Infinity });
  for await (const line of lines) {
    if (line === '') continue;
    entries++;
    let split = -1;
    for (let c = 0; c < keyColumns; c++) split = line.indexOf('\t', split + 1);
    const key = line.slice(0, split);
    const value = line.slice(split + 1);
    const expected = truth.get(key);
    const matches = atLeast ? atLeastAsLarge(value, expected) : expected === value;
    if (!matches || seen.has(key)) {
      mismatches++;
      firstMismatch ??= `${key.replace('\t', '@')}: got ${value.replace('\t', '/')}, expected ${expected?.replace('\t', '/') ?? 'nothing'}`;
    }
    seen.add(key);
  }
  for (const key of truth.keys()) {
    if (!seen.has(key)) {
      mismatches++;
      firstMismatch ??= `${key.replace('\t', '@')}: missing`;
    }
  }
  return { entries, mismatches, firstMismatch };
}

/**
 * Whether every number of `value` (TSV) is at least the same column of `expected`: the check of
 * at-least-once after a crash, where reprocessed events count twice.
 */
function atLeastAsLarge(value: string, expected: string | undefined): boolean {
  if (expected === undefined) return false;
  const got = value.split('\t').map(Number);
  const want = expected.split('\t').map(Number);
  return got.length === want.length && want.every((w, i) => got[i] >= w);
}
