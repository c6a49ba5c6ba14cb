import { StoreClosedError } from '../../../errors/store-closed.error';
import { SyncReadUnavailableError } from '../../../errors/sync-read-unavailable.error';
import type { StateStoreContext } from '../../../processor/state-store-context';
import type { KeyValueBytes } from '../../bytes-store';
import { dirtyInRange, mergeDirty, mergeOrder } from '../cache-merge';
import type { FlushedEntry, NamedCache } from '../named-cache';
import { PrefetchedReads } from './prefetched-reads';
import { RecordCache } from '../record-cache';
import type { SegmentRules, StampedWrite, StoreLayer, StoreRange } from './store-layer';
import { WrappedStoreLayer } from './wrapped-store-layer';

/**
 * Receives the entries the cache writes through to the store, after they are written: the
 * store key, the new value (`null`: deleted), the value before (`null`: absent; `undefined`:
 * not known, only when old values were not asked for or the store below cannot read
 * synchronously and the key was never read before its first write) and the timestamp of the
 * last write.
 */
export type CacheFlushListener = (
  key: Buffer,
  newValue: Buffer | null,
  oldValue: Buffer | null | undefined,
  timestamp: number,
) => void;

/**
 * The caching layer of every store kind (Kafka Streams' `CachingKeyValueStore`,
 * `CachingWindowStore` and `CachingSessionStore` in one): reads and writes go through the
 * process-wide {@link RecordCache}, keyed by store key. Repeated writes to a key collapse into
 * one dirty entry; dirty entries are written through to the layer below (the change-logging
 * layer, so the changelog too) when the cache flushes on `flush()` (the commit) or evicts, and
 * then handed to the flush listener (the DSL forwards them downstream). Reads merge the dirty
 * entries over the store below, in the store's order. Caching changes how often updates are
 * emitted, never durability: every write is in the changelog before the commit that covers it.
 *
 * Segmented stores (window, session): stream time counts cached writes, writes past retention
 * are dropped as the engine drops them, reads merge in segment order, and a removal of
 * something the store below never held is neither written nor forwarded (as Kafka Streams).
 *
 * Engines without synchronous reads: {@link prefetch} loads a batch's keys in one
 * `getManyAsync`, so the batch's synchronous reads are served from the cache or the batch's
 * read set; a synchronous read of a key never loaded throws `SyncReadUnavailableError`.
 *
 * Errors: reads and writes before `init` or after `close` throw `StoreClosedError`.
 */
export class CachingBytesStore extends WrappedStoreLayer {
  private cache: NamedCache | undefined;
  private owner: RecordCache | undefined;
  private context: StateStoreContext | undefined;
  private listener: CacheFlushListener | undefined;
  private sendOldValues = false;
  private readonly prefetched = new PrefetchedReads();
  private syncInner = true;
  /** The largest segment time written into the cache since `init` (segmented stores). */
  private cachedStreamTime = -1;
  /** Bumped on every close, so that iterators can tell they outlived their open period. */
  private generation = 0;
  private readonly rules: SegmentRules | undefined;

  constructor(inner: StoreLayer) {
    super(inner);
    const below = inner.segments;
    this.rules = below && {
      retentionPeriodMs: below.retentionPeriodMs,
      segmentIntervalMs: below.segmentIntervalMs,
      segmentTime: (storeKey) => below.segmentTime(storeKey),
      observedStreamTime: () => Math.max(below.observedStreamTime(), this.cachedStreamTime),
    };
  }

  /** Segment rules whose stream time counts the cached writes. */
  override get segments(): SegmentRules | undefined {
    return this.rules;
  }

  /**
   * Sets the listener that receives flushed entries; with `sendOldValues` each one carries
   * the value the store held before. Returns true (this layer forwards flushes).
   */
  setFlushListener(listener: CacheFlushListener, sendOldValues: boolean): boolean {
    this.listener = listener;
    this.sendOldValues = sendOldValues;
    return true;
  }

