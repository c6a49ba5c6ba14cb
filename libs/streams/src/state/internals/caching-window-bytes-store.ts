import { StoreClosedError } from '../../errors/store-closed.error';
import type { StateStoreContext } from '../state-store-context';
import type { BytesStoreCapabilities, BytesWrite } from './bytes-store';
import type { FlushedEntry, NamedCache } from './named-cache';
import { RecordCache } from './record-cache';
import type { RestoreBatchResult } from './segmented-bytes.store';
import type {
  WindowBytesEntry,
  WindowBytesStore,
  WindowRangeQuery,
} from './segmented-window-bytes.store';
import { WINDOW_STORE_SUFFIX_SIZE, WindowKeySchema } from './window-key-schema';
import { initWindowStack } from './window-stack';

/**
 * Receives the windows the cache writes through, after they are written: the store key
 * (`[key][window start][seqnum]`), the new value (`null`: deleted), the value before (`null`:
 * absent; `undefined`: not asked for, or the engine cannot read synchronously) and the
 * timestamp of the last write.
 */
export type WindowCacheFlushListener = (
  storeKey: Buffer,
  newValue: Buffer | null,
  oldValue: Buffer | null | undefined,
  timestamp: number,
) => void;

/** Characters above any latin1 character: `prefix + PREFIX_END` bounds every key with `prefix`. */
const PREFIX_END = '\u0100';

/** A dirty cached window matching a read, with what ordering needs. */
interface CachedWindow {
  readonly storeKey: Buffer;
  readonly segment: number;
  readonly entry: WindowBytesEntry | undefined;
}

/**
 * The caching layer of window stores (Kafka Streams' `CachingWindowStore`): writes go to the
 * process-wide {@link RecordCache} keyed by the store key, so repeated updates of one window
 * collapse into one dirty entry; dirty windows are written through to the layer below (the
 * change-logging layer, so the changelog too) when the cache flushes on `flush()` (the
 * commit) or evicts, and then handed to the flush listener (the DSL forwards them
 * downstream). Reads merge the dirty windows over the store below, in the store's order.
 *
 * Writes of windows already past retention (by the stream time of the store and of the
 * cached writes) are dropped, as the engine drops them. Caching never changes what is stored
 * nor durability: every write is in the changelog before the commit that covers it completes.
 * Stores retaining duplicates (stream-stream joins) are never cached (the builder skips this
 * layer for them, as Kafka Streams does).
 *
 * Errors: reads and writes before `init` or after `close` throw `StoreClosedError`; the layer
 * below's errors pass through.
 */
export class CachingWindowBytesStore implements WindowBytesStore {
  private cache: NamedCache | undefined;
  private owner: RecordCache | undefined;
  private context: StateStoreContext | undefined;
  private listener: WindowCacheFlushListener | undefined;
  private sendOldValues = false;
  /** The largest window start written into the cache since open. */
  private cachedStreamTime = -1;

  constructor(readonly inner: WindowBytesStore) {}

  get name(): string {
    return this.inner.name;
  }
  get capabilities(): BytesStoreCapabilities {
    return this.inner.capabilities;
  }
  get windowSizeMs(): number {
    return this.inner.windowSizeMs;
  }
  get retentionPeriodMs(): number {
    return this.inner.retentionPeriodMs;
  }
  get segmentIntervalMs(): number {
    return this.inner.segmentIntervalMs;
  }
  get retainDuplicates(): boolean {
    return this.inner.retainDuplicates;
  }

  /**
   * Sets the listener of the windows the cache writes through; with `sendOldValues` each one
   * carries the value the store held before (read from the store below when it can read
   * synchronously). Returns true (this layer forwards flushes).
   */
  setFlushListener(listener: WindowCacheFlushListener, sendOldValues: boolean): boolean {
    this.listener = listener;
    this.sendOldValues = sendOldValues;
    return true;
  }

  /** Opens the layers below (binding the task's collector) and the cache namespace. */
  async init(context: StateStoreContext): Promise<void> {
    if (this.cache !== undefined) return;
    await initWindowStack(this.inner, context);
    this.context = context;
    this.cachedStreamTime = -1;
    this.owner = context.cache ?? RecordCache.processWide();
    this.cache = this.owner.createNamespace(`${context.taskId.toString()}-${this.name}`, (e) =>
      this.writeThrough(e),
    );
  }

