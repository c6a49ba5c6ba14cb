import type { KeyValueBytes } from '../bytes-store';
import type { CacheEntry } from './named-cache';

/** What a merge reads of a pending write: its key and value (`null`: a delete). */
export type DirtyEntry = Pick<CacheEntry, 'key' | 'value'>;

/**
 * Merges a store's entries with the cache's dirty entries over the same range, both in the
 * same direction: a dirty entry replaces the store's entry of its key, and dirty deletes
 * (`null`) hide it. Stops the store's iterator when it ends or is stopped early. `guard` runs
 * before every step (it throws once the store closed).
 */
export function* mergeDirtyEntries(
  dirty: readonly DirtyEntry[],
  stored: IterableIterator<KeyValueBytes>,
  reverse: boolean,
  guard: () => void = noGuard,
): Generator<KeyValueBytes, void, undefined> {
  const direction = reverse ? -1 : 1;
  let d = 0;
  try {
    guard();
    let next = stored.next();
    for (;;) {
      guard();
      const cached = d < dirty.length ? dirty[d] : undefined;
      if (next.done) {
        if (cached === undefined) return;
        d++;
        if (cached.value !== null) yield { key: cached.key, value: cached.value };
        continue;
      }
      if (cached === undefined) {
        yield next.value;
        next = stored.next();
        continue;
      }
      const order = Buffer.compare(cached.key, next.value.key) * direction;
      if (order > 0) {
        yield next.value;
        next = stored.next();
        continue;
      }
      d++;
      if (order === 0) next = stored.next();
      if (cached.value !== null) yield { key: cached.key, value: cached.value };
    }
  } finally {
    stored.return?.();
  }
}

/** {@link mergeDirtyEntries} over an already-read array of the store's entries. */
export function mergeDirtyEntriesIntoArray(
  dirty: readonly DirtyEntry[],
  stored: readonly KeyValueBytes[],
  reverse: boolean,
): KeyValueBytes[] {
  if (dirty.length === 0) return stored as KeyValueBytes[];
  return [...mergeDirtyEntries(dirty, stored[Symbol.iterator](), reverse)];
}

function noGuard(): void {}
