import type { KeyValueBytes } from '../bytes-store';
import type { SegmentedBytesStoreOptions, SegmentedRange } from './segmented-bytes.store';
import { queryTime, SegmentedSchemaStore } from './segmented-schema-store';
import { SESSION_SUFFIX_SIZE, SessionKeySchema } from './session-key-schema';
import type { SegmentedBytesLayer } from './wrapped-segmented-store';

/** One session of a session store. `key` may share memory with the engine's buffer. */
export interface SessionBytesEntry {
  /** The serialized record key. */
  readonly key: Buffer;
  /** Timestamp of the session's first record, epoch ms. */
  readonly start: number;
  /** Timestamp of the session's last record, epoch ms (inclusive). */
  readonly end: number;
  /** The session's aggregate. */
  readonly value: Buffer;
}

/** Which sessions a search returns: ending at or after one time, starting at or before another. */
export interface SessionTimeBounds {
  /** Sessions ending before this are left out (default 0). */
  readonly earliestSessionEndTime?: number;
  /** Sessions starting after this are left out (default unbounded). */
  readonly latestSessionStartTime?: number;
  /** Newest segment first, each segment in descending key order (Kafka's `backwardFindSessions`). */
  readonly backward?: boolean;
}

/**
 * A search of a session store; each Kafka Streams `SessionStore` read is one shape of it:
 * - `findSessions(key, earliestSessionEndTime, latestSessionStartTime)`: `{ key, ... }`;
 * - `findSessions(keyFrom, keyTo, earliestSessionEndTime, latestSessionStartTime)`:
 *   `{ keyFrom, keyTo, ... }` (either key bound may be omitted: open);
 * - `fetch(key)`: `{ key }`; `fetch(keyFrom, keyTo)`: `{ keyFrom, keyTo }`;
 * - `backward*` variants: add `backward: true`.
 *
 * Results are ordered as in Kafka Streams' RocksDB session store: segment by segment (segments
 * are by session end), and by key bytes, then end, then start, inside a segment.
 */
export type SessionQuery = SessionTimeBounds &
  (
    | { readonly key: Buffer; readonly keyFrom?: never; readonly keyTo?: never }
    | { readonly key?: never; readonly keyFrom?: Buffer; readonly keyTo?: Buffer }
  );

/**
 * A session store at the bytes level: the engine under the change-logging, caching and metered
 * layers of a session store. Synchronous reads need `capabilities.syncReads`; every engine
 * serves the `*Async` reads.
 */
export interface SessionBytesStore extends SegmentedBytesLayer {
  /** The largest session end written or restored since open, `-1` when none. */
  observedStreamTime(): number;

  /**
   * Writes the aggregate of `key`'s session `[start, end]` (`null` removes it).
   * @returns the session key written (also the changelog key), or `undefined` when the session
   *   is past retention and nothing was written.
   */
  put(
    key: Buffer,
    start: number,
    end: number,
    value: Buffer | null,
    /** The write's record timestamp when not the current record's (a cache writing through). */
    timestamp?: number,
  ): Buffer | undefined;
  /** Removes `key`'s session `[start, end]`: `put(key, start, end, null)`. */
  remove(key: Buffer, start: number, end: number): Buffer | undefined;
  /** The aggregate of exactly `key`'s session `[start, end]`, synchronously. */
  fetchSession(key: Buffer, start: number, end: number): Buffer | undefined;
  fetchSessionAsync(key: Buffer, start: number, end: number): Promise<Buffer | undefined>;
  /** Live sessions matching `query`, synchronously. Valid until the next `await`. */
  findSessions(query: SessionQuery): IterableIterator<SessionBytesEntry>;
  findSessionsAsync(query: SessionQuery): Promise<SessionBytesEntry[]>;
}

const SESSION_SCHEMA = {
  segmentTimestamp: (storeKey: Buffer): number => SessionKeySchema.extractEndTimestamp(storeKey),
};

function toEntry({ key, value }: KeyValueBytes): SessionBytesEntry {
  const parts = SessionKeySchema.fromBinary(key);
  return { key: parts.key, start: parts.start, end: parts.end, value };
}

/**
 * A session store built from time segments, as Kafka Streams' `RocksDBSessionStore` over
 * `RocksDBSegmentedBytesStore`: keys `[key][end][start]` (see {@link SessionKeySchema}), one
 * bytes store per segment of session ends, whole segments dropped after `retention`, and
 * sessions ending before `streamTime - retention + 1` neither written nor returned.
 *
 * Merging sessions is the aggregation's job (see `mergeSessions`): this store only keeps them.
 */