  /** The namespace's counters (after `init`). */
  cacheStats(): { hits: number; misses: number; entries: number; sizeBytes: number } {
    const { hits = 0, misses = 0, size: entries = 0, sizeBytes = 0 } = this.cache ?? {};
    return { hits, misses, entries, sizeBytes };
  }

  override async init(context: StateStoreContext): Promise<void> {
    if (this.cache !== undefined) return; // open: idempotent
    await super.init(context);
    this.context = context;
    this.syncInner = this.inner.capabilities.syncReads;
    this.cachedStreamTime = -1;
    this.owner = RecordCache.of(context);
    this.cache = this.owner.createNamespace(`${context.taskId.toString()}-${this.name}`, (e) =>
      this.writeThrough(e),
    );
  }

  override open(): Promise<void> {
    if (this.context !== undefined && this.cache === undefined) return this.init(this.context);
    return this.inner.open();
  }

  override isOpen(): boolean {
    return this.cache !== undefined && this.inner.isOpen();
  }

  /**
   * Loads `keys` into the cache (clean entries; absent keys cached as absent) with one
   * multi-get, and makes them the batch's read set.
   */
  async prefetch(keys: readonly Buffer[]): Promise<void> {
    const cache = this.requireCache();
    const loaded = await this.prefetched.load(keys, this.inner, (k) => cache.peek(k)?.value);
    for (let i = 0; i < loaded.keys.length; i++) {
      cache.putClean(loaded.strings[i], loaded.keys[i], loaded.values[i]);
    }
  }

  override get(key: Buffer): Buffer | undefined {
    const cache = this.requireCache();
    if (this.expired(key)) return undefined;
    const k = key.toString('latin1');
    const entry = cache.get(k);
    if (entry !== undefined) return entry.value ?? undefined;
    return this.readMiss(cache, k, key);
  }

  /**
   * A read for update (an aggregation reads, folds and writes the key back at once): the typed
   * value of `key`, decoded by `decode` only when the cache keeps none for it, and kept with the
   * cache entry, so the next read for update of the key returns the same object. Only for a
   * caller that writes the key right after ({@link putUpdated}), or calls {@link forgetObject}
   * when it could not: the object may be mutated by the caller, and what the cache keeps must
   * stand for the entry's bytes. Errors are those of `get`.
   */
  getForUpdate<T>(key: Buffer, decode: (bytes: Buffer) => T): T | undefined {
    const cache = this.requireCache();
    if (this.expired(key)) return undefined;
    const k = key.toString('latin1');
    let entry = cache.get(k);
    if (entry === undefined) {
      const stored = this.readMiss(cache, k, key);
      entry = cache.peek(k);
      // Evicted at once (a cache smaller than one entry): nothing to keep.
      if (entry === undefined) return stored === undefined ? undefined : decode(stored);
    }
    if (entry.value === null) return undefined;
    if (entry.object !== undefined) return entry.object as T;
    const object = decode(entry.value);
    cache.keepObject(entry, object);
    return object;
  }

  /**
   * `put` that keeps `object`, the typed value `value` deserializes to, with the cache entry
   * for the next {@link getForUpdate}: the caller must not mutate it afterwards except through
   * another read for update and write.
   */
  putUpdated(key: Buffer, value: Buffer | null, object: unknown): boolean {
    return this.cachePut(key, value, undefined, value === null ? undefined : object);
  }

  /** Drops the typed value kept for `key` (a failed update may have mutated it). */
  forgetObject(key: Buffer): void {
    const entry = this.requireCache().peek(key.toString('latin1'));
    if (entry !== undefined && entry.object !== undefined) this.cache?.keepObject(entry, undefined);
  }

  override getMany(keys: readonly Buffer[]): (Buffer | undefined)[] {
    return keys.map((key) => this.get(key));
  }

