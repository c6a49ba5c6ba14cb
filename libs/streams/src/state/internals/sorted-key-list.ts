/**
 * A sorted set of strings kept in chunks of at most {@link SortedKeyList.CHUNK} entries: a
 * small B-tree with one level. Insert and remove cost a binary search plus a shift inside one
 * chunk (O(log n + CHUNK)); ordered iteration is sequential. Strings compare by UTF-16 code
 * unit, so latin1-encoded byte keys sort in unsigned byte order.
 *
 * Iteration is weakly consistent: a cursor that sees the list change under it re-seeks from
 * the last key it produced, so it never repeats or skips a key that stays in the list.
 */
export class SortedKeyList {
  /** Upper bound on a chunk's length; a full chunk splits in two halves. */
  static readonly CHUNK = 512;

  private chunks: string[][] = [];
  private count = 0;
  private changes = 0;

  /** Number of keys. */
  get size(): number {
    return this.count;
  }

  /** Bumped on every insert, remove or clear (cursors use it to re-seek). */
  get version(): number {
    return this.changes;
  }

  /** A list of `keys`, which the caller gives sorted (as `Array.prototype.sort()` does) and distinct. */
  static fromSorted(keys: readonly string[]): SortedKeyList {
    const list = new SortedKeyList();
    const half = SortedKeyList.CHUNK >>> 1;
    for (let from = 0; from < keys.length; from += half) {
      list.chunks.push(keys.slice(from, from + half));
    }
    list.count = keys.length;
    return list;
  }

  /** Adds `key`; the caller guarantees it is not present yet. */
  insert(key: string): void {
    this.changes++;
    this.count++;
    const chunks = this.chunks;
    if (chunks.length === 0) {
      chunks.push([key]);
      return;
    }
    let c = this.chunkFor(key);
    if (c === chunks.length) {
      c--;
    }
    const chunk = chunks[c];
    chunk.splice(lowerBound(chunk, key), 0, key);
    if (chunk.length > SortedKeyList.CHUNK) {
      chunks.splice(c + 1, 0, chunk.splice(chunk.length >>> 1));
    }
  }

  /** Removes `key`; returns false when it was not present. */
  remove(key: string): boolean {
    const c = this.chunkFor(key);
    if (c === this.chunks.length) {
      return false;
    }
    const chunk = this.chunks[c];
    const i = lowerBound(chunk, key);
    if (chunk[i] !== key) {
      return false;
    }
    this.changes++;
    this.count--;
    if (chunk.length === 1) {
      this.chunks.splice(c, 1);
    } else {
      chunk.splice(i, 1);
    }
    return true;
  }

  clear(): void {
    this.changes++;
    this.count = 0;
    this.chunks = [];
  }

  /**
   * Keys in ascending order from `from` (inclusive, or exclusive when `fromExclusive`) while
   * `to` (inclusive) is not passed; omitted bounds are open.
   */
  *ascending(from?: string, to?: string, fromExclusive = false): Generator<string, void, void> {
    let version = this.changes;
    let [c, i] = from === undefined ? [0, 0] : this.seekUp(from, fromExclusive);
    while (c < this.chunks.length) {
      const key = this.chunks[c][i];
      if (to !== undefined && key > to) {
        return;
      }
      yield key;
      if (this.changes !== version) {
        version = this.changes;
        [c, i] = this.seekUp(key, true);
      } else if (++i === this.chunks[c].length) {
        c++;
        i = 0;
      }
    }
  }

  /**
   * Keys in descending order from `to` (inclusive) down to `from` (inclusive); omitted bounds
   * are open.
   */
  *descending(from?: string, to?: string): Generator<string, void, void> {
    let version = this.changes;
    let [c, i] = to === undefined ? this.lastPosition() : this.seekDown(to, false);
    while (c >= 0) {
      const key = this.chunks[c][i];
      if (from !== undefined && key < from) {
        return;
      }
      yield key;
      if (this.changes !== version) {
        version = this.changes;
        [c, i] = this.seekDown(key, true);
      } else if (--i < 0) {
        c--;
        i = c >= 0 ? this.chunks[c].length - 1 : 0;
      }
    }
  }

  /** Index of the first chunk whose last key is `>= key` (`chunks.length` when none). */
  private chunkFor(key: string): number {
    let lo = 0;
    let hi = this.chunks.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const chunk = this.chunks[mid];
      if (chunk[chunk.length - 1] < key) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  /** Position of the first key `>= key` (`> key` when exclusive); past the end when none. */
  private seekUp(key: string, exclusive: boolean): [number, number] {
    let c = this.chunkFor(key);
    if (c === this.chunks.length) {
      return [c, 0];
    }
    const chunk = this.chunks[c];
    let i = lowerBound(chunk, key);
    if (exclusive && chunk[i] === key) {
      i++;
      if (i === chunk.length) {
        c++;
        i = 0;
      }
    }
    return [c, i];
  }

  /** Position of the last key `<= key` (`< key` when exclusive); `c = -1` when none. */
  private seekDown(key: string, exclusive: boolean): [number, number] {
    const [above, i] = this.seekUp(key, !exclusive);
    // seekUp found the first key above the wanted one; step back one position.
    if (i > 0) {
      return [above, i - 1];
    }
    const c = above - 1;
    return c >= 0 ? [c, this.chunks[c].length - 1] : [-1, 0];
  }

  private lastPosition(): [number, number] {
    const c = this.chunks.length - 1;
    return c >= 0 ? [c, this.chunks[c].length - 1] : [-1, 0];
  }
}

/** Index of the first element `>= key` in a sorted array. */
function lowerBound(sorted: readonly string[], key: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] < key) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}
