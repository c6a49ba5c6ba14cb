import type { KeyValueBytes } from '../bytes-store';
import type { CacheEntry } from './named-cache';

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
