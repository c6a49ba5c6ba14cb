import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  readBackStores,
  readMemoryTruth,
  type KeyValueReads,
  type MemoryStore,
  type MemoryTruth,
  type WindowReads,
} from './memory-store-reads';

const TRUTH: MemoryTruth = {
  counts: new Map([
    ['u1', 3],
    ['u2', 1],
  ]),
  windows: new Map([
    ['u1\t0', 2],
    ['u1\t300000', 1],
    ['u2\t0', 1],
  ]),
};

/** A key-value store over a map, counting its point lookups. */
function keyValue(entries: ReadonlyMap<string, number>, gets: string[]): KeyValueReads {
  return {
    all: () => [...entries].map(([key, value]) => ({ key, value })),
    get: (key) => {
      gets.push(key);
      return entries.get(key);
    },
  };
}

/** A window store over a map keyed `user\twindowStart`. */
function windowed(entries: ReadonlyMap<string, number>, fetches: string[]): WindowReads {
  return {
    all: () =>
      [...entries].map(([k, value]) => {
        const [key, start] = k.split('\t');
        return { key: { key, window: { start: Number(start) } }, value };
      }),
    fetch: (key, windowStart) => {
      fetches.push(`${key}@${windowStart}`);
      return entries.get(`${key}\t${windowStart}`);
    },
  };
}

describe('readBackStores', () => {
  it('scans every store, then reads every key of every store twice by point lookup', () => {
    const gets: string[] = [];
    const fetches: string[] = [];
    const stores: MemoryStore[] = [
      { kind: 'keyValue', name: 'count-store-000', store: keyValue(TRUTH.counts, gets) },
      {
        kind: 'windowed',
        name: 'windowed-count-store-004',
        store: windowed(TRUTH.windows, fetches),
      },
    ];
    expect(readBackStores(stores, TRUTH, true)).toEqual({
      entries: 5,
      pointReads: 10,
      mismatches: 0,
    });
    expect(gets).toEqual(['u1', 'u2', 'u1', 'u2']);
    expect(fetches).toEqual(['u1@0', 'u1@300000', 'u2@0', 'u1@0', 'u1@300000', 'u2@0']);
  });

  it('counts a wrong value, a missing entry and an extra one', () => {
    const wrong = new Map([['u1', 4]]);
    const extra = new Map([...TRUTH.windows, ['u3\t0', 1]]);
    const stores: MemoryStore[] = [
      { kind: 'keyValue', name: 'count-store-000', store: keyValue(wrong, []) },
      { kind: 'windowed', name: 'windowed-count-store-004', store: windowed(extra, []) },
    ];
    expect(readBackStores(stores, TRUTH, true)).toEqual({
      entries: 5,
      pointReads: 10,
      // The scans: u1's value, 1 entry of 2, u3's window, 4 entries of 3; each pass of gets:
      // u1's value, u2 missing.
      mismatches: 8,
      firstMismatch: 'count-store-000 u1 -> 4',
    });
  });

  it('expects empty stores when the input was dropped, and makes the same reads', () => {
    const stores: MemoryStore[] = [
      { kind: 'keyValue', name: 'count-store-000', store: keyValue(new Map(), []) },
      { kind: 'windowed', name: 'windowed-count-store-004', store: windowed(new Map(), []) },
    ];
    expect(readBackStores(stores, TRUTH, false)).toEqual({
      entries: 0,
      pointReads: 10,
      mismatches: 0,
    });
    const filled: MemoryStore[] = [
      { kind: 'keyValue', name: 'count-store-000', store: keyValue(TRUTH.counts, []) },
    ];
    expect(readBackStores(filled, TRUTH, false)).toMatchObject({
      entries: 2,
      mismatches: 5,
      firstMismatch: 'count-store-000: 2 entries, expected 0',
    });
  });
});

describe('readMemoryTruth', () => {
  it("reads the aggregate truth's counts and the windowed truth's windows", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'memory-truth-'));
    writeFileSync(join(dir, 'counts.tsv'), 'u1\t3\t300\nu2\t1\t50\n');
    writeFileSync(join(dir, 'windows.tsv'), 'u1\t0\t2\nu1\t300000\t1\nu2\t0\t1\n');
    expect(await readMemoryTruth(join(dir, 'counts.tsv'), join(dir, 'windows.tsv'))).toEqual(TRUTH);
  });
});
