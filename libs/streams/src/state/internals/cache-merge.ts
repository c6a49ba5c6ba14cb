import type { KeyValueBytes } from '../bytes-store';
import type { CacheEntry, NamedCache } from './named-cache';
import type { SegmentRules, StoreRange } from './layers/store-layer';

/** Characters above any latin1 character: `prefix + PREFIX_END` bounds every key with `prefix`. */
const PREFIX_END = '\u0100';

/** What a merge reads of a dirty entry: its key and value (`null`: a delete). */
export type DirtyEntry = Pick<CacheEntry, 'key' | 'value'>;

/** The order of a read, and the stored entries it leaves out (a segmented store's expired). */
export interface MergeOrder {
  compare(a: Buffer, b: Buffer): number;
  skip(storeKey: Buffer): boolean;
}

/**
 * A store's entries with the cache's dirty ones (already in `order`) merged in: a cached entry
 * replaces the stored one with the same key, a cached delete hides it, and `guard` runs before
 * every step (it throws once the store closed under the iterator).
 */
export function* mergeDirty(
  dirty: readonly DirtyEntry[],
  stored: Iterator<KeyValueBytes>,
  order: MergeOrder,
  guard: () => void = () => undefined,
): Generator<KeyValueBytes, void, undefined> {
  const next = (): IteratorResult<KeyValueBytes> => {
    let result = stored.next();
    while (!result.done && order.skip(result.value.key)) result = stored.next();
    return result;
  };
  let d = 0;
  try {
    guard();
    let below = next();
    while (!below.done || d < dirty.length) {
      guard();
      const cmp = below.done
        ? -1
        : d < dirty.length
          ? order.compare(dirty[d].key, below.value.key)
          : 1;
      if (cmp > 0) {
        yield below.value as KeyValueBytes;
        below = next();
        continue;
      }
      const cached = dirty[d++];
      if (cmp === 0) below = next();
      if (cached.value !== null) yield { key: cached.key, value: cached.value };
    }
  } finally {
    stored.return?.();
  }
}

/**
 * The dirty entries of `cache` that `range` covers, live ones only (not `expired`, accepted by
 * the range), in the store's order: key order, or for a segmented store (`rules`) segment then
 * key order; reversed for a backward range.
 */
export function dirtyInRange(
  cache: NamedCache,
  range: StoreRange,
  rules: SegmentRules | undefined,
  expired: (storeKey: Buffer) => boolean,
): CacheEntry[] {
  if (cache.dirtyCount === 0) return [];
  const backward = range.backward === true;
  const p = range.prefix?.toString('latin1');
  const entries =
    p !== undefined
      ? cache.dirtyRange(p, p + PREFIX_END, backward, true)
      : cache.dirtyRange(latin1(range.lower), latin1(range.upper), backward);
  if (rules === undefined && range.accept === undefined) return entries;
  const accept = range.accept;
  const matches = entries.filter((e) => !expired(e.key) && (!accept || accept(e.key)));
  // Entries come in store-key order; a stable sort by segment gives the store's order.
  if (rules !== undefined) {
    const direction = backward ? -1 : 1;
    matches.sort((a, b) => direction * (segmentOf(rules, a.key) - segmentOf(rules, b.key)));
  }
  return matches;
}

const ASCENDING_KEYS: MergeOrder = { compare: (a, b) => Buffer.compare(a, b), skip: () => false };
const DESCENDING_KEYS: MergeOrder = { compare: (a, b) => Buffer.compare(b, a), skip: () => false };

/** Key order (`reverse`: descending), nothing stored skipped: held writes over an engine's. */
export function keyOrder(reverse = false): MergeOrder {
  return reverse ? DESCENDING_KEYS : ASCENDING_KEYS;
}

/**
 * Each key's value of a multi-get: its held write's (`null`: deleted), else the next of `stored`
 * (what the engine answered for the keys without one, in order).
 */
export function overlayHeld(
  held: readonly ({ readonly value: Buffer | null } | undefined)[],
  stored: readonly (Buffer | undefined)[],
): (Buffer | undefined)[] {
  let next = 0;
  return held.map((write) => (write === undefined ? stored[next++] : (write.value ?? undefined)));
}

/** The order of `range` (segment, then key; reversed if backward), and what it leaves out. */
export function mergeOrder(
  range: StoreRange,
  rules: SegmentRules | undefined,
  expired: (storeKey: Buffer) => boolean,
): MergeOrder {
  const direction = range.backward ? -1 : 1;
  return {
    compare: (a, b) =>
      direction *
      ((rules === undefined ? 0 : segmentOf(rules, a) - segmentOf(rules, b)) ||
        Buffer.compare(a, b)),
    skip: expired,
  };
}

function segmentOf(rules: SegmentRules, storeKey: Buffer): number {
  return Math.floor(rules.segmentTime(storeKey) / rules.segmentIntervalMs);
}

function latin1(key: Buffer | undefined): string | undefined {
  return key === undefined ? undefined : key.toString('latin1');
}
