import { Counter, type Registry } from 'prom-client';

/**
 * A counter with one label whose every series exists from the start at 0 (one per value of
 * `values`), so that a scrape shows each outcome or reason before it first happens; `collect`,
 * when given, runs on every scrape before the values are read (to add what was counted
 * elsewhere, without prom-client's per-increment label hashing).
 *
 * @throws Error from prom-client when `name` is already registered in `registers` (a second
 *   module on the same registry: give it another metrics prefix).
 */
export function labelledCounter<L extends string>(
  name: string,
  help: string,
  label: L,
  values: readonly string[],
  registers: Registry[],
  collect?: (this: Counter<L>) => void,
): Counter<L> {
  const counter = new Counter<L>({ name, help, labelNames: [label], registers, collect });
  for (const value of values) counter.inc({ [label]: value } as Partial<Record<L, string>>, 0);
  return counter;
}
