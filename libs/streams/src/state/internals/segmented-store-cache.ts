import { StoreClosedError } from '../../errors/store-closed.error';
import type { StateStoreContext } from '../../processor/state-store-context';
import type { CacheEntry, FlushedEntry, NamedCache } from './named-cache';
import { RecordCache } from './record-cache';
import type { TimestampedBytesWrite } from './wrapped-segmented-store';

/** How a segmented store (window, session) lays out its keys, as its cache needs to know. */
export interface SegmentedCacheSchema<E> {
  /** The time that places a store key in a segment (window start; session end). */
  segmentTime(storeKey: Buffer): number;
  /** The entry a read returns for a cached store key and value. */
  toEntry(storeKey: Buffer, value: Buffer): E;
  /** The store key of an entry read from the store below. */
  storeKeyOf(entry: E): Buffer;
}

/** The segmented store a cache sits on: its retention and the stream time it has seen. */
export interface SegmentedCacheTarget {
  readonly name: string;
  readonly retentionPeriodMs: number;
  readonly segmentIntervalMs: number;
  readonly capabilities: { readonly syncReads: boolean };
  observedStreamTime(): number;
}

/** How the cache reads and writes one store key of the store below (the layer's own API). */
export interface SegmentedCacheBelow {
  /** The stored value of a store key, synchronously (only called when `syncReads`). */
  read(storeKey: Buffer): Buffer | undefined;
  /** Writes flushed entries (by store key, with the timestamps of their last writes), in order. */
  writeAll(writes: readonly TimestampedBytesWrite[]): void;
}

/**
 * Receives the entries the cache writes through, after they are written: the store key, the
 * new value (`null`: deleted), the value before (`null`: absent; `undefined`: not asked for,
 * or the store below cannot read synchronously) and the timestamp of the last write.
 */
export type SegmentedCacheFlushListener = (
  storeKey: Buffer,
  newValue: Buffer | null,
  oldValue: Buffer | null | undefined,
  timestamp: number,
) => void;

/** Characters above any latin1 character: `prefix + PREFIX_END` bounds every key with `prefix`. */
const PREFIX_END = '\u0100';

interface Candidate<E> {
  readonly storeKey: Buffer;
  readonly segment: number;
  /** `undefined` for a cached delete (it hides the stored entry). */
  readonly entry: E | undefined;
}

/**
 * The record-cache part shared by the caching layers of segmented stores (window and session
 * stores, Kafka Streams' `CachingWindowStore` and `CachingSessionStore`): one namespace of the
 * process-wide {@link RecordCache} keyed by store keys, stream time that counts cached writes,
 * retention applied to cached and stored entries alike, and reads that merge dirty entries
 * over the store below in its order (segment, then store key; reversed for backward reads).
 * The layers add their store's API on top; `writeThrough` receives what the cache flushes.
 *
 * Errors: every method but `init` throws `StoreClosedError` before `init` and after
 * `close`/`destroy`.
 */
export class SegmentedStoreCache<E> {
  private cache: NamedCache | undefined;
  private owner: RecordCache | undefined;
  private context: StateStoreContext | undefined;
  /** The largest segment time written into the cache since `init`. */
  private cachedStreamTime = -1;
  private listener: SegmentedCacheFlushListener | undefined;
  private sendOldValues = false;

  constructor(
    private readonly target: SegmentedCacheTarget,
    private readonly schema: SegmentedCacheSchema<E>,
    private readonly below: SegmentedCacheBelow,
  ) {}

  /**
   * Sets the listener of the entries the cache writes through; with `sendOldValues` each one
   * carries the value the store below held before (read when it can read synchronously).
   */
  setFlushListener(listener: SegmentedCacheFlushListener, sendOldValues: boolean): void {
    this.listener = listener;
    this.sendOldValues = sendOldValues;
  }

  get isOpen(): boolean {
    return this.cache !== undefined;
  }

  /** Binds the task's cache namespace (`<taskId>-<store>`). Idempotent while open. */
  init(context: StateStoreContext): void {
    if (this.cache !== undefined) return;
    this.context = context;
    this.cachedStreamTime = -1;
    this.owner = RecordCache.of(context);
    this.cache = this.owner.createNamespace(
      `${context.taskId.toString()}-${this.target.name}`,
      (entries) => this.writeThrough(entries),
    );
  }

  /**
   * Writes flushed entries to the store below, then hands them to the listener. A removal of
   * something the store below never held is neither written nor forwarded (Kafka Streams'
   * optimisation: downstream never saw it), when the store below can tell synchronously.
   */
  private writeThrough(entries: FlushedEntry[]): void {
    const listener = this.listener;
    const sync = this.target.capabilities.syncReads;
    const readOld = listener !== undefined && this.sendOldValues;
    const written: FlushedEntry[] = [];
    // Each key is flushed once: the old values can all be read before the batch is written.
    for (const entry of entries) {
      if (sync && entry.oldValue === undefined && (readOld || entry.value === null)) {
        entry.oldValue = this.below.read(entry.key) ?? null;
      }
      if (entry.value === null && entry.oldValue === null) continue;
      written.push(entry);
    }
    if (written.length > 0) this.below.writeAll(written);
    if (listener === undefined) return;
    for (const entry of written) {
      listener(
        entry.key,
        entry.value,
        this.sendOldValues ? entry.oldValue : undefined,
        entry.timestamp,
      );
    }
  }

  /** Stream time: the store's, or the largest cached write's if later. */
  observedStreamTime(): number {
    return Math.max(this.target.observedStreamTime(), this.cachedStreamTime);
  }

  /** Segment times below this are past retention (the engine's rule, counting cached writes). */
  minLiveTime(): number {
    return Math.max(0, this.observedStreamTime() - this.target.retentionPeriodMs + 1);
  }