  open(): Promise<void> {
    if (this.context !== undefined && this.cache === undefined) return this.init(this.context);
    return this.inner.open();
  }
  isOpen(): boolean {
    return this.cache !== undefined && this.inner.isOpen();
  }
  observedStreamTime(): number {
    return Math.max(this.inner.observedStreamTime(), this.cachedStreamTime);
  }

  put(
    key: Buffer,
    value: Buffer | null,
    windowStart: number,
    timestamp?: number,
  ): Buffer | undefined {
    const cache = this.requireCache();
    const storeKey = WindowKeySchema.toStoreKeyBinary(key, windowStart, 0);
    this.cachedStreamTime = Math.max(this.cachedStreamTime, windowStart);
    if (windowStart < this.minLiveTime()) return undefined;
    cache.putDirty(
      storeKey.toString('latin1'),
      storeKey,
      value,
      timestamp ?? this.requireContext().currentTimestamp(),
    );
    return storeKey;
  }

  fetch(key: Buffer, windowStart: number): Buffer | undefined {
    const cache = this.requireCache();
    if (windowStart < this.minLiveTime()) return undefined;
    const entry = cache.get(
      WindowKeySchema.toStoreKeyBinary(key, windowStart, 0).toString('latin1'),
    );
    if (entry !== undefined) return entry.value ?? undefined;
    return this.inner.fetch(key, windowStart);
  }

  async fetchAsync(key: Buffer, windowStart: number): Promise<Buffer | undefined> {
    const cache = this.requireCache();
    if (windowStart < this.minLiveTime()) return undefined;
    const k = WindowKeySchema.toStoreKeyBinary(key, windowStart, 0).toString('latin1');
    const entry = cache.peek(k);
    if (entry !== undefined) return entry.value ?? undefined;
    const stored = await this.inner.fetchAsync(key, windowStart);
    // A write may have landed in the cache while the read was in flight.
    const after = this.cache?.peek(k);
    return after !== undefined ? (after.value ?? undefined) : stored;
  }

  range(query: WindowRangeQuery): IterableIterator<WindowBytesEntry> {
    this.requireCache();
    return this.merge(this.inner.range(query), query);
  }

  async rangeAsync(query: WindowRangeQuery): Promise<WindowBytesEntry[]> {
    this.requireCache();
    const stored = await this.inner.rangeAsync(query);
    return [...this.merge(stored[Symbol.iterator](), query)];
  }

  /** Restores go straight to the store below; the cache is empty while a task restores. */
  restoreAll(records: readonly BytesWrite[]): RestoreBatchResult {
    return this.inner.restoreAll(records);
  }

  approximateNumEntries(): number {
    return this.inner.approximateNumEntries();
  }

  /** Writes the dirty windows through (to the changelog too), then flushes the store below. */
  async flush(): Promise<void> {
    this.cache?.flush();
    await this.inner.flush();
  }

  /** Writes the dirty windows through, drops the namespace and closes the store below. */
  async close(): Promise<void> {
    if (this.cache && this.owner) {
      if (this.inner.isOpen()) this.cache.flush();
      this.owner.closeNamespace(this.cache.name);
      this.cache = undefined;
    }
    await this.inner.close();
  }

  /** Drops the cached windows unwritten and destroys the store below. */
  async destroy(): Promise<void> {
    if (this.cache && this.owner) {
      this.owner.closeNamespace(this.cache.name);
      this.cache = undefined;
    }
    await this.inner.destroy();
  }

  /** Window starts below this are past retention (the engine's rule, with cached writes). */
  private minLiveTime(): number {
    return Math.max(0, this.observedStreamTime() - this.retentionPeriodMs + 1);
  }

  private writeThrough(entries: FlushedEntry[]): void {
    const listener = this.listener;
    const readOld = listener !== undefined && this.sendOldValues && this.capabilities.syncReads;
    for (const entry of entries) {
      const { key, windowStart } = WindowKeySchema.fromStoreKey(entry.key);
      if (readOld && entry.oldValue === undefined) {
        entry.oldValue = this.inner.fetch(key, windowStart) ?? null;
      }
      this.inner.put(key, entry.value, windowStart, entry.timestamp);
    }
    if (listener === undefined) return;
    for (const entry of entries) {
      listener(
        entry.key,
        entry.value,
        this.sendOldValues ? entry.oldValue : undefined,
        entry.timestamp,
      );
    }
  }