  /**
   * A synchronous read for interactive queries: the cached value when there is one, else the
   * store below's, never cached. Caching a miss may evict, and evicting a dirty entry flushes
   * the namespace (changelog writes, records forwarded downstream), which a query must never
   * cause: Kafka Streams caches reads only on the stream thread for the same reason.
   *
   * @throws SyncReadUnavailableError when the store below cannot read synchronously (use
   *   `getAsync`, which never caches either).
   */
  getWithoutCaching(key: Buffer): Buffer | undefined {
    const cached = this.peek(key);
    if (cached !== undefined) return cached ?? undefined;
    if (!this.syncInner) throw new SyncReadUnavailableError(this.name);
    return this.inner.get(key);
  }

  /** The cached value, else the store below's (never cached); a write cached meanwhile wins. */
  override async getAsync(key: Buffer): Promise<Buffer | undefined> {
    const cached = this.peek(key);
    if (cached !== undefined) return cached ?? undefined;
    const stored = await this.inner.getAsync(key);
    const after = this.cache === undefined ? undefined : this.peek(key);
    return after !== undefined ? (after ?? undefined) : stored;
  }

  override async getManyAsync(keys: readonly Buffer[]): Promise<(Buffer | undefined)[]> {
    const result = new Array<Buffer | undefined>(keys.length);
    const missing: Buffer[] = [];
    const positions: number[] = [];
    for (let i = 0; i < keys.length; i++) {
      const cached = this.peek(keys[i]);
      if (cached !== undefined) result[i] = cached ?? undefined;
      else {
        missing.push(keys[i]);
        positions.push(i);
      }
    }
    if (missing.length > 0) {
      const read = await this.inner.getManyAsync(missing);
      for (let i = 0; i < missing.length; i++) result[positions[i]] = read[i];
    }
    return result;
  }

  override put(key: Buffer, value: Buffer | null): boolean {
    return this.cachePut(key, value, undefined);
  }

  override write(writes: readonly StampedWrite[]): boolean[] {
    for (let i = 0; i < writes.length; i++) checkWrite(writes[i].key, writes[i].value);
    return writes.map((w) => this.cachePut(w.key, w.value, w.timestamp));
  }

  /**
   * Deletes and returns the old value. On an engine without synchronous reads, a key that
   * is neither cached nor prefetched is deleted blind and `undefined` is returned.
   */
  override delete(key: Buffer): Buffer | undefined {
    const cache = this.requireCache();
    const k = key.toString('latin1');
    const entry = cache.get(k);
    let old: Buffer | undefined;
    if (entry !== undefined) old = entry.value ?? undefined;
    else if (this.syncInner || this.prefetched.lookup(k) !== undefined)
      old = this.readMiss(cache, k, key);
    this.put(key, null);
    return old;
  }

  override read(range: StoreRange): IterableIterator<KeyValueBytes> {
    const expired = this.isExpired;
    const dirty = dirtyInRange(this.requireCache(), range, this.rules, expired);
    const stored = this.inner.read(range);
    return mergeDirty(dirty, stored, mergeOrder(range, this.rules, expired), this.openGuard());
  }

  override async readAsync(range: StoreRange): Promise<KeyValueBytes[]> {
    const expired = this.isExpired;
    const dirty = dirtyInRange(this.requireCache(), range, this.rules, expired);
    const stored = await this.inner.readAsync(range);
    return [
      ...mergeDirty(dirty, stored[Symbol.iterator](), mergeOrder(range, this.rules, expired)),
    ];
  }

  /** Writes the dirty entries through (to the changelog too), then flushes the store below. */
  override async flush(): Promise<void> {
    this.cache?.flush();
    await this.inner.flush();
  }

  /** Writes the dirty entries through, drops the namespace and closes the store below. */
  override async close(): Promise<void> {
    try {
      this.dropNamespace(this.inner.isOpen());
    } finally {
      // Even when the flush failed (a collector that failed throws on send): a store left
      // open keeps its RocksDB lock, and the task cannot be created again in this process.
      await this.inner.close();
    }
  }

  /** Drops the cached entries unwritten and destroys the store below. */
  override async destroy(): Promise<void> {
    this.dropNamespace(false);
    await this.inner.destroy();
  }

