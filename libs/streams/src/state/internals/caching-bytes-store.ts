import { StoreClosedError } from '../../errors/store-closed.error';
import { SyncReadUnavailableError } from '../../errors/sync-read-unavailable.error';
import type { StateStoreContext } from '../../processor/state-store-context';
import type { BytesStore, BytesWrite, KeyValueBytes } from '../bytes-store';
import { mergeDirtyEntries, mergeDirtyEntriesIntoArray } from './merged-cache-iterator';
import type { FlushedEntry, NamedCache } from './named-cache';
import { PrefetchedReads } from './prefetched-reads';
import { RecordCache } from './record-cache';
import { WrappedBytesStore } from './wrapped-bytes-store';

/**
 * Receives the entries the cache writes through to the store, after they are written: the
 * key, the new value (`null`: deleted), the value before (`null`: absent; `undefined`: not
 * known, only when old values were not asked for or the engine cannot read synchronously and
 * the key was never read before its first write) and the timestamp of the last write.
 */
export type CacheFlushListener = (
  key: Buffer,
  newValue: Buffer | null,
  oldValue: Buffer | null | undefined,
  timestamp: number,
) => void;

/** Characters above any latin1 character: `prefix + PREFIX_END` bounds every key with `prefix`. */
const PREFIX_END = '\u0100';

/**
 * The caching layer: reads and writes go through the process-wide {@link RecordCache}.
 * Repeated writes to a key collapse into one dirty entry; dirty entries are written through
 * to the store below (the change-logging layer, so the changelog too) when the cache flushes
 * on `flush()` (the commit) or evicts, and then handed to the flush listener (the DSL forwards
 * them downstream). Caching changes how often updates are emitted, never durability: every
 * write is in the changelog before the commit that covers it completes.
 *
 * Engines without synchronous reads: {@link prefetch} loads a batch's keys in one
 * `getManyAsync`, so the batch's synchronous reads are served from the cache or the batch's
 * read set; a synchronous read of a key never loaded throws `SyncReadUnavailableError`.
 * `delete` of a key such an engine has not loaded is a blind delete.
 */
export class CachingBytesStore extends WrappedBytesStore {
  private cache: NamedCache | undefined;
  private owner: RecordCache | undefined;
  private context: StateStoreContext | undefined;
  private listener: CacheFlushListener | undefined;
  private sendOldValues = false;
  private readonly prefetched = new PrefetchedReads();
  private syncInner = true;
  /** Bumped on every close, so that iterators can tell they outlived their open period. */
  private generation = 0;

  constructor(inner: BytesStore) {
    super(inner);
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
    const cache = this.cache;
    return cache
      ? { hits: cache.hits, misses: cache.misses, entries: cache.size, sizeBytes: cache.sizeBytes }
      : { hits: 0, misses: 0, entries: 0, sizeBytes: 0 };
  }

  override async init(context: StateStoreContext): Promise<void> {
    if (this.cache !== undefined) return; // open: idempotent
    await super.init(context);
    this.context = context;
    this.syncInner = this.inner.capabilities.syncReads;
    this.owner = RecordCache.of(context);
    this.cache = this.owner.createNamespace(`${context.taskId.toString()}-${this.name}`, (e) =>
      this.writeThrough(e),
    );
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
    const k = key.toString('latin1');
    const entry = cache.get(k);
    if (entry !== undefined) return entry.value ?? undefined;
    return this.readMiss(cache, k, key);
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
    const entry = this.requireCache().peek(key.toString('latin1'));
    if (entry !== undefined) return entry.value ?? undefined;
    if (!this.syncInner) throw new SyncReadUnavailableError(this.name);
    return this.inner.get(key);
  }

  override getMany(keys: readonly Buffer[]): (Buffer | undefined)[] {
    const result = new Array<Buffer | undefined>(keys.length);
    for (let i = 0; i < keys.length; i++) result[i] = this.get(keys[i]);
    return result;
  }

  override async getAsync(key: Buffer): Promise<Buffer | undefined> {
    const entry = this.requireCache().peek(key.toString('latin1'));
    if (entry !== undefined) return entry.value ?? undefined;
    return this.inner.getAsync(key);
  }

