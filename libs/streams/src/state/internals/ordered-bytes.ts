/**
 * Byte-order helpers shared by the window and session key schemas.
 *
 * Store keys of segmented stores are `[serialized key][fixed-size suffix]`, and every engine
 * orders keys by unsigned lexicographic byte order (RocksDB's default comparator). Timestamps
 * are written as 8-byte big-endian signed longs (Java's `ByteBuffer.putLong`), so that for
 * non-negative values byte order equals numeric order and Java tools read the same numbers.
 *
 * Times are JavaScript numbers holding integer epoch milliseconds; they are exact up to
 * `Number.MAX_SAFE_INTEGER` (year 287,396), far beyond any record timestamp.
 */

const TWO_POW_32 = 0x1_0000_0000;

/** The bytes of Java's `Long.MAX_VALUE` (`0x7fffffffffffffff`), the "no upper bound" time. */
export const LONG_MAX_BYTES: Buffer = Buffer.from('7fffffffffffffff', 'hex');

/**
 * Writes `value` as an 8-byte big-endian signed long at `offset`.
 *
 * Values above `Number.MAX_SAFE_INTEGER` (including `Infinity`) are written as Java's
 * `Long.MAX_VALUE`, which is what "unbounded" means in range bounds; callers that store times
 * validate them first (see the key schemas), so this clamp only ever shapes range bounds.
 * Values below zero are written as zero for the same reason (no stored time is negative).
 */
export function writeTimestamp(target: Buffer, value: number, offset: number): void {
  if (!(value <= Number.MAX_SAFE_INTEGER)) {
    LONG_MAX_BYTES.copy(target, offset);
    return;
  }
  const v = value > 0 ? Math.floor(value) : 0;
  target.writeUInt32BE(Math.floor(v / TWO_POW_32), offset);
  target.writeUInt32BE(v % TWO_POW_32, offset + 4);
}

/**
 * Reads an 8-byte big-endian signed long at `offset` as a number. Exact for every value whose
 * magnitude is at most `Number.MAX_SAFE_INTEGER`; larger values (only `Long.MAX_VALUE`-style
 * sentinels written by other tools) come back rounded to the nearest double.
 */
export function readTimestamp(source: Buffer, offset: number): number {
  return source.readInt32BE(offset) * TWO_POW_32 + source.readUInt32BE(offset + 4);
}

/**
 * A range bound of one key: `key`, then a `suffixLength`-byte suffix of `fill` bytes that starts
 * with `timestamp` (written as {@link writeTimestamp} does).
 */
export function timestampedKeyBound(
  key: Buffer,
  suffixLength: number,
  timestamp: number,
  fill: number,
): Buffer {
  const bound = Buffer.alloc(key.length + suffixLength, fill);
  key.copy(bound, 0);
  writeTimestamp(bound, timestamp, key.length);
  return bound;
}

/**
 * The smallest store key that any entry whose key part is `>= keyFrom` can have:
 * `keyFrom` followed by `suffixLength` zero bytes.
 *
 * Why this is a valid lower bound: an entry for `keyFrom` itself has a suffix `>=` all zeros;
 * an entry for a key that differs from `keyFrom` at some byte is larger at that byte; an entry
 * for a key that extends `keyFrom` is `keyFrom`, then more bytes, so it is `>=` `keyFrom`
 * followed by zeros. Entries of keys below `keyFrom` may also fall inside the range (a key
 * that is a prefix of `keyFrom`), which is why every reader filters on the decoded key too.
 */
export function lowerRangeBound(keyFrom: Buffer, suffixLength: number): Buffer {
  const bound = Buffer.alloc(keyFrom.length + suffixLength);
  keyFrom.copy(bound, 0);
  return bound;
}

/**
 * The smallest store key that is `>=` every entry whose key part is `<= keyTo` and whose
 * suffix is `<= maxSuffix` (compared as bytes).
 *
 * Appending `maxSuffix` to `keyTo` is not enough: the entry of a shorter key that is a prefix
 * of `keyTo` continues with its suffix where `keyTo` continues with more key bytes, and can
 * sort after `keyTo` followed by `maxSuffix` (key `a` with a large timestamp against `keyTo`
 * `a\x01`). Kafka Streams' `OrderedBytes.upperRange` shortens `keyTo` with a first-byte rule
 * for this; here the bound is the exact maximum over the candidates `keyTo[0, j) + maxSuffix`
 * for every prefix length `j` (including `keyTo` itself), which bounds every such entry.
 * Readers still filter on the decoded key and times.
 */
export function upperRangeBound(keyTo: Buffer, maxSuffix: Buffer): Buffer {
  // Candidate j is keyTo[0, j) followed by maxSuffix; compare candidates without allocating.
  const byteOf = (j: number, i: number): number => (i < j ? keyTo[i] : maxSuffix[i - j]);
  const compareCandidates = (a: number, b: number): number => {
    const lengthA = a + maxSuffix.length;
    const lengthB = b + maxSuffix.length;
    const shared = Math.min(lengthA, lengthB);
    for (let i = 0; i < shared; i++) {
      const diff = byteOf(a, i) - byteOf(b, i);
      if (diff !== 0) {
        return diff;
      }
    }
    return lengthA - lengthB;
  };
  let best = keyTo.length;
  for (let j = keyTo.length - 1; j >= 0; j--) {
    if (compareCandidates(j, best) > 0) {
      best = j;
    }
  }
  const bound = Buffer.alloc(best + maxSuffix.length);
  keyTo.copy(bound, 0, 0, best);
  maxSuffix.copy(bound, best);
  return bound;
}
