import type { ChaosEventFeed } from './chaos-event-feed';

/** The processing guarantee the cluster runs under. */
export type Guarantee = 'exactly_once_v2' | 'at_least_once';

/** What is known about a user when an answer about it is judged. */
export interface UserBounds {
  /** Events of the user handed to the producer when the answer arrived (upper bound). */
  readonly dispatched: number;
  /** Events of the user below the committed input offset before the request started. */
  readonly committed: number;
}

/**
 * Judges one user's `{count, sum}` from the cluster against the feed's truth; returns the
 * violation, or undefined when the answer is sound.
 *
 * - every guarantee: `count` is a positive integer and `sum` has at most 2 decimals;
 * - `active` answers (not marked stale) reflect at least the user's committed events:
 *   `count >= committed` (a copy that lost committed updates, or an empty store answering
 *   before it is restored, fails here);
 * - exactly-once: never newer than what was produced (`count <= dispatched`) and exactly the
 *   state after the user's first `count` events: `sum == cumulative sum of count events`;
 * - at-least-once: duplicates make `count` and `sum` exceed any prefix, so only the bounds each
 *   event allows are checked (`0.01 * count <= sum <= 999.99 * count`).
 */
export function judgeStats(
  feed: ChaosEventFeed,
  guarantee: Guarantee,
  userId: string,
  value: unknown,
  bounds: UserBounds,
  active: boolean,
): string | undefined {
  const v = value as { count?: unknown; sum?: unknown } | null;
  if (typeof v !== 'object' || v === null) return `${userId}: body is not an object`;
  const { count, sum } = v;
  if (typeof count !== 'number' || !Number.isInteger(count) || count < 1) {
    return `${userId}: bad count ${String(count)}`;
  }
  if (typeof sum !== 'number' || !Number.isFinite(sum)) return `${userId}: bad sum ${String(sum)}`;
  const cents = Math.round(sum * 100);
  if (sum !== cents / 100) return `${userId}: sum ${sum} has more than 2 decimals`;
  if (active && count < bounds.committed) {
    return `${userId}: active answer count ${count} < ${bounds.committed} committed events (lost updates)`;
  }
  if (guarantee === 'exactly_once_v2') {
    if (count > bounds.dispatched) {
      return `${userId}: count ${count} > ${bounds.dispatched} events produced (newer than the truth, or double counted)`;
    }
    const expected = feed.cumCentsOf(userId, count);
    if (cents !== expected) {
      return `${userId}: sum ${sum} != ${expected / 100}, the sum of its first ${count} events`;
    }
    return undefined;
  }
  if (cents < count || cents > count * 99_999) {
    return `${userId}: sum ${sum} impossible for ${count} events of 0.01..999.99`;
  }
  return undefined;
}

/** True when `(count, sum)` is exactly the state after a prefix of the user's events. */
export function isExactPrefix(
  feed: ChaosEventFeed,
  userId: string,
  value: { count: number; sum: number },
  dispatched: number,
): boolean {
  return (
    value.count <= dispatched &&
    Math.round(value.sum * 100) === feed.cumCentsOf(userId, Math.min(value.count, dispatched))
  );
}

/** True for a `Retry-After` of a whole positive number of seconds. */
export function validRetryAfter(value: string | string[] | undefined): boolean {
  return typeof value === 'string' && /^[1-9][0-9]*$/.test(value);
}

/** Reads one header as a string (the first when repeated). */
export function header(
  headers: Record<string, string | string[] | undefined>,
  name: string,
): string | undefined {
  const value = headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}
