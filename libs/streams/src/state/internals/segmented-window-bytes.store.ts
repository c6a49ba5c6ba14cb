import { InvalidWindowError } from '../../errors/invalid-window.error';
import { requireDurationMs, requireEpochMillis } from '../../windowing/internals/window-time';
import type { KeyValueBytes } from '../bytes-store';
import type { SegmentedBytesStoreOptions, SegmentedRange } from './segmented-bytes.store';
import { queryTime, SegmentedSchemaStore } from './segmented-schema-store';
import { MAX_WINDOW_SEQNUM, WINDOW_STORE_SUFFIX_SIZE, WindowKeySchema } from './window-key-schema';
import type { SegmentedBytesLayer } from './wrapped-segmented-store';

/** One entry of a window store. `key` may share memory with the engine's buffer: do not mutate. */
export interface WindowBytesEntry {
  /** The serialized record key. */
  readonly key: Buffer;
  /** Window start, epoch ms; the window is `[windowStart, windowStart + windowSize)`. */
  readonly windowStart: number;
  /** Sequence number (0 unless the store retains duplicates). */
  readonly seqnum: number;
  readonly value: Buffer;
}

/** Which windows a range read returns: window starts in `[timeFrom, timeTo]`. */
export interface WindowTimeBounds {
  /** Earliest window start, inclusive (default 0). */
  readonly timeFrom?: number;
  /** Latest window start, inclusive (default unbounded). */
  readonly timeTo?: number;
  /** Newest segment first, each segment in descending key order (Kafka's `backwardFetch*`). */
  readonly backward?: boolean;
}

/**
 * A range read of a window store; each Kafka Streams `WindowStore` read is one shape of it:
 * - `fetch(key, timeFrom, timeTo)`: `{ key, timeFrom, timeTo }` (ascending by window start);
 * - `backwardFetch(key, timeFrom, timeTo)`: the same with `backward: true`;
 * - `fetch(keyFrom, keyTo, timeFrom, timeTo)`: `{ keyFrom, keyTo, timeFrom, timeTo }`
 *   (either key bound may be omitted: open);
 * - `fetchAll(timeFrom, timeTo)`: `{ timeFrom, timeTo }`; `all()`: `{}`.
 *
 * Key-range results are ordered as in Kafka Streams' RocksDB window store: segment by segment,
 * and by key bytes, then window start, inside a segment (not globally by key).
 */
export type WindowRangeQuery = WindowTimeBounds &
  (
    | { readonly key: Buffer; readonly keyFrom?: never; readonly keyTo?: never }
    | { readonly key?: never; readonly keyFrom?: Buffer; readonly keyTo?: Buffer }
  );

/**
 * A window store at the bytes level: the engine under the change-logging, caching and metered
 * layers of a window store. Synchronous reads need `capabilities.syncReads`; every engine
 * serves the `*Async` reads.
 */
export interface WindowBytesStore extends SegmentedBytesLayer {
  readonly windowSizeMs: number;
  readonly retainDuplicates: boolean;

  /** The largest window start written or restored since open, `-1` when none. */
  observedStreamTime(): number;

  /**
   * Writes `value` for `key`'s window starting at `windowStart` (`null` deletes it).
   * `timestamp` is the record timestamp of the write when it is not the current record's (a
   * cache writing through); engines ignore it, the change-logging layer logs with it.
   * @returns the store key written (also the changelog key), or `undefined` when nothing was
   *   written: the window is past retention, or a `null` in a store retaining duplicates.
   */
  put(
    key: Buffer,
    value: Buffer | null,
    windowStart: number,
    timestamp?: number,
  ): Buffer | undefined;
  /** The value of `key`'s window starting at `windowStart`, synchronously. */
  fetch(key: Buffer, windowStart: number): Buffer | undefined;
  fetchAsync(key: Buffer, windowStart: number): Promise<Buffer | undefined>;
  /** Live windows matching `query`, synchronously. Valid until the next `await`. */
  range(query: WindowRangeQuery): IterableIterator<WindowBytesEntry>;
  rangeAsync(query: WindowRangeQuery): Promise<WindowBytesEntry[]>;
}

