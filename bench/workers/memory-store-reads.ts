import { readFile } from 'node:fs/promises';

/**
 * What the stores of the `memory` topology must hold: `counts` per user (every key-value
 * store) and `windows` per user and window start, keyed `user\twindowStart` (every windowed
 * store).
 */
export interface MemoryTruth {
  readonly counts: ReadonlyMap<string, number>;
  readonly windows: ReadonlyMap<string, number>;
}

/** The reads of a key-value store the check uses (`ReadOnlyKeyValueStore` has them). */
export interface KeyValueReads {
  all(): Iterable<{ readonly key: string; readonly value: number }>;
  get(key: string): number | undefined;
}

/** The reads of a window store the check uses (`ReadOnlyWindowStore` has them). */
export interface WindowReads {
  all(): Iterable<{
    readonly key: { readonly key: string; readonly window: { readonly start: number } };
    readonly value: number;
  }>;
  fetch(key: string, windowStart: number): number | undefined;
}

/** One store of the memory topology, by kind. */
export type MemoryStore =
  | { readonly kind: 'keyValue'; readonly name: string; readonly store: KeyValueReads }
  | { readonly kind: 'windowed'; readonly name: string; readonly store: WindowReads };

/** The outcome of {@link readBackStores}. */
export interface ReadBack {
  /** Entries the full scans (`all()`) returned. */
  entries: number;
  /** Point lookups made (`get`, `fetch(key, windowStart)`). */
  pointReads: number;
  mismatches: number;
  firstMismatch?: string;
}

/** How many times every key of every store is read by point lookup after the full scan. */
export const POINT_READ_PASSES = 2;

/**
 * Checks the stores against the truth, as the Java peer's `MemoryMode` does: first every entry
 * of every store through a full scan (`all()`: right values, and exactly the truth's entries,
 * or none when `filled` is false), then {@link POINT_READ_PASSES} passes over every store
 * reading every key of the truth by point lookup (`get`, or `fetch(user, windowStart)`), each
 * value checked (missing when not `filled`). The passes fill the block caches the way an
 * application's reads do.
 */
export function readBackStores(
  stores: readonly MemoryStore[],
  truth: MemoryTruth,
  filled: boolean,
): ReadBack {
  const out: ReadBack = { entries: 0, pointReads: 0, mismatches: 0 };
  const mismatch = (problem: string): void => {
    out.mismatches++;
    out.firstMismatch ??= problem;
  };
  for (const { kind, name, store } of stores) {
    const expected = kind === 'keyValue' ? truth.counts : truth.windows;
    let seen = 0;
    const check = (key: string, value: number): void => {
      seen++;
      if (value !== expected.get(key)) mismatch(`${name} ${key} -> ${value}`);
    };
    // Streamed, not collected: the scan must not hold a store's entries on the heap.
    if (kind === 'keyValue') for (const { key, value } of store.all()) check(key, value);
    else for (const { key, value } of store.all()) check(`${key.key}\t${key.window.start}`, value);
    out.entries += seen;
    const size = filled ? expected.size : 0;
    if (seen !== size) mismatch(`${name}: ${seen} entries, expected ${size}`);
  }
  for (let pass = 0; pass < POINT_READ_PASSES; pass++) {
    for (const { kind, name, store } of stores) {
      if (kind === 'keyValue') {
        for (const [user, count] of truth.counts) {
          out.pointReads++;
          const value = store.get(user);
          if (value !== (filled ? count : undefined)) mismatch(`${name} get ${user} -> ${value}`);
        }
      } else {
        for (const [key, count] of truth.windows) {
          out.pointReads++;
          const tab = key.indexOf('\t');
          const value = store.fetch(key.slice(0, tab), Number(key.slice(tab + 1)));
          if (value !== (filled ? count : undefined)) mismatch(`${name} fetch ${key} -> ${value}`);
        }
      }
    }
  }
  return out;
}

/**
 * Reads the truth files the harness writes: `countsFile` with `user\tcount\tsum` lines (the
 * aggregate truth), `windowsFile` with `user\twindowStart\tcount` lines (the windowed truth).
 */
export async function readMemoryTruth(
  countsFile: string,
  windowsFile: string,
): Promise<MemoryTruth> {
  const counts = new Map<string, number>();
  for (const line of (await readFile(countsFile, 'utf8')).split('\n')) {
    if (line === '') continue;
    const [user, count] = line.split('\t');
    counts.set(user, Number(count));
  }
  const windows = new Map<string, number>();
  for (const line of (await readFile(windowsFile, 'utf8')).split('\n')) {
    if (line === '') continue;
    const split = line.lastIndexOf('\t');
    windows.set(line.slice(0, split), Number(line.slice(split + 1)));
  }
  return { counts, windows };
}