  /**
   * The store's entries with the dirty cached windows matching `query` merged in: a cached
   * window replaces the stored one (a cached delete hides it), in the store's order (segment,
   * then store key; reversed for backward reads).
   */
  private *merge(
    stored: Iterator<WindowBytesEntry>,
    query: WindowRangeQuery,
  ): IterableIterator<WindowBytesEntry> {
    const cached = this.cachedMatches(query);
    const backward = query.backward === true;
    // The store below learns stream time from cached writes only when they are flushed.
    const minLive = this.minLiveTime();
    const nextLive = (): IteratorResult<WindowBytesEntry> => {
      let result = stored.next();
      while (!result.done && result.value.windowStart < minLive) result = stored.next();
      return result;
    };
    let next = nextLive();
    let i = 0;
    while (!next.done || i < cached.length) {
      let order: number;
      let storeKey: Buffer | undefined;
      if (next.done) order = -1;
      else if (i >= cached.length) order = 1;
      else {
        const e = next.value;
        storeKey = WindowKeySchema.toStoreKeyBinary(e.key, e.windowStart, e.seqnum);
        const c = cached[i];
        order = c.segment - this.segmentOf(e.windowStart) || Buffer.compare(c.storeKey, storeKey);
        if (backward) order = -order;
      }
      if (order <= 0) {
        const entry = cached[i++].entry;
        if (entry !== undefined) yield entry;
        if (order === 0) next = nextLive();
      } else {
        yield next.value as WindowBytesEntry;
        next = nextLive();
      }
    }
  }

  /** Dirty cached windows matching `query`, in the order of the store's reads. */
  private cachedMatches(query: WindowRangeQuery): CachedWindow[] {
    const cache = this.requireCache();
    if (cache.dirtyCount === 0) return [];
    const timeFrom = Math.max(query.timeFrom ?? 0, this.minLiveTime());
    const timeTo = query.timeTo ?? Number.POSITIVE_INFINITY;
    if (timeFrom > timeTo) return [];
    const prefix = query.key?.toString('latin1');
    const candidates =
      prefix === undefined
        ? cache.dirtyRange(query.keyFrom?.toString('latin1'), undefined, false)
        : cache.dirtyRange(prefix, prefix + PREFIX_END, false, true);
    const matches: CachedWindow[] = [];
    for (const candidate of candidates) {
      const storeKey = candidate.key;
      const parts = WindowKeySchema.fromStoreKey(storeKey);
      if (parts.windowStart < timeFrom || parts.windowStart > timeTo) continue;
      if (query.key !== undefined) {
        if (storeKey.length !== query.key.length + WINDOW_STORE_SUFFIX_SIZE) continue;
      } else {
        if (query.keyFrom !== undefined && Buffer.compare(parts.key, query.keyFrom) < 0) continue;
        if (query.keyTo !== undefined && Buffer.compare(parts.key, query.keyTo) > 0) continue;
      }
      matches.push({
        storeKey,
        segment: this.segmentOf(parts.windowStart),
        entry:
          candidate.value === null
            ? undefined
            : { key: parts.key, windowStart: parts.windowStart, seqnum: 0, value: candidate.value },
      });
    }
    // Candidates come in store-key order; a stable sort by segment gives the store's order.
    matches.sort((a, b) => a.segment - b.segment);
    if (query.backward === true) matches.reverse();
    return matches;
  }

  private segmentOf(windowStart: number): number {
    return Math.floor(windowStart / this.segmentIntervalMs);
  }

  private requireContext(): StateStoreContext {
    const context = this.context;
    if (context === undefined) throw new StoreClosedError(this.name, 'is not initialized');
    return context;
  }

  private requireCache(): NamedCache {
    const cache = this.cache;
    if (cache === undefined)
      throw new StoreClosedError(this.name, 'is not initialized (or closed)');
    return cache;
  }
}
