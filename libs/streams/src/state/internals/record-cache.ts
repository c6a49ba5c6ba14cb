import { NamedCache, type CacheBudget, type FlushHandler } from './named-cache';

/** Kafka Streams' default `statestore.cache.max.bytes`: 10 MiB. */
export const DEFAULT_CACHE_MAX_BYTES = 10_485_760;

/** Counters of a {@link RecordCache}. */
export interface RecordCacheStats {
  readonly maxBytes: number;
  readonly sizeBytes: number;
  readonly entries: number;
  readonly namespaces: number;
  readonly hits: number;
  readonly misses: number;
  /** `hits / (hits + misses)`, or 0 before any read. */
  readonly hitRatio: number;
  readonly evictions: number;
  readonly flushes: number;
}

let processWideCache: RecordCache | undefined;

/**
 * The record cache shared by every caching store of the process (Kafka Streams' `ThreadCache`,
 * `statestore.cache.max.bytes`): one byte budget, one {@link NamedCache} per store instance
 * (named `<taskId>-<storeName>`).
 *
 * When a write takes the total over the budget, entries of the namespace that was written are
 * evicted, least recently used first (dirty ones flushed to their store, and downstream, on
 * the way out). A namespace never evicts another store's entries, so an eviction never writes
 * into a store that is not being processed.
 */
export class RecordCache implements CacheBudget {
  private readonly namespaces = new Map<string, NamedCache>();
  private bytes = 0;

  /**
   * @throws RangeError for a negative or non-integer size: fix `statestore.cache.max.bytes`.
   */
  constructor(private max: number = DEFAULT_CACHE_MAX_BYTES) {
    requireSize(max);
  }

  /** The cache shared by every store of this process that was not given one explicitly. */
  /**
   * The cache a task gives its stores, or the process-wide one.
   * @throws TypeError when the context carries something else as its cache (a wiring bug).
   */
  static of(context: { readonly cache?: object }): RecordCache {
    const cache = context.cache;
    if (cache === undefined) return RecordCache.processWide();
    if (cache instanceof RecordCache) return cache;
    throw new TypeError('the store context carries a cache that is not a RecordCache');
  }

  static processWide(): RecordCache {
    processWideCache ??= new RecordCache();
    return processWideCache;
  }

  get maxBytes(): number {
    return this.max;
  }

  get sizeBytes(): number {
    return this.bytes;
  }

  /**
   * Creates the namespace `name`, whose dirty entries go to `onFlush`.
   *
   * @throws Error when the namespace exists: two open stores with the same task and name is
   *   a runtime bug (close the old store first).
   */
  createNamespace(name: string, onFlush: FlushHandler): NamedCache {
    if (this.namespaces.has(name)) throw new Error(`record cache namespace ${name} already exists`);
    const cache = new NamedCache(name, this, onFlush);
    this.namespaces.set(name, cache);
    return cache;
  }

  /** Drops a namespace and its entries without flushing (flush it first to keep writes). */
  closeNamespace(name: string): void {
    const cache = this.namespaces.get(name);
    if (!cache) return;
    cache.clear();
    this.namespaces.delete(name);
  }

  /** Flushes every namespace's dirty entries (each to its own store). */
  flushAll(): void {
    for (const cache of this.namespaces.values()) cache.flush();
  }

  /**
   * Changes the budget; a smaller one evicts from every namespace, largest first, until the
   * cache fits.
   *
   * @throws RangeError for a negative or non-integer size.
   */
  resize(maxBytes: number): void {
    requireSize(maxBytes);
    this.max = maxBytes;
    while (this.bytes > this.max) {
      let largest: NamedCache | undefined;
      for (const cache of this.namespaces.values()) {
        if (cache.size > 0 && (!largest || cache.sizeBytes > largest.sizeBytes)) largest = cache;
      }
      if (!largest) break;
      largest.evictOne();
    }
  }

  stats(): RecordCacheStats {
    let entries = 0;
    let hits = 0;
    let misses = 0;
    let evictions = 0;
    let flushes = 0;
    for (const cache of this.namespaces.values()) {
      entries += cache.size;
      hits += cache.hits;
      misses += cache.misses;
      evictions += cache.evictions;
      flushes += cache.flushes;
    }
    const reads = hits + misses;
    return {
      maxBytes: this.max,
      sizeBytes: this.bytes,
      entries,
      namespaces: this.namespaces.size,
      hits,
      misses,
      hitRatio: reads === 0 ? 0 : hits / reads,
      evictions,
      flushes,
    };
  }

  /** @internal Called by namespaces as their entries grow and shrink. */
  charge(bytes: number): void {
    this.bytes += bytes;
  }

  /** @internal Evicts from the namespace just written until the cache fits (or it is empty). */
  afterWrite(cache: NamedCache): void {
    while (this.bytes > this.max && cache.size > 0) cache.evictOne();
  }
}

function requireSize(bytes: number): void {
  if (!Number.isInteger(bytes) || bytes < 0) {
    throw new RangeError(`statestore.cache.max.bytes must be a non-negative integer, got ${bytes}`);
  }
}
