import type { StateStoreContext } from '../../processor/state-store-context';
import type {
  WindowBytesEntry,
  WindowBytesStore,
  WindowRangeQuery,
} from './segmented-window-bytes.store';
import {
  SegmentedStoreCache,
  type SegmentedCacheFlushListener,
  type SegmentedCacheSchema,
} from './segmented-store-cache';
import { WINDOW_STORE_SUFFIX_SIZE, WindowKeySchema } from './window-key-schema';
import { initStack } from './layer-stack';
import { WrappedSegmentedStore, type TimestampedBytesWrite } from './wrapped-segmented-store';

/** Receives the windows the cache writes through (see {@link SegmentedCacheFlushListener}). */
export type WindowCacheFlushListener = SegmentedCacheFlushListener;

const WINDOW_CACHE_SCHEMA: SegmentedCacheSchema<WindowBytesEntry> = {
  segmentTime: (storeKey) => WindowKeySchema.extractStoreTimestamp(storeKey),
  toEntry: (storeKey, value) => {
    const parts = WindowKeySchema.fromStoreKey(storeKey);
    return { key: parts.key, windowStart: parts.windowStart, seqnum: parts.seqnum, value };
  },
  storeKeyOf: (entry) =>
    WindowKeySchema.toStoreKeyBinary(entry.key, entry.windowStart, entry.seqnum),
};

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
export class CachingWindowBytesStore
  extends WrappedSegmentedStore<WindowBytesStore>
  implements WindowBytesStore
{
  private readonly cache: SegmentedStoreCache<WindowBytesEntry>;
  private context: StateStoreContext | undefined;

  constructor(inner: WindowBytesStore) {
    super(inner);
    this.cache = new SegmentedStoreCache(inner, WINDOW_CACHE_SCHEMA, {
      read: (storeKey) => {
        const { key, windowStart } = WindowKeySchema.fromStoreKey(storeKey);
        return inner.fetch(key, windowStart);
      },
      writeAll: (writes) => {
        inner.putAll(writes);
      },
    });
  }

  get windowSizeMs(): number {
    return this.inner.windowSizeMs;
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
    this.cache.setFlushListener(listener, sendOldValues);
    return true;
  }

  /** Opens the layers below (binding the task's collector) and the cache namespace. */
  async init(context: StateStoreContext): Promise<void> {
    if (this.cache.isOpen) return;
    await initStack(this.inner, context);
    this.context = context;
    this.cache.init(context);
  }

  override open(): Promise<void> {
    if (this.context !== undefined && !this.cache.isOpen) return this.init(this.context);
    return this.inner.open();
  }
  override isOpen(): boolean {
    return this.cache.isOpen && this.inner.isOpen();
  }
  override observedStreamTime(): number {
    return this.cache.observedStreamTime();
  }

  put(
    key: Buffer,
    value: Buffer | null,
    windowStart: number,
    timestamp?: number,
  ): Buffer | undefined {
    const storeKey = WindowKeySchema.toStoreKeyBinary(key, windowStart, 0);
    return this.cache.put(storeKey, value, timestamp) ? storeKey : undefined;
  }

  fetch(key: Buffer, windowStart: number): Buffer | undefined {
    return this.cache.get(WindowKeySchema.toStoreKeyBinary(key, windowStart, 0), () =>
      this.inner.fetch(key, windowStart),
    );
  }

  fetchAsync(key: Buffer, windowStart: number): Promise<Buffer | undefined> {
    return this.cache.getAsync(WindowKeySchema.toStoreKeyBinary(key, windowStart, 0), () =>
      this.inner.fetchAsync(key, windowStart),
    );
  }

  range(query: WindowRangeQuery): IterableIterator<WindowBytesEntry> {
    return this.cache.merge(this.inner.range(query), this.matching(query), query.backward === true);
  }

  async rangeAsync(query: WindowRangeQuery): Promise<WindowBytesEntry[]> {
    const stored = await this.inner.rangeAsync(query);
    return [
      ...this.cache.merge(stored[Symbol.iterator](), this.matching(query), query.backward === true),
    ];
  }

  /** Caches each write by store key (dirty), as `put` does. */
  override putAll(writes: readonly TimestampedBytesWrite[]): boolean[] {
    return writes.map((w) => this.cache.put(w.key, w.value, w.timestamp));
  }

  /** Writes the dirty windows through (to the changelog too), then flushes the store below. */
  override async flush(): Promise<void> {
    this.cache.flush();
    await this.inner.flush();
  }

  /** Writes the dirty windows through, drops the namespace and closes the store below. */
  override async close(): Promise<void> {
    this.cache.close(this.inner.isOpen());
    await this.inner.close();
  }

  /** Drops the cached windows unwritten and destroys the store below. */
  override async destroy(): Promise<void> {
    this.cache.close(false);
    await this.inner.destroy();
  }

  /** Which cached store keys a range read covers. */
  private matching(query: WindowRangeQuery): {
    prefix?: Buffer;
    from?: Buffer;
    accept: (storeKey: Buffer) => boolean;
  } {
    const timeFrom = query.timeFrom ?? 0;
    const timeTo = query.timeTo ?? Number.POSITIVE_INFINITY;
    const { key, keyFrom, keyTo } = query;
    return {
      prefix: key,
      from: keyFrom,
      accept: (storeKey) => {
        const parts = WindowKeySchema.fromStoreKey(storeKey);
        if (parts.windowStart < timeFrom || parts.windowStart > timeTo) return false;
        if (key !== undefined) return storeKey.length === key.length + WINDOW_STORE_SUFFIX_SIZE;
        return (
          (keyFrom === undefined || Buffer.compare(parts.key, keyFrom) >= 0) &&
          (keyTo === undefined || Buffer.compare(parts.key, keyTo) <= 0)
        );
      },
    };
  }
}
