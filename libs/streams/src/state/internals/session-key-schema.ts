import { InvalidWindowError } from '../../errors/invalid-window.error';
import { InvalidWindowedKeyError } from '../../errors/invalid-windowed-key.error';
import { requireEpochMillis } from '../../windowing/internals/window-time';
import {
  LONG_MAX_BYTES,
  lowerRangeBound,
  readTimestamp,
  upperRangeBound,
  writeTimestamp,
} from './ordered-bytes';

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
    const out = Buffer.alloc(key.length + SESSION_SUFFIX_SIZE);
    key.copy(out, 0);
    writeTimestamp(out, earliestSessionEndTime, key.length);
    return out;
  },

  /** Highest key of `key`'s sessions starting at or before `latestSessionStartTime`. */
  upperRangeFixedSize(key: Buffer, latestSessionStartTime: number): Buffer {
    const out = Buffer.allocUnsafe(key.length + SESSION_SUFFIX_SIZE);
    key.copy(out, 0);
    LONG_MAX_BYTES.copy(out, key.length);
    writeTimestamp(out, latestSessionStartTime, key.length + END_SIZE);
    return out;
  },

  /** A lower bound for every session key of keys `>= keyFrom` (filter results on the key). */
  lowerRange(keyFrom: Buffer): Buffer {
    return lowerRangeBound(keyFrom, SESSION_SUFFIX_SIZE);
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
