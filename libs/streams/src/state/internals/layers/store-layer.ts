import type { ChangelogRecord, StateStoreContext } from '../../../processor/state-store-context';
import type { BytesStore, BytesWrite, KeyValueBytes } from '../../bytes-store';
import { hasPrefix } from '../byte-range';
import { lowerRangeBound } from '../ordered-bytes';
import { putIfAbsentThrough } from '../read-modify-write';

/**
 * One read of a store stack, in store keys (a key-value store's keys; a window store's
 * `[key][start][seqnum]`; a session store's `[key][end][start]`). The key schema of the store
 * kind turns each typed read into one (see `window-key-schema.ts`, `session-key-schema.ts`).
 */
export interface StoreRange {
  /** Lowest store key, inclusive (open when undefined). */
  readonly lower?: Buffer;
  /** Highest store key, inclusive (open when undefined). */
  readonly upper?: Buffer;
  /** Only store keys starting with these bytes (a key-value prefix scan). */
  readonly prefix?: Buffer;
  /** Descending (segments newest first, then keys descending). */
  readonly backward?: boolean;
  /** Segmented stores: only segments that can hold segment times in `[from, to]`. */
  readonly segmentTimeFrom?: number;
  readonly segmentTimeTo?: number;
  /** Keeps an entry (the bounds may admit more, e.g. longer keys sharing a prefix). */
  accept?(storeKey: Buffer): boolean;
  /**
   * Segmented stores: which entries count as live. `live` (the default): segment times from
   * stream time - retention + 1. `inclusive`: from stream time - retention, as Kafka Streams'
   * time-ordered window store reads (what emitting closed windows reads). `segments`: every
   * entry a live segment still holds, as its time-ordered session store reads.
   */
  readonly retention?: 'live' | 'inclusive' | 'segments';
}

/** A write by store key, with the timestamp to log it with (the current record's if absent). */
export interface StampedWrite extends BytesWrite {
  readonly timestamp?: number;
}

/**
 * The time rules of a segmented store (window, session): each store key has a segment time
 * (window start, session end), stream time is the largest one written, and keys whose time is
 * below `streamTime - retention + 1` are expired: never written, never returned.
 */
export interface SegmentRules {
  readonly retentionPeriodMs: number;
  readonly segmentIntervalMs: number;
  segmentTime(storeKey: Buffer): number;
  /** The largest segment time written or restored since open, `-1` when none. */
  observedStreamTime(): number;
}

/**
 * What every layer (change-logging, caching, prefetching) and every engine adapter of a store
 * stack is, whatever the store kind: a {@link BytesStore} over store keys, plus reads of a
 * {@link StoreRange}, writes that say which were applied, and restore straight into the engine.
 */
export interface StoreLayer extends BytesStore {
  /** The segment rules of a window or session store; `undefined` for key-value stores. */
  readonly segments: SegmentRules | undefined;
  /** Binds the task (collector, cache) and opens what is below. */
  init(context: StateStoreContext): Promise<void>;
  /** Live entries of `range`, synchronously (needs `capabilities.syncReads`). */
  read(range: StoreRange): IterableIterator<KeyValueBytes>;
  /** {@link read}, asynchronously into an array (every engine). */
  readAsync(range: StoreRange): Promise<KeyValueBytes[]>;
  /** Writes in order; per write, whether it was applied (false: past retention). */
  write(writes: readonly StampedWrite[]): boolean[];
  /**
   * Applies changelog records (store keys) to the engine, skipping expired ones; a promise when
   * the engine writes off the main thread (await it before the next batch).
   */
  restore(records: readonly BytesWrite[]): void | Promise<void>;
  /**
   * {@link restore} of a timestamped store's changelog records, each record's timestamp in
   * front of its value; optional (without it, the caller builds the stamped values).
   */
  restoreWithTimestamps?(records: readonly ChangelogRecord[]): void | Promise<void>;
}

/**
 * The {@link BytesStore} calls every layer and engine adapter shares, made of its own reads and
 * writes: a subclass implements `get`, `getAsync`, `read`, `readAsync` and `write`.
 */
export abstract class AbstractStoreLayer {
  abstract get(key: Buffer): Buffer | undefined;
  abstract getAsync(key: Buffer): Promise<Buffer | undefined>;
  abstract read(range: StoreRange): IterableIterator<KeyValueBytes>;
  abstract readAsync(range: StoreRange): Promise<KeyValueBytes[]>;
  abstract write(writes: readonly StampedWrite[]): boolean[];

  getMany(keys: readonly Buffer[]): (Buffer | undefined)[] {
    return keys.map((key) => this.get(key));
  }

