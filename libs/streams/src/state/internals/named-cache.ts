/**
 * One cached entry. Entries are updated in place on writes (no allocation per repeated
 * write); anything handed to other code is copied into a {@link FlushedEntry} first.
 */
export interface CacheEntry {
  readonly key: Buffer;
  /** The value; `null` is a delete (dirty) or a known-absent key (clean). */
  value: Buffer | null;
  /** Timestamp of the record that last wrote the entry. */
  timestamp: number;
  /** Written since the last flush, not yet in the store below. */
  dirty: boolean;
  /**
   * For dirty entries: the value the store below holds (`null`: absent), when known (the
   * entry was read before its first write); `undefined` when unknown.
   */
  priorValue: Buffer | null | undefined;
  /**
   * The typed value `value` deserializes to, kept by the store above so that a read for update
   * (an aggregation's) needs no deserialization; `undefined` when none is kept. Every write
   * replaces or drops it, so it always stands for `value`.
   */
  object: unknown;
  /** Bytes charged to the cache budget. */
  size: number;
}

/** An entry as the namespace holds it: in a doubly linked list in LRU order. */
interface LruEntry extends CacheEntry {
  /** The key's latin1 string (the map key). */
  readonly k: string;
  /** The entry used just before this one (towards the eldest). */
  older: LruEntry | undefined;
  /** The entry used just after this one (towards the newest). */
  newer: LruEntry | undefined;
}

/** A dirty entry leaving the cache: its write and what the store held before it. */
export interface FlushedEntry {
  readonly key: Buffer;
  readonly value: Buffer | null;
  readonly timestamp: number;
  /** The store's value before this write (`null`: absent), or `undefined` when unknown. */
  oldValue: Buffer | null | undefined;
}

/** Receives a namespace's dirty entries, in the order they first became dirty. */
export type FlushHandler = (entries: FlushedEntry[]) => void;

/** The budget a namespace belongs to (the process-wide {@link RecordCache}). */
export interface CacheBudget {
  charge(bytes: number): void;
  afterWrite(cache: NamedCache): void;
}

/** Fixed per-entry overhead charged besides key and value bytes (object, map slot, string). */
export const CACHE_ENTRY_OVERHEAD_BYTES = 96;

/**
 * One store's part of the record cache: an LRU of entries keyed by the key's bytes as a
 * latin1 string (one character per byte, so string order is unsigned byte order), with the
 * dirty keys tracked in write order. Evicting a dirty entry flushes every dirty entry of the
 * namespace first, so the store below (and the changelog) sees writes in order.
 */
export class NamedCache {
  private readonly entries = new Map<string, LruEntry>();
  /**
   * The LRU order: a doubly linked list through the entries, eldest first. A touch moves an
   * entry to the end without a map operation (re-inserting into the map, as before, cost a
   * delete and a set per read and per write and left the map's table full of deleted slots).
   */
  private eldest: LruEntry | undefined;
  private newest: LruEntry | undefined;
  private readonly dirtyKeys = new Set<string>();
  private sortedDirty: string[] | undefined;
  private bytes = 0;
  hits = 0;
  misses = 0;
  evictions = 0;
  flushes = 0;