  override async getManyAsync(keys: readonly Buffer[]): Promise<(Buffer | undefined)[]> {
    const cache = this.requireCache();
    const result = new Array<Buffer | undefined>(keys.length);
    const missing: Buffer[] = [];
    const positions: number[] = [];
    for (let i = 0; i < keys.length; i++) {
      const entry = cache.peek(keys[i].toString('latin1'));
      if (entry !== undefined) {
        result[i] = entry.value ?? undefined;
      } else {
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

  override put(key: Buffer, value: Buffer | null): void {
    const cache = this.requireCache();
    checkWrite(key, value);
    const k = key.toString('latin1');
    if (this.syncInner) this.prefetched.noteWriteIfKnown(k, value);
    else this.prefetched.noteWrite(k, value);
    cache.putDirty(k, key, value, (this.context as StateStoreContext).currentTimestamp());
  }

  override putAll(writes: readonly BytesWrite[]): void {
    for (let i = 0; i < writes.length; i++) checkWrite(writes[i].key, writes[i].value);
    for (let i = 0; i < writes.length; i++) this.put(writes[i].key, writes[i].value);
  }

  override putIfAbsent(key: Buffer, value: Buffer): Buffer | undefined {
    const existing = this.get(key);
    if (existing === undefined) this.put(key, value);
    return existing;
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

  override range(
    from: Buffer | undefined,
    to: Buffer | undefined,
  ): IterableIterator<KeyValueBytes> {
    const dirty = this.requireCache().dirtyRange(latin1(from), latin1(to), false);
    return mergeDirtyEntries(dirty, this.inner.range(from, to), false, this.openGuard());
  }

  override reverseRange(
    from: Buffer | undefined,
    to: Buffer | undefined,
  ): IterableIterator<KeyValueBytes> {
    const dirty = this.requireCache().dirtyRange(latin1(from), latin1(to), true);
    return mergeDirtyEntries(dirty, this.inner.reverseRange(from, to), true, this.openGuard());
  }

  override prefixScan(prefix: Buffer): IterableIterator<KeyValueBytes> {
    const p = prefix.toString('latin1');
    const dirty = this.requireCache().dirtyRange(p, p + PREFIX_END, false, true);
    return mergeDirtyEntries(dirty, this.inner.prefixScan(prefix), false, this.openGuard());
  }

  override all(): IterableIterator<KeyValueBytes> {
    return this.range(undefined, undefined);
  }

  override reverseAll(): IterableIterator<KeyValueBytes> {
    return this.reverseRange(undefined, undefined);
  }

  override async rangeAsync(
    from: Buffer | undefined,
    to: Buffer | undefined,
    reverse = false,
  ): Promise<KeyValueBytes[]> {
    const dirty = this.requireCache().dirtyRange(latin1(from), latin1(to), reverse);
    return mergeDirtyEntriesIntoArray(
      dirty,
      await this.inner.rangeAsync(from, to, reverse),
      reverse,
    );
  }

  override async prefixScanAsync(prefix: Buffer): Promise<KeyValueBytes[]> {
    const p = prefix.toString('latin1');
    const dirty = this.requireCache().dirtyRange(p, p + PREFIX_END, false, true);
    return mergeDirtyEntriesIntoArray(dirty, await this.inner.prefixScanAsync(prefix), false);
  }

  /** Writes the dirty entries through (to the changelog too), then flushes the store below. */
  override async flush(): Promise<void> {
    this.cache?.flush();
    await this.inner.flush();
  }

  /** Writes the dirty entries through, drops the namespace and closes the store below. */
  override async close(): Promise<void> {
    if (this.cache && this.owner) {
      if (this.inner.isOpen()) this.cache.flush();
      this.owner.closeNamespace(this.cache.name);
      this.cache = undefined;
      this.generation++;
    }
    this.prefetched.clear();
    await this.inner.close();
  }

  /** Drops the cached entries unwritten and destroys the store below. */
  override async destroy(): Promise<void> {
    if (this.cache && this.owner) {
      this.owner.closeNamespace(this.cache.name);
      this.cache = undefined;
      this.generation++;
    }
    this.prefetched.clear();
    await this.inner.destroy();
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

  private writeThrough(entries: FlushedEntry[]): void {
    const listener = this.listener;
    if (listener !== undefined && this.sendOldValues && this.syncInner) {
      let unknown: Buffer[] | undefined;
      for (let i = 0; i < entries.length; i++) {
        if (entries[i].oldValue === undefined) (unknown ??= []).push(entries[i].key);
      }
      if (unknown !== undefined) {
        const olds = this.inner.getMany(unknown);
        let j = 0;
        for (let i = 0; i < entries.length; i++) {
          if (entries[i].oldValue === undefined) entries[i].oldValue = olds[j++] ?? null;
        }
      }
    }
    this.inner.putAll(entries);
    if (listener !== undefined) {
      for (let i = 0; i < entries.length; i++) {
        const e = entries[i];
        listener(e.key, e.value, this.sendOldValues ? e.oldValue : undefined, e.timestamp);
      }
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

function latin1(key: Buffer | undefined): string | undefined {
  return key === undefined ? undefined : key.toString('latin1');
}

function notOpen(name: string): Error {
  return new StoreClosedError(name, 'is not initialized (or closed)');
}