  private dropNamespace(flush: boolean): void {
    if (this.cache && this.owner) {
      if (flush) this.cache.flush();
      this.owner.closeNamespace(this.cache.name);
      this.cache = undefined;
      this.generation++;
    }
    this.prefetched.clear();
  }

  private cachePut(
    key: Buffer,
    value: Buffer | null,
    timestamp: number | undefined,
    object: unknown = undefined,
  ): boolean {
    const cache = this.requireCache();
    checkWrite(key, value);
    const rules = this.rules;
    if (rules !== undefined) {
      this.cachedStreamTime = Math.max(this.cachedStreamTime, rules.segmentTime(key));
      if (this.expired(key)) return false;
    }
    const k = key.toString('latin1');
    if (this.syncInner) this.prefetched.noteWriteIfKnown(k, value);
    else this.prefetched.noteWrite(k, value);
    const context = this.context as StateStoreContext;
    cache.putDirty(k, key, value, timestamp ?? context.currentTimestamp(), object);
    return true;
  }

  private readonly isExpired = (storeKey: Buffer): boolean => this.expired(storeKey);

  /** Whether a segmented store's key is past retention (never for key-value stores). */
  private expired(storeKey: Buffer): boolean {
    const rules = this.rules;
    if (rules === undefined) return false;
    return rules.segmentTime(storeKey) < rules.observedStreamTime() - rules.retentionPeriodMs + 1;
  }

  /**
   * The cached value of a key without counting a hit or a miss: `null` when cached as absent
   * (or expired), `undefined` when not cached.
   */
  private peek(key: Buffer): Buffer | null | undefined {
    const cache = this.requireCache();
    return this.expired(key) ? null : cache.peek(key.toString('latin1'))?.value;
  }

  private readMiss(cache: NamedCache, k: string, key: Buffer): Buffer | undefined {
    let value = this.prefetched.lookup(k);
    if (value === undefined) {
      if (!this.syncInner) throw new SyncReadUnavailableError(this.name);
      value = this.inner.get(key) ?? null;
    }
    cache.putClean(k, key, value);
    return value ?? undefined;
  }

  /**
   * Writes flushed entries to the store below, then hands them to the listener. On segmented
   * stores, and on stores whose flushes are forwarded (as Kafka Streams' caching stores), a
   * removal of something the store below never held is dropped (downstream never saw it),
   * when the store below can tell synchronously.
   */
  private writeThrough(entries: FlushedEntry[]): void {
    const listener = this.listener;
    const dropsGhostDeletes = this.rules !== undefined || listener !== undefined;
    if (this.syncInner) {
      const readOld = listener !== undefined && this.sendOldValues;
      const unknown = entries.filter(
        (e) => e.oldValue === undefined && (readOld || (dropsGhostDeletes && e.value === null)),
      );
      if (unknown.length > 0) {
        const olds = this.inner.getMany(unknown.map((e) => e.key));
        unknown.forEach((e, i) => (e.oldValue = olds[i] ?? null));
      }
    }
    const written = dropsGhostDeletes
      ? entries.filter((e) => e.value !== null || e.oldValue !== null)
      : entries;
    if (written.length > 0) this.inner.write(written);
    if (listener === undefined) return;
    for (const e of written) {
      listener(e.key, e.value, this.sendOldValues ? e.oldValue : undefined, e.timestamp);
    }
  }

  /** Throws `StoreClosedError` once the store closed after the iterator was made. */
  private openGuard(): () => void {
    const generation = this.generation;
    return () => {
      if (this.generation !== generation) throw notOpen(this.name);
    };
  }

  private requireCache(): NamedCache {
    const cache = this.cache;
    if (cache === undefined) throw notOpen(this.name);
    return cache;
  }
}

function checkWrite(key: unknown, value: unknown): void {
  if (!Buffer.isBuffer(key)) throw new TypeError('a store key must be a Buffer');
  if (value !== null && !Buffer.isBuffer(value)) {
    throw new TypeError('a store value must be a Buffer or null');
  }
}

function notOpen(name: string): Error {
  return new StoreClosedError(name, 'is not initialized (or closed)');
}
