import { InvalidWindowError } from '../../../errors/invalid-window.error';
import { InvalidWindowedKeyError } from '../../../errors/invalid-windowed-key.error';
import { queryTime, requireEpochMillis } from '../../../windowing/internals/window-time';
import {
  readTimestamp,
  timestampedKeyBound,
  upperRangeBound,
  writeTimestamp,
} from '../ordered-bytes';
import { keyedStoreRange, type KeyedQuery, type StoreRange } from '../layers/store-layer';

/** Bytes of the window start in a window key. */
export const WINDOW_TIMESTAMP_SIZE = 8;
/** Bytes of the sequence number in a window-store key. */
export const WINDOW_SEQNUM_SIZE = 4;
/** Bytes after the serialized key in a window-store key. */
export const WINDOW_STORE_SUFFIX_SIZE = WINDOW_TIMESTAMP_SIZE + WINDOW_SEQNUM_SIZE;
/** The largest sequence number (Java's `Integer.MAX_VALUE`); numbers wrap to 0 after it. */
export const MAX_WINDOW_SEQNUM = 0x7fffffff;

/** The parts of a window-store key. `key` shares memory with the store key. */
export interface WindowStoreKeyParts {
  readonly key: Buffer;
  readonly windowStart: number;
  readonly seqnum: number;
}

function requireLength(bytes: Buffer, minimum: number, format: string): void {
  if (bytes.length < minimum) {
    throw new InvalidWindowedKeyError(format, bytes.length, minimum);
  }
}

/**
 * The byte layout of window keys, identical to Kafka Streams' `WindowKeySchema`, so that Java
 * tools read our changelogs and we read theirs:
 *
 * - store and changelog key: `[serialized key][window start: 8-byte BE long][seqnum: 4-byte BE int]`
 *   (the seqnum is 0 unless the store retains duplicates);
 * - windowed key on output topics (`TimeWindowedSerializer`): `[serialized key][window start: 8-byte BE long]`.
 *
 * Entries sort by key bytes, then window start, then seqnum, so one key's windows are
 * contiguous and ascending by start.
 */
export const WindowKeySchema = {
  /**
   * The store (and changelog) key of `key`'s window starting at `windowStart`.
   *
   * @throws InvalidWindowError when `windowStart` is negative or not an integer, or
   *   `seqnum` is outside `[0, 2^31 - 1]` (fix the caller).
   */
  toStoreKeyBinary(key: Buffer, windowStart: number, seqnum: number): Buffer {
    requireEpochMillis(windowStart, 'window start');
    if (!Number.isInteger(seqnum) || seqnum < 0 || seqnum > MAX_WINDOW_SEQNUM) {
      throw new InvalidWindowError(`seqnum must be an integer in [0, 2^31 - 1], got ${seqnum}`);
    }
    const out = Buffer.allocUnsafe(key.length + WINDOW_STORE_SUFFIX_SIZE);
    key.copy(out, 0);
    writeTimestamp(out, windowStart, key.length);
    out.writeUInt32BE(seqnum, key.length + WINDOW_TIMESTAMP_SIZE);
    return out;
  },

  /**
   * Splits a store key into its parts.
   *
   * @throws InvalidWindowedKeyError when the key is shorter than 12 bytes (the store holds
   *   data of another format: wipe it and restore it from its changelog).
   */
  fromStoreKey(storeKey: Buffer): WindowStoreKeyParts {
    requireLength(storeKey, WINDOW_STORE_SUFFIX_SIZE, 'window-store');
    const keyLength = storeKey.length - WINDOW_STORE_SUFFIX_SIZE;
    return {
      key: storeKey.subarray(0, keyLength),
      windowStart: readTimestamp(storeKey, keyLength),
      seqnum: storeKey.readUInt32BE(keyLength + WINDOW_TIMESTAMP_SIZE),
    };
  },

  /**
   * The window start of a store key (the time that decides its segment).
   *
   * @throws InvalidWindowedKeyError as {@link WindowKeySchema.fromStoreKey}.
   */
  extractStoreTimestamp(storeKey: Buffer): number {
    requireLength(storeKey, WINDOW_STORE_SUFFIX_SIZE, 'window-store');
    return readTimestamp(storeKey, storeKey.length - WINDOW_STORE_SUFFIX_SIZE);
  },

  /** Lowest store key of `key`'s windows starting at or after `timeFrom` (seqnum 0). */
  lowerRangeFixedSize(key: Buffer, timeFrom: number): Buffer {
    return timestampedKeyBound(key, WINDOW_STORE_SUFFIX_SIZE, timeFrom, 0);
  },

  /** Highest store key of `key`'s windows starting at or before `timeTo` (any seqnum). */
  upperRangeFixedSize(key: Buffer, timeTo: number): Buffer {
    return timestampedKeyBound(key, WINDOW_STORE_SUFFIX_SIZE, timeTo, 0xff);
  },

  /**
   * An upper bound for every store key of keys `<= keyTo` with window start `<= timeTo`
   * (filter results on the key and the time).
   */
  upperRange(keyTo: Buffer, timeTo: number): Buffer {
    const maxSuffix = Buffer.alloc(WINDOW_STORE_SUFFIX_SIZE, 0xff);
    writeTimestamp(maxSuffix, timeTo, 0);
    return upperRangeBound(keyTo, maxSuffix);
  },

  /**
   * The windowed key of an output topic, `[key][window start]` (Kafka's
   * `TimeWindowedSerializer` format).
   *
   * @throws InvalidWindowError when `windowStart` is negative or not an integer.
   */
  toBinary(key: Buffer, windowStart: number): Buffer {
    requireEpochMillis(windowStart, 'window start');
    const out = Buffer.allocUnsafe(key.length + WINDOW_TIMESTAMP_SIZE);
    key.copy(out, 0);
    writeTimestamp(out, windowStart, key.length);
    return out;
  },

  /**
   * Splits a `[key][window start]` windowed key; `key` shares memory with `bytes`.
   *
   * @throws InvalidWindowedKeyError when `bytes` is shorter than 8 bytes (not a time-windowed
   *   key: hand the record to the deserialization-exception handler).
   */
  fromBinary(bytes: Buffer): { key: Buffer; windowStart: number } {
    requireLength(bytes, WINDOW_TIMESTAMP_SIZE, 'time-windowed');
    const keyLength = bytes.length - WINDOW_TIMESTAMP_SIZE;
    return { key: bytes.subarray(0, keyLength), windowStart: readTimestamp(bytes, keyLength) };
  },
} as const;

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