export class SegmentedSessionBytesStore
  extends SegmentedSchemaStore<SessionBytesEntry>
  implements SessionBytesStore
{
  /**
   * @throws InvalidWindowError when the retention is negative or the segment interval not
   *   positive (fix the store definition; Kafka Streams requires retention >= gap + grace).
   */
  constructor(options: SegmentedBytesStoreOptions) {
    super(options, SESSION_SCHEMA, toEntry);
  }

  /**
   * Writes (or, with `null`, removes) the aggregate of `key`'s session `[start, end]`.
   *
   * @returns the session key written (also the changelog key), or `undefined` when the
   *   session already ended before `streamTime - retention + 1`.
   * @throws StoreClosedError when not open (reopen it); InvalidWindowError for a negative or
   *   non-integer time, or `end < start` (fix the caller).
   */
  put(key: Buffer, start: number, end: number, value: Buffer | null): Buffer | undefined {
    const sessionKey = SessionKeySchema.toBinary(key, start, end);
    return this.inner.put(sessionKey, value) ? sessionKey : undefined;
  }

  /** Removes `key`'s session `[start, end]`; errors as {@link SegmentedSessionBytesStore.put}. */
  remove(key: Buffer, start: number, end: number): Buffer | undefined {
    return this.put(key, start, end, null);
  }

  /**
   * The aggregate of exactly `key`'s session `[start, end]`, or `undefined` (absent or expired).
   *
   * @throws StoreClosedError when not open; UnsupportedStoreOperationError when the engine has
   *   no synchronous reads (use {@link SegmentedSessionBytesStore.fetchSessionAsync});
   *   InvalidWindowError for invalid times.
   */
  fetchSession(key: Buffer, start: number, end: number): Buffer | undefined {
    return this.inner.get(SessionKeySchema.toBinary(key, start, end));
  }

  /**
   * {@link SegmentedSessionBytesStore.fetchSession}, asynchronously (every engine).
   * @throws StoreClosedError when not open; the engine's `ProcessorStateError` on failure.
   */
  fetchSessionAsync(key: Buffer, start: number, end: number): Promise<Buffer | undefined> {
    return this.inner.getAsync(SessionKeySchema.toBinary(key, start, end));
  }

  /**
   * Live sessions matching `query` (see {@link SessionQuery} for the order): those with
   * `end >= earliestSessionEndTime` and `start <= latestSessionStartTime`.
   *
   * @throws StoreClosedError when not open; UnsupportedStoreOperationError when the engine has
   *   no synchronous reads (use {@link SegmentedSessionBytesStore.findSessionsAsync});
   *   InvalidWindowError for a `NaN` time.
   */
  findSessions(query: SessionQuery): IterableIterator<SessionBytesEntry> {
    return this.readRange(this.toSegmentedRange(query));
  }

  /**
   * {@link SegmentedSessionBytesStore.findSessions}, read asynchronously (every engine).
   * @throws StoreClosedError when not open; the engine's `ProcessorStateError` on failure.
   */
  findSessionsAsync(query: SessionQuery): Promise<SessionBytesEntry[]> {
    return this.readRangeAsync(this.toSegmentedRange(query));
  }

  /** The segmented read for `query`, or `undefined` when it cannot match anything. */
  private toSegmentedRange(query: SessionQuery): SegmentedRange | undefined {
    const earliestEnd = Math.max(
      0,
      queryTime(query.earliestSessionEndTime, 0, 'earliestSessionEndTime'),
    );
    const latestStart = queryTime(
      query.latestSessionStartTime,
      Number.POSITIVE_INFINITY,
      'latestSessionStartTime',
    );
    const backward = query.backward ?? false;
    const inTime = (sessionKey: Buffer): boolean => {
      const { start, end } = SessionKeySchema.fromBinary(sessionKey);
      return end >= earliestEnd && start <= latestStart;
    };
    const base = {
      // Segments are by session end: any segment from the earliest end on can match.
      segmentTimeFrom: earliestEnd,
      segmentTimeTo: Number.POSITIVE_INFINITY,
      backward,
    };
    const { key } = query;
    if (key !== undefined) {
      const keyLength = key.length;
      return {
        ...base,
        lower: SessionKeySchema.lowerRangeFixedSize(key, earliestEnd),
        upper: SessionKeySchema.upperRangeFixedSize(key, latestStart),
        // The bounds also admit longer keys that start with `key`: keep exact matches only.
        accept: (sessionKey) =>
          sessionKey.length === keyLength + SESSION_SUFFIX_SIZE &&
          sessionKey.compare(key, 0, keyLength, 0, keyLength) === 0 &&
          inTime(sessionKey),
      };
    }
    const { keyFrom, keyTo } = query;
    if (keyFrom !== undefined && keyTo !== undefined && Buffer.compare(keyFrom, keyTo) > 0) {
      return undefined;
    }
    return {
      ...base,
      lower: keyFrom === undefined ? undefined : SessionKeySchema.lowerRange(keyFrom),
      upper: keyTo === undefined ? undefined : SessionKeySchema.upperRange(keyTo, latestStart),
      accept: (sessionKey) => {
        if (!inTime(sessionKey)) {
          return false;
        }
        const recordKey = SessionKeySchema.fromBinary(sessionKey).key;
        return (
          (keyFrom === undefined || Buffer.compare(recordKey, keyFrom) >= 0) &&
          (keyTo === undefined || Buffer.compare(recordKey, keyTo) <= 0)
        );
      },
    };
  }
}