/** How to build a {@link SegmentedWindowBytesStore}. */
export interface SegmentedWindowBytesStoreOptions extends SegmentedBytesStoreOptions {
  /** The size of the store's windows in ms (`end = start + size`); at most the retention. */
  readonly windowSizeMs: number;
  /**
   * Keep every write as its own entry (a growing seqnum in the key) instead of overwriting:
   * the store of a stream-stream join. Default false.
   */
  readonly retainDuplicates?: boolean;
}

const WINDOW_SCHEMA = {
  segmentTimestamp: (storeKey: Buffer): number => WindowKeySchema.extractStoreTimestamp(storeKey),
};

function toEntry({ key, value }: KeyValueBytes): WindowBytesEntry {
  const parts = WindowKeySchema.fromStoreKey(key);
  return { key: parts.key, windowStart: parts.windowStart, seqnum: parts.seqnum, value };
}

function inTimeRange(storeKey: Buffer, timeFrom: number, timeTo: number): boolean {
  const start = WindowKeySchema.extractStoreTimestamp(storeKey);
  return start >= timeFrom && start <= timeTo;
}

/**
 * A window store built from time segments, as Kafka Streams' `RocksDBWindowStore` over
 * `RocksDBSegmentedBytesStore`: keys `[key][window start][seqnum]` (see
 * {@link WindowKeySchema}), one bytes store per segment of window starts, whole segments
 * dropped after `retention`, and windows older than `streamTime - retention + 1` neither
 * written nor returned.
 *
 * Works on any engine the factory builds: synchronous reads when the engine has them
 * (RocksDB through `@nxtedition/rocksdb`, in memory), asynchronous reads always.
 */
