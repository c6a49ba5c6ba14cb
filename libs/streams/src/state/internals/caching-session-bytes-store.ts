import type { StateStoreContext } from '../../processor/state-store-context';
import { initStack } from './layer-stack';
import type {
  SessionBytesEntry,
  SessionBytesStore,
  SessionQuery,
} from './segmented-session-bytes.store';
import {
  SegmentedStoreCache,
  type SegmentedCacheFlushListener,
  type SegmentedCacheSchema,
} from './segmented-store-cache';
import { SESSION_SUFFIX_SIZE, SessionKeySchema } from './session-key-schema';
import { WrappedSegmentedStore, type TimestampedBytesWrite } from './wrapped-segmented-store';

/** Receives the sessions the cache writes through (see {@link SegmentedCacheFlushListener}). */
export type SessionCacheFlushListener = SegmentedCacheFlushListener;

const SESSION_CACHE_SCHEMA: SegmentedCacheSchema<SessionBytesEntry> = {
  segmentTime: (sessionKey) => SessionKeySchema.extractEndTimestamp(sessionKey),
  toEntry: (sessionKey, value) => {
    const { key, start, end } = SessionKeySchema.fromBinary(sessionKey);
    return { key, start, end, value };
  },
  storeKeyOf: (entry) => SessionKeySchema.toBinary(entry.key, entry.start, entry.end),
};

/**
 * The caching layer of session stores (Kafka Streams' `CachingSessionStore`): session writes
 * and removals go to the process-wide record cache keyed by the session key, so a session that
 * grows record after record (or is merged away) costs one dirty entry until the cache flushes
 * on `flush()` (the commit) or evicts; then the dirty sessions are written through to the layer
 * below (the change-logging layer, so the changelog too) in write order and handed to the
 * flush listener (the DSL forwards them downstream). Reads merge the dirty sessions over the
 * store below in its order, a cached removal hiding the stored session.
 *
 * Errors: reads and writes before `init` or after `close` throw `StoreClosedError`; the layer
 * below's errors pass through.
 */
export class CachingSessionBytesStore
  extends WrappedSegmentedStore<SessionBytesStore>
  implements SessionBytesStore
{
  private readonly cache: SegmentedStoreCache<SessionBytesEntry>;
  private context: StateStoreContext | undefined;

  constructor(inner: SessionBytesStore) {
    super(inner);
    this.cache = new SegmentedStoreCache(inner, SESSION_CACHE_SCHEMA, {
      read: (sessionKey) => {
        const { key, start, end } = SessionKeySchema.fromBinary(sessionKey);
        return inner.fetchSession(key, start, end);
      },
      writeAll: (writes) => {
        inner.putAll(writes);
      },
    });
  }

  /**
   * Sets the listener of the sessions the cache writes through; with `sendOldValues` each one
   * carries the aggregate the store held before (read from the store below when it can read
   * synchronously). Returns true (this layer forwards flushes).
   */
  setFlushListener(listener: SessionCacheFlushListener, sendOldValues: boolean): boolean {
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
    start: number,
    end: number,
    value: Buffer | null,
    timestamp?: number,
  ): Buffer | undefined {
    const sessionKey = SessionKeySchema.toBinary(key, start, end);
    return this.cache.put(sessionKey, value, timestamp) ? sessionKey : undefined;
  }

  remove(key: Buffer, start: number, end: number): Buffer | undefined {
    return this.put(key, start, end, null);
  }

  fetchSession(key: Buffer, start: number, end: number): Buffer | undefined {
    return this.cache.get(SessionKeySchema.toBinary(key, start, end), () =>
      this.inner.fetchSession(key, start, end),
    );
  }

  fetchSessionAsync(key: Buffer, start: number, end: number): Promise<Buffer | undefined> {
    return this.cache.getAsync(SessionKeySchema.toBinary(key, start, end), () =>
      this.inner.fetchSessionAsync(key, start, end),
    );
  }

  findSessions(query: SessionQuery): IterableIterator<SessionBytesEntry> {
    return this.cache.merge(
      this.inner.findSessions(query),
      this.matching(query),
      query.backward === true,
    );
  }

  async findSessionsAsync(query: SessionQuery): Promise<SessionBytesEntry[]> {
    const stored = await this.inner.findSessionsAsync(query);
    return [
      ...this.cache.merge(stored[Symbol.iterator](), this.matching(query), query.backward === true),
    ];
  }

  /** Caches each write by store key (dirty), as `put` does. */
  override putAll(writes: readonly TimestampedBytesWrite[]): boolean[] {
    return writes.map((w) => this.cache.put(w.key, w.value, w.timestamp));
  }

  /** Writes the dirty sessions through (to the changelog too), then flushes the store below. */
  override async flush(): Promise<void> {
    this.cache.flush();
    await this.inner.flush();
  }

  /** Writes the dirty sessions through, drops the namespace and closes the store below. */
  override async close(): Promise<void> {
    this.cache.close(this.inner.isOpen());
    await this.inner.close();
  }

  /** Drops the cached sessions unwritten and destroys the store below. */
  override async destroy(): Promise<void> {
    this.cache.close(false);
    await this.inner.destroy();
  }

  /** Which cached session keys a read covers (the engine's rules for `query`). */
  private matching(query: SessionQuery): {
    prefix?: Buffer;
    from?: Buffer;
    accept: (sessionKey: Buffer) => boolean;
  } {
    const earliestEnd = query.earliestSessionEndTime ?? 0;
    const latestStart = query.latestSessionStartTime ?? Number.POSITIVE_INFINITY;
    const { key, keyFrom, keyTo } = query;
    return {
      prefix: key,
      from: keyFrom,
      accept: (sessionKey) => {
        const parts = SessionKeySchema.fromBinary(sessionKey);
        if (parts.end < earliestEnd || parts.start > latestStart) return false;
        if (key !== undefined) return sessionKey.length === key.length + SESSION_SUFFIX_SIZE;
        return (
          (keyFrom === undefined || Buffer.compare(parts.key, keyFrom) >= 0) &&
          (keyTo === undefined || Buffer.compare(parts.key, keyTo) <= 0)
        );
      },
    };
  }
}
