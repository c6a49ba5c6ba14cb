/**
 * Helpers for key ranges in unsigned lexicographic byte order (RocksDB's default comparator),
 * shared by the bytes-store engines.
 */
import type { BytesWrite } from '../bytes-store';

/**
 * The smallest key above every key that starts with `prefix` (an exclusive upper bound), or
 * `undefined` when there is none: trailing `0xff` bytes are dropped and the last remaining
 * byte incremented, so `[0x61, 0xff]` gives `[0x62]` and `[0xff, 0xff]` gives `undefined`
 * (every key from the prefix on matches). The prefix itself is not modified.
 */
export function prefixUpperBound(prefix: Buffer): Buffer | undefined {
  let end = prefix.length;
  while (end > 0 && prefix[end - 1] === 0xff) {
    end--;
  }
  if (end === 0) {
    return undefined;
  }
  const bound = Buffer.from(prefix.subarray(0, end));
  bound[end - 1]++;
  return bound;
}

/** True when `from` is above `to`: the inclusive range `[from, to]` holds no key. */
export function isEmptyRange(from: Buffer | undefined, to: Buffer | undefined): boolean {
  return from !== undefined && to !== undefined && Buffer.compare(from, to) > 0;
}

/** True when `from <= key <= to`, an omitted bound being open. */
export function inRange(key: Buffer, from: Buffer | undefined, to: Buffer | undefined): boolean {
  return (
    (from === undefined || Buffer.compare(key, from) >= 0) &&
    (to === undefined || Buffer.compare(key, to) <= 0)
  );
}

/** True when `key` starts with `prefix`. */
export function hasPrefix(key: Buffer, prefix: Buffer): boolean {
  return (
    key.length >= prefix.length && key.compare(prefix, 0, prefix.length, 0, prefix.length) === 0
  );
}

/** Throws a `TypeError` unless `value` is a Buffer (a programming error in the caller). */
export function assertBuffer(value: unknown, what: string): asserts value is Buffer {
  if (!Buffer.isBuffer(value)) {
    throw new TypeError(`${what} must be a Buffer`);
  }
}

/** Throws a `TypeError` unless every write's key, and value when not `null`, is a Buffer. */
export function assertWrites(writes: readonly BytesWrite[]): void {
  for (const { key, value } of writes) {
    assertBuffer(key, 'key');
    if (value !== null) assertBuffer(value, 'value');
  }
}

/** Bounds of one scan in leveldown/abstract-level iterator terms (`gte`, `lte`, `lt`). */
export interface LevelScanBounds {
  readonly gte?: Buffer;
  readonly lte?: Buffer;
  readonly lt?: Buffer;
  readonly reverse: boolean;
}

/** `[from, to]` as iterator bounds; an empty `from` is the same as none. */
export function levelRangeBounds(
  from: Buffer | undefined,
  to: Buffer | undefined,
  reverse: boolean,
): LevelScanBounds {
  return {
    reverse,
    ...(from !== undefined && from.length > 0 && { gte: from }),
    ...(to !== undefined && { lte: to }),
  };
}

/** Keys starting with `prefix` as iterator bounds (ascending). */
export function levelPrefixBounds(prefix: Buffer): LevelScanBounds {
  const upper = prefixUpperBound(prefix);
  return {
    reverse: false,
    ...(prefix.length > 0 && { gte: prefix }),
    ...(upper !== undefined && { lt: upper }),
  };
}
