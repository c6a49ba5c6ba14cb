import { InvalidWindowError } from '../../../errors/invalid-window.error';
import { InvalidWindowedKeyError } from '../../../errors/invalid-windowed-key.error';
import { queryTime, requireEpochMillis } from '../../../windowing/internals/window-time';
import {
  LONG_MAX_BYTES,
  readTimestamp,
  timestampedKeyBound,
  upperRangeBound,
  writeTimestamp,
} from '../ordered-bytes';
import { keyedStoreRange, type KeyedQuery, type StoreRange } from '../layers/store-layer';

/** Bytes after the serialized key in a session key: end then start, 8 bytes each. */
export const SESSION_SUFFIX_SIZE = 16;
const END_SIZE = 8;

/** The parts of a session key. `key` shares memory with the session key. */
export interface SessionKeyParts {
  readonly key: Buffer;
  readonly start: number;
  readonly end: number;
}

function requireSessionKey(bytes: Buffer): number {
  if (bytes.length < SESSION_SUFFIX_SIZE) {
    throw new InvalidWindowedKeyError('session', bytes.length, SESSION_SUFFIX_SIZE);
  }
  return bytes.length - SESSION_SUFFIX_SIZE;
}

/**
 * The byte layout of session keys, identical to Kafka Streams' `SessionKeySchema` (and its
 * `SessionWindowedSerializer`), so that Java tools read our changelogs and outputs:
 * `[serialized key][session end: 8-byte BE long][session start: 8-byte BE long]`.
 *
 * The same bytes serve as store key, changelog key and windowed output key. Entries sort by key
 * bytes, then end, then start; a session store is segmented by session end.
 */
export const SessionKeySchema = {
  /**
   * The key of `key`'s session `[start, end]`.
   *
   * @throws InvalidWindowError when a time is negative or not an integer, or `end < start`
   *   (fix the caller).
   */
  toBinary(key: Buffer, start: number, end: number): Buffer {
    requireEpochMillis(start, 'session start');
    requireEpochMillis(end, 'session end');
    if (end < start) {
      throw new InvalidWindowError(
        `session end (${end}) must not be smaller than its start (${start})`,
      );
    }
    const out = Buffer.allocUnsafe(key.length + SESSION_SUFFIX_SIZE);
    key.copy(out, 0);
    writeTimestamp(out, end, key.length);
    writeTimestamp(out, start, key.length + END_SIZE);
    return out;
  },

  /**
   * Splits a session key into its parts.
   *
   * @throws InvalidWindowedKeyError when shorter than 16 bytes (not a session key: for a topic,
   *   hand the record to the deserialization-exception handler; for a store, wipe it and
   *   restore it from its changelog).
   */
  fromBinary(bytes: Buffer): SessionKeyParts {
    const keyLength = requireSessionKey(bytes);
    return {
      key: bytes.subarray(0, keyLength),
      end: readTimestamp(bytes, keyLength),
      start: readTimestamp(bytes, keyLength + END_SIZE),
    };
  },

  /**
   * The session end of a session key (the time that decides its segment).
   *
   * @throws InvalidWindowedKeyError as {@link SessionKeySchema.fromBinary}.
   */
  extractEndTimestamp(bytes: Buffer): number {
    return readTimestamp(bytes, requireSessionKey(bytes));
  },

  /** Lowest key of `key`'s sessions ending at or after `earliestSessionEndTime`. */
  lowerRangeFixedSize(key: Buffer, earliestSessionEndTime: number): Buffer {
    return timestampedKeyBound(key, SESSION_SUFFIX_SIZE, earliestSessionEndTime, 0);
  },

  /** Highest key of `key`'s sessions starting at or before `latestSessionStartTime`. */
  upperRangeFixedSize(key: Buffer, latestSessionStartTime: number): Buffer {
    const out = Buffer.allocUnsafe(key.length + SESSION_SUFFIX_SIZE);
    key.copy(out, 0);
    LONG_MAX_BYTES.copy(out, key.length);
    writeTimestamp(out, latestSessionStartTime, key.length + END_SIZE);
    return out;
  },

  /**
   * An upper bound for every session key of keys `<= keyTo` starting at or before
   * `latestSessionStartTime` (filter results on the key and the times).
   */
  upperRange(keyTo: Buffer, latestSessionStartTime: number): Buffer {
    const maxSuffix = Buffer.allocUnsafe(SESSION_SUFFIX_SIZE);
    LONG_MAX_BYTES.copy(maxSuffix, 0);
    writeTimestamp(maxSuffix, latestSessionStartTime, END_SIZE);
    return upperRangeBound(keyTo, maxSuffix);
  },
} as const;

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

/**
 * A search of a session store; each Kafka Streams `SessionStore` read is one shape of it:
 * - `findSessions(key, earliestSessionEndTime, latestSessionStartTime)`: `{ key, ... }`;
 * - `findSessions(keyFrom, keyTo, ...)`: `{ keyFrom, keyTo, ... }` (either bound open);
 * - `fetch(key)`: `{ key }`; `fetch(keyFrom, keyTo)`: `{ keyFrom, keyTo }`;
 * - `backward*` variants: add `backward: true`.
 *
 * Sessions ending at or after `earliestSessionEndTime` (default 0) and starting at or before
 * `latestSessionStartTime` (default unbounded). Results are ordered as in Kafka Streams'
 * RocksDB session store: segment by segment (segments are by session end), and by key bytes,
 * then end, then start, inside a segment.
 */
export type SessionQuery = KeyedQuery & {
  readonly earliestSessionEndTime?: number;
  readonly latestSessionStartTime?: number;
};

/** A store entry as a session entry. */
export function toSessionEntry(sessionKey: Buffer, value: Buffer): SessionBytesEntry {
  const { key, start, end } = SessionKeySchema.fromBinary(sessionKey);
  return { key, start, end, value };
}

/**
 * The store range of a session search, or `undefined` when it cannot match anything.
 * @throws InvalidWindowError for a `NaN` time (fix the caller).
 */
export function sessionStoreRange(query: SessionQuery): StoreRange | undefined {
  const earliestEnd = Math.max(
    0,
    queryTime(query.earliestSessionEndTime, 0, 'earliestSessionEndTime'),
  );
  const latestStart = queryTime(
    query.latestSessionStartTime,
    Number.POSITIVE_INFINITY,
    'latestSessionStartTime',
  );
  // Segments are by session end: any segment from the earliest end on can match.
  return keyedStoreRange(
    query,
    { segmentTimeFrom: earliestEnd },
    {
      schema: SessionKeySchema,
      suffixSize: SESSION_SUFFIX_SIZE,
      timeFrom: earliestEnd,
      timeTo: latestStart,
      inTime: (sessionKey) => {
        const { start, end } = SessionKeySchema.fromBinary(sessionKey);
        return end >= earliestEnd && start <= latestStart;
      },
    },
  );
}