  /**
   * Caches a write (dirty) with the current record's timestamp unless one is given.
   * @returns false when the key's segment time is already past retention (nothing cached).
   */
  put(storeKey: Buffer, value: Buffer | null, timestamp?: number): boolean {
    const cache = this.requireCache();
    const time = this.schema.segmentTime(storeKey);
    this.cachedStreamTime = Math.max(this.cachedStreamTime, time);
    if (time < this.minLiveTime()) return false;
    const context = this.context as StateStoreContext;
    cache.putDirty(
      storeKey.toString('latin1'),
      storeKey,
      value,
      timestamp ?? context.currentTimestamp(),
    );
    return true;
  }

  /**
   * The cached entry of a live store key (counted as a hit or a miss), or `undefined` when not
   * cached; `expired` when the key is past retention (the store would not return it either).
   */
  lookup(storeKey: Buffer, touch = true): CacheEntry | 'expired' | undefined {
    const cache = this.requireCache();
    if (this.schema.segmentTime(storeKey) < this.minLiveTime()) return 'expired';
    const k = storeKey.toString('latin1');
    return touch ? cache.get(k) : cache.peek(k);
  }

  /** A point read: the cached value (counted as a hit or a miss), else `readBelow()`'s. */
  get(storeKey: Buffer, readBelow: () => Buffer | undefined): Buffer | undefined {
    const cached = this.lookup(storeKey);
    if (cached === 'expired') return undefined;
    if (cached !== undefined) return cached.value ?? undefined;
    return readBelow();
  }

  /** {@link get} with an asynchronous read below; a write cached meanwhile wins. */
  async getAsync(
    storeKey: Buffer,
    readBelow: () => Promise<Buffer | undefined>,
  ): Promise<Buffer | undefined> {
    const cached = this.lookup(storeKey, false);
    if (cached === 'expired') return undefined;
    if (cached !== undefined) return cached.value ?? undefined;
    const stored = await readBelow();
    const after = this.isOpen ? this.lookup(storeKey, false) : undefined;
    if (after === 'expired') return undefined;
    return after !== undefined ? (after.value ?? undefined) : stored;
  }

  /**
   * The store's entries with the dirty cached ones merged in: a cached entry replaces the
   * stored one with the same store key (a cached delete hides it), entries past retention are
   * left out, and the order is the store's (segment, then store key; reversed if `backward`).
   *
   * @param prefix restricts the cached candidates to store keys starting with these bytes
   * @param from restricts them to store keys at or after these bytes
   * @param accept whether a cached store key matches the read
   */
  *merge(
    stored: Iterator<E>,
    candidates: { prefix?: Buffer; from?: Buffer; accept: (storeKey: Buffer) => boolean },
    backward: boolean,
  ): IterableIterator<E> {
    const cached = this.candidates(candidates, backward);
    // The store below learns stream time from cached writes only when they are flushed.
    const minLive = this.minLiveTime();
    const nextLive = (): IteratorResult<E> => {
      let result = stored.next();
      while (
        !result.done &&
        this.schema.segmentTime(this.schema.storeKeyOf(result.value)) < minLive
      ) {
        result = stored.next();
      }
      return result;
    };
    let next = nextLive();
    let i = 0;
    while (!next.done || i < cached.length) {
      let order: number;
      if (next.done) order = -1;
      else if (i >= cached.length) order = 1;
      else {
        const storeKey = this.schema.storeKeyOf(next.value);
        const c = cached[i];
        order =
          c.segment - this.segmentOf(this.schema.segmentTime(storeKey)) ||
          Buffer.compare(c.storeKey, storeKey);
        if (backward) order = -order;
      }
      if (order <= 0) {
        const entry = cached[i++].entry;
        if (entry !== undefined) yield entry;
        if (order === 0) next = nextLive();
      } else {
        yield next.value as E;
        next = nextLive();
      }
    }
  }

  /** Writes every dirty entry through (see the constructor's `writeThrough`). */
  flush(): void {
    this.cache?.flush();
  }

  /** Drops the namespace, writing the dirty entries through first when `flush`. */
  close(flush: boolean): void {
    if (this.cache && this.owner) {
      if (flush) this.cache.flush();
      this.owner.closeNamespace(this.cache.name);
      this.cache = undefined;
    }
  }

  private candidates(
    { prefix, from, accept }: { prefix?: Buffer; from?: Buffer; accept: (k: Buffer) => boolean },
    backward: boolean,
  ): Candidate<E>[] {
    const cache = this.requireCache();
    if (cache.dirtyCount === 0) return [];
    const minLive = this.minLiveTime();
    const p = prefix?.toString('latin1');
    const entries =
      p === undefined
        ? cache.dirtyRange(from?.toString('latin1'), undefined, false)
        : cache.dirtyRange(p, p + PREFIX_END, false, true);
    const matches: Candidate<E>[] = [];
    for (const { key: storeKey, value } of entries) {
      const time = this.schema.segmentTime(storeKey);
      if (time < minLive || !accept(storeKey)) continue;
      matches.push({
        storeKey,
        segment: this.segmentOf(time),
        entry: value === null ? undefined : this.schema.toEntry(storeKey, value),
      });
    }
    // Entries come in store-key order; a stable sort by segment gives the store's order.
    matches.sort((a, b) => a.segment - b.segment);
    if (backward) matches.reverse();
    return matches;
  }

  private segmentOf(time: number): number {
    return Math.floor(time / this.target.segmentIntervalMs);
  }

  private requireCache(): NamedCache {
    const cache = this.cache;
    if (cache === undefined) {
      throw new StoreClosedError(this.target.name, 'is not initialized (or closed)');
    }
    return cache;
  }
}