export class SegmentedWindowBytesStore
  extends SegmentedSchemaStore<WindowBytesEntry>
  implements WindowBytesStore
{
  readonly windowSizeMs: number;
  readonly retainDuplicates: boolean;
  private seqnum = 0;

  /**
   * @throws InvalidWindowError when the window size is not positive, the retention is negative
   *   or smaller than the window size, or the segment interval is not positive (fix the store
   *   definition; Kafka Streams requires retention >= size + grace for windowed aggregations).
   */
  constructor(options: SegmentedWindowBytesStoreOptions) {
    const windowSizeMs = requireDurationMs(options.windowSizeMs, 'window size', true);
    super(options, WINDOW_SCHEMA, toEntry);
    this.windowSizeMs = windowSizeMs;
    if (this.inner.retentionPeriodMs < this.windowSizeMs) {
      throw new InvalidWindowError(
        `the retention period of window store ${options.name} (${this.inner.retentionPeriodMs} ms) must be no smaller than its window size (${this.windowSizeMs} ms)`,
      );
    }
    this.retainDuplicates = options.retainDuplicates ?? false;
  }

  /**
   * Writes `value` (or deletes, with `null`) for `key`'s window starting at `windowStart`.
   * With `retainDuplicates`, each write gets the next seqnum (wrapping at 2^31, restarting at 0
   * on open, as in Kafka Streams) and `null` writes are ignored.
   *
   * @returns the store key written, which is also the changelog key; `undefined` when nothing
   *   was written (expired window, or `null` with duplicates).
   * @throws StoreClosedError when not open (reopen it); InvalidWindowError for a negative or
   *   non-integer `windowStart` (fix the caller).
   */
  put(key: Buffer, value: Buffer | null, windowStart: number): Buffer | undefined {
    requireEpochMillis(windowStart, 'window start');
    if (this.retainDuplicates) {
      if (value === null) {
        return undefined;
      }
      this.seqnum = (this.seqnum + 1) & MAX_WINDOW_SEQNUM;
    }
    const storeKey = WindowKeySchema.toStoreKeyBinary(key, windowStart, this.seqnum);
    return this.inner.put(storeKey, value) ? storeKey : undefined;
  }

  /**
   * The value of `key`'s window starting at `windowStart`, or `undefined` (absent or expired).
   * With `retainDuplicates`, the duplicate with the highest seqnum.
   *
   * @throws StoreClosedError when not open; UnsupportedStoreOperationError when the engine has
   *   no synchronous reads (use {@link SegmentedWindowBytesStore.fetchAsync}).
   */
  fetch(key: Buffer, windowStart: number): Buffer | undefined {
    if (!this.retainDuplicates) {
      return this.inner.get(WindowKeySchema.toStoreKeyBinary(key, windowStart, 0));
    }
    for (const entry of this.inner.range(this.duplicatesOf(key, windowStart))) {
      return entry.value;
    }
    return undefined;
  }

  /**
   * {@link SegmentedWindowBytesStore.fetch}, asynchronously (every engine).
   * @throws StoreClosedError when not open; the engine's `ProcessorStateError` on failure.
   */
  async fetchAsync(key: Buffer, windowStart: number): Promise<Buffer | undefined> {
    if (!this.retainDuplicates) {
      return this.inner.getAsync(WindowKeySchema.toStoreKeyBinary(key, windowStart, 0));
    }
    const [latest] = await this.inner.rangeAsync(this.duplicatesOf(key, windowStart));
    return latest?.value;
  }

  /**
   * Live windows matching `query` (see {@link WindowRangeQuery} for the order).
   *
   * @throws StoreClosedError when not open; UnsupportedStoreOperationError when the engine has
   *   no synchronous reads (use {@link SegmentedWindowBytesStore.rangeAsync}); InvalidWindowError
   *   for a `NaN` time.
   */
  range(query: WindowRangeQuery): IterableIterator<WindowBytesEntry> {
    return this.readRange(this.toSegmentedRange(query));
  }

  /**
   * {@link SegmentedWindowBytesStore.range}, read asynchronously into an array (every engine).
   * @throws StoreClosedError when not open; the engine's `ProcessorStateError` on failure.
   */
  rangeAsync(query: WindowRangeQuery): Promise<WindowBytesEntry[]> {
    return this.readRangeAsync(this.toSegmentedRange(query));
  }

  /** Every duplicate of one window, highest seqnum first. */
  private duplicatesOf(key: Buffer, windowStart: number): SegmentedRange {
    requireEpochMillis(windowStart, 'window start');
    return this.keyRange(key, windowStart, windowStart, true);
  }

  /** One key's windows starting in `[timeFrom, timeTo]`. */
  private keyRange(
    key: Buffer,
    timeFrom: number,
    timeTo: number,
    backward: boolean,
  ): SegmentedRange {
    const keyLength = key.length;
    return {
      lower: WindowKeySchema.lowerRangeFixedSize(key, timeFrom),
      upper: WindowKeySchema.upperRangeFixedSize(key, timeTo),
      segmentTimeFrom: timeFrom,
      segmentTimeTo: timeTo,
      backward,
      // The bounds also admit longer keys that start with `key`: keep exact matches only.
      accept: (storeKey) =>
        storeKey.length === keyLength + WINDOW_STORE_SUFFIX_SIZE &&
        storeKey.compare(key, 0, keyLength, 0, keyLength) === 0 &&
        inTimeRange(storeKey, timeFrom, timeTo),
    };
  }

  /** The segmented read for `query`, or `undefined` when it cannot match anything. */
  private toSegmentedRange(query: WindowRangeQuery): SegmentedRange | undefined {
    const timeFrom = Math.max(0, queryTime(query.timeFrom, 0, 'timeFrom'));
    const timeTo = queryTime(query.timeTo, Number.POSITIVE_INFINITY, 'timeTo');
    const backward = query.backward ?? false;
    if (timeFrom > timeTo) {
      return undefined;
    }
    if (query.key !== undefined) {
      return this.keyRange(query.key, timeFrom, timeTo, backward);
    }
    const { keyFrom, keyTo } = query;
    if (keyFrom !== undefined && keyTo !== undefined && Buffer.compare(keyFrom, keyTo) > 0) {
      return undefined;
    }
    return {
      lower: keyFrom === undefined ? undefined : WindowKeySchema.lowerRange(keyFrom),
      upper: keyTo === undefined ? undefined : WindowKeySchema.upperRange(keyTo, timeTo),
      segmentTimeFrom: timeFrom,
      segmentTimeTo: timeTo,
      backward,
      accept: (storeKey) => {
        if (!inTimeRange(storeKey, timeFrom, timeTo)) {
          return false;
        }
        const recordKey = WindowKeySchema.fromStoreKey(storeKey).key;
        return (
          (keyFrom === undefined || Buffer.compare(recordKey, keyFrom) >= 0) &&
          (keyTo === undefined || Buffer.compare(recordKey, keyTo) <= 0)
        );
      },
    };
  }
}