  constructor(
    readonly name: string,
    private readonly budget: CacheBudget,
    private readonly onFlush: FlushHandler,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  get sizeBytes(): number {
    return this.bytes;
  }

  get dirtyCount(): number {
    return this.dirtyKeys.size;
  }

  /** The entry of `k`, marking it most recently used and counting a hit or a miss. */
  get(k: string): CacheEntry | undefined {
    const entry = this.entries.get(k);
    if (entry === undefined) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    this.touch(entry);
    return entry;
  }

  /** The entry of `k` without touching the LRU order or the statistics. */
  peek(k: string): CacheEntry | undefined {
    return this.entries.get(k);
  }

  /**
   * Records a write: the entry becomes dirty and most recently used; may evict. `object` is the
   * typed value `value` deserializes to, when the writer has it (see {@link CacheEntry.object}).
   */
  putDirty(
    k: string,
    key: Buffer,
    value: Buffer | null,
    timestamp: number,
    object: unknown = undefined,
  ): void {
    const entry = this.entries.get(k);
    if (entry !== undefined) {
      const size = entrySize(key, value, object);
      this.budget.charge(size - entry.size);
      this.bytes += size - entry.size;
      entry.size = size;
      if (!entry.dirty) {
        entry.priorValue = entry.value;
        entry.dirty = true;
        this.addDirty(k);
      }
      entry.value = value;
      entry.object = object;
      entry.timestamp = timestamp;
      this.touch(entry);
    } else {
      this.insert({
        k,
        key,
        value,
        timestamp,
        dirty: true,
        priorValue: undefined,
        object,
        size: 0,
        older: undefined,
        newer: undefined,
      });
      this.addDirty(k);
    }
    this.budget.afterWrite(this);
  }

  /** Caches a value read from the store below; never replaces an existing entry. May evict. */
  putClean(k: string, key: Buffer, value: Buffer | null): void {
    if (this.entries.has(k)) return;
    this.insert({
      k,
      key,
      value,
      timestamp: 0,
      dirty: false,
      priorValue: undefined,
      object: undefined,
      size: 0,
      older: undefined,
      newer: undefined,
    });
    this.budget.afterWrite(this);
  }

  /**
   * Keeps `object`, the typed value of `entry`'s bytes, with the entry (charged to the budget;
   * never evicts: the next write does).
   */
  keepObject(entry: CacheEntry, object: unknown): void {
    const size = entrySize(entry.key, entry.value, object);
    this.budget.charge(size - entry.size);
    this.bytes += size - entry.size;
    entry.size = size;
    entry.object = object;
  }

  /** Evicts the least recently used entry (flushing first if it is dirty). */
  evictOne(): void {
    const entry = this.eldest;
    if (entry === undefined) return;
    if (entry.dirty) this.flush();
    // The flush handler may have written to this namespace and evicted the entry already.
    if (this.entries.get(entry.k) !== entry) return;
    this.unlink(entry);
    this.entries.delete(entry.k);
    this.budget.charge(-entry.size);
    this.bytes -= entry.size;
    this.evictions++;
  }

  /** Hands every dirty entry to the flush handler, in write order, and marks them clean. */
  flush(): void {
    if (this.dirtyKeys.size === 0) return;
    const flushed: FlushedEntry[] = new Array<FlushedEntry>(this.dirtyKeys.size);
    let i = 0;
    for (const k of this.dirtyKeys) {
      const entry = this.entries.get(k) as CacheEntry;
      flushed[i++] = {
        key: entry.key,
        value: entry.value,
        timestamp: entry.timestamp,
        oldValue: entry.priorValue,
      };
      entry.dirty = false;
      entry.priorValue = undefined;
    }
    this.dirtyKeys.clear();
    this.sortedDirty = undefined;
    this.flushes++;
    this.onFlush(flushed);
  }

  /**
   * Dirty entries with `from <= key <= to` (latin1 key strings; omitted bounds open; `toLimit`
   * instead of `to` gives an exclusive upper bound), ascending or descending.
   */
  dirtyRange(
    from: string | undefined,
    to: string | undefined,
    reverse: boolean,
    toExclusive = false,
  ): CacheEntry[] {
    if (this.dirtyKeys.size === 0) return [];
    if (this.sortedDirty === undefined) this.sortedDirty = [...this.dirtyKeys].sort();
    const keys = this.sortedDirty;
    const start = from === undefined ? 0 : lowerBound(keys, from);
    const end =
      to === undefined ? keys.length : toExclusive ? lowerBound(keys, to) : upperBound(keys, to);
    const result: CacheEntry[] = [];
    for (let i = start; i < end; i++) result.push(this.entries.get(keys[i]) as CacheEntry);
    if (reverse) result.reverse();
    return result;
  }

  /** Drops every entry without flushing. */
  clear(): void {
    this.budget.charge(-this.bytes);
    this.bytes = 0;
    this.entries.clear();
    this.eldest = undefined;
    this.newest = undefined;
    this.dirtyKeys.clear();
    this.sortedDirty = undefined;
  }

  private insert(entry: LruEntry): void {
    entry.size = entrySize(entry.key, entry.value, entry.object);
    this.entries.set(entry.k, entry);
    this.append(entry);
    this.bytes += entry.size;
    this.budget.charge(entry.size);
  }

  /** Makes `entry` the most recently used. */
  private touch(entry: LruEntry): void {
    if (entry === this.newest) return;
    this.unlink(entry);
    this.append(entry);
  }

  private append(entry: LruEntry): void {
    entry.older = this.newest;
    entry.newer = undefined;
    if (this.newest === undefined) this.eldest = entry;
    else this.newest.newer = entry;
    this.newest = entry;
  }

  private unlink(entry: LruEntry): void {
    const { older, newer } = entry;
    if (older === undefined) this.eldest = newer;
    else older.newer = newer;
    if (newer === undefined) this.newest = older;
    else newer.older = older;
    entry.older = undefined;
    entry.newer = undefined;
  }

  private addDirty(k: string): void {
    this.dirtyKeys.add(k);
    this.sortedDirty = undefined;
  }
}

function entrySize(key: Buffer, value: Buffer | null, object: unknown): number {
  // The key is held twice: as a Buffer and as its latin1 string. A kept typed value is charged
  // its serialized size again (an estimate: its heap size is not measurable).
  const valueBytes = value === null ? 0 : value.length;
  const objectBytes = object === undefined ? 0 : valueBytes;
  return 2 * key.length + valueBytes + objectBytes + CACHE_ENTRY_OVERHEAD_BYTES;
}

function lowerBound(keys: readonly string[], k: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid] < k) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function upperBound(keys: readonly string[], k: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid] <= k) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