  getManyAsync(keys: readonly Buffer[]): Promise<(Buffer | undefined)[]> {
    return Promise.all(keys.map((key) => this.getAsync(key)));
  }

  put(key: Buffer, value: Buffer | null): void {
    this.write([{ key, value }]);
  }

  putAll(writes: readonly BytesWrite[]): void {
    this.write(writes);
  }

  putIfAbsent(key: Buffer, value: Buffer): Buffer | undefined {
    return putIfAbsentThrough(this, key, value);
  }

  delete(key: Buffer): Buffer | undefined {
    const old = this.get(key);
    this.put(key, null);
    return old;
  }

  range(from: Buffer | undefined, to: Buffer | undefined): IterableIterator<KeyValueBytes> {
    return this.read({ lower: from, upper: to });
  }

  reverseRange(from: Buffer | undefined, to: Buffer | undefined): IterableIterator<KeyValueBytes> {
    return this.read({ lower: from, upper: to, backward: true });
  }

  prefixScan(prefix: Buffer): IterableIterator<KeyValueBytes> {
    return this.read({ prefix });
  }

  all(): IterableIterator<KeyValueBytes> {
    return this.read({});
  }

  reverseAll(): IterableIterator<KeyValueBytes> {
    return this.read({ backward: true });
  }

  rangeAsync(
    from: Buffer | undefined,
    to: Buffer | undefined,
    reverse = false,
  ): Promise<KeyValueBytes[]> {
    return this.readAsync({ lower: from, upper: to, backward: reverse });
  }

  prefixScanAsync(prefix: Buffer): Promise<KeyValueBytes[]> {
    return this.readAsync({ prefix });
  }
}

/** A read of one key, or of a key range (either bound open), of a windowed store. */
export type KeyedQuery = { readonly backward?: boolean } & (
  | { readonly key: Buffer; readonly keyFrom?: never; readonly keyTo?: never }
  | { readonly key?: never; readonly keyFrom?: Buffer; readonly keyTo?: Buffer }
);

/** The range bounds a windowed key schema (`[key][fixed-size suffix]`) computes from times. */
export interface KeyedRangeSchema {
  /** Lowest store key of `key` within a read starting at time `from`. */
  lowerRangeFixedSize(key: Buffer, from: number): Buffer;
  /** Highest store key of `key` within a read ending at time `to`. */
  upperRangeFixedSize(key: Buffer, to: number): Buffer;
  /** An upper bound of the store keys of keys `<= keyTo` within a read ending at time `to`. */
  upperRange(keyTo: Buffer, to: number): Buffer;
}

/** How a keyed read of a windowed key schema is bounded in time. */
export interface KeyedRangeBounds {
  readonly schema: KeyedRangeSchema;
  readonly suffixSize: number;
  /** The read's time bounds, as the schema's range bounds take them. */
  readonly timeFrom: number;
  readonly timeTo: number;
  /** Whether a store key's times are within the read's bounds. */
  inTime(storeKey: Buffer): boolean;
}

/**
 * The store range of a keyed read, or `undefined` when it cannot match anything. The bounds
 * also admit longer keys sharing a prefix (variable-length keys): `accept` keeps exact ones.
 */
export function keyedStoreRange(
  query: KeyedQuery,
  segmentTimes: { readonly segmentTimeFrom: number; readonly segmentTimeTo?: number },
  bounds: KeyedRangeBounds,
): StoreRange | undefined {
  const { key, keyFrom, keyTo } = query;
  if (keyFrom !== undefined && keyTo !== undefined && Buffer.compare(keyFrom, keyTo) > 0) {
    return undefined;
  }
  const base = { ...segmentTimes, backward: query.backward };
  const { schema, suffixSize, timeFrom, timeTo, inTime } = bounds;
  if (key !== undefined) {
    return {
      ...base,
      lower: schema.lowerRangeFixedSize(key, timeFrom),
      upper: schema.upperRangeFixedSize(key, timeTo),
      accept: (k) => k.length === key.length + suffixSize && hasPrefix(k, key) && inTime(k),
    };
  }
  return {
    ...base,
    // Any store key of a key `>= keyFrom` is at least `keyFrom` followed by a zero suffix.
    lower: keyFrom === undefined ? undefined : lowerRangeBound(keyFrom, suffixSize),
    upper: keyTo === undefined ? undefined : schema.upperRange(keyTo, timeTo),
    accept: (k) => {
      const recordKey = k.subarray(0, k.length - suffixSize);
      return (
        inTime(k) &&
        (keyFrom === undefined || Buffer.compare(recordKey, keyFrom) >= 0) &&
        (keyTo === undefined || Buffer.compare(recordKey, keyTo) <= 0)
      );
    },
  };
}