/**
 * A range read of a window store; each Kafka Streams `WindowStore` read is one shape of it:
 * - `fetch(key, timeFrom, timeTo)`: `{ key, timeFrom, timeTo }` (ascending by window start);
 * - `backwardFetch(key, timeFrom, timeTo)`: the same with `backward: true`;
 * - `fetch(keyFrom, keyTo, timeFrom, timeTo)`: `{ keyFrom, keyTo, timeFrom, timeTo }`
 *   (either key bound may be omitted: open);
 * - `fetchAll(timeFrom, timeTo)`: `{ timeFrom, timeTo }`; `all()`: `{}`.
 *
 * Window starts are in `[timeFrom, timeTo]` (default `[0, unbounded]`). Key-range results are
 * ordered as in Kafka Streams' RocksDB window store: segment by segment, and by key bytes,
 * then window start, inside a segment (not globally by key).
 */
export type WindowRangeQuery = KeyedQuery & {
  readonly timeFrom?: number;
  readonly timeTo?: number;
};

/** A store entry as a window entry. */
export function toWindowEntry(storeKey: Buffer, value: Buffer): WindowBytesEntry {
  const parts = WindowKeySchema.fromStoreKey(storeKey);
  return { key: parts.key, windowStart: parts.windowStart, seqnum: parts.seqnum, value };
}

/**
 * The store range of a window query, or `undefined` when it cannot match anything.
 * @throws InvalidWindowError for a `NaN` time (fix the caller).
 */
export function windowStoreRange(query: WindowRangeQuery): StoreRange | undefined {
  const timeFrom = Math.max(0, queryTime(query.timeFrom, 0, 'timeFrom'));
  const timeTo = queryTime(query.timeTo, Number.POSITIVE_INFINITY, 'timeTo');
  if (timeFrom > timeTo) return undefined;
  return keyedStoreRange(
    query,
    { segmentTimeFrom: timeFrom, segmentTimeTo: timeTo },
    {
      schema: WindowKeySchema,
      suffixSize: WINDOW_STORE_SUFFIX_SIZE,
      timeFrom,
      timeTo,
      inTime: (storeKey) => {
        const start = WindowKeySchema.extractStoreTimestamp(storeKey);
        return start >= timeFrom && start <= timeTo;
      },
    },
  );
}
