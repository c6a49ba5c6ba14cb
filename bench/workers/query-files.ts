import { readFile } from 'node:fs/promises';
import type { BenchStats } from '../topologies/bench-types';

/** The aggregate truth file (`user\tcount\tsum` lines) as a map. */
export async function readStatsTruth(file: string): Promise<Map<string, BenchStats>> {
  const truth = new Map<string, BenchStats>();
  for (const line of (await readFile(file, 'utf8')).split('\n')) {
    if (line === '') continue;
    const [user, count, sum] = line.split('\t');
    truth.set(user, { count: Number(count), sum: Number(sum) });
  }
  return truth;
}

/** The keys file of the `query` scenario: one user id per line, in the order to get them. */
export async function readKeys(file: string): Promise<string[]> {
  return (await readFile(file, 'utf8')).split('\n').filter((line) => line !== '');
}

/** Why `value` is not the truth's for `key`, or undefined when it is. */
export function statsMismatch(
  truth: ReadonlyMap<string, BenchStats>,
  key: string,
  value: BenchStats | undefined,
): string | undefined {
  const expected = truth.get(key);
  if (expected === undefined) return `${key}: not in the truth`;
  if (value === undefined) return `${key}: missing, expected ${expected.count}/${expected.sum}`;
  if (value.count !== expected.count || value.sum !== expected.sum) {
    return `${key}: got ${value.count}/${value.sum}, expected ${expected.count}/${expected.sum}`;
  }
  return undefined;
}
