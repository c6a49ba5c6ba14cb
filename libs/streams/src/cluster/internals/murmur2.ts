/** Kafka's murmur2 seed (`0x9747b28c`), as a signed 32-bit int. */
const SEED = 0x9747b28c | 0;
/** Murmur2 multiplier. */
const M = 0x5bd1e995;
/** Murmur2 shift for each 4-byte block. */
const R = 24;

/**
 * The 32-bit murmur2 hash of `data`, bit for bit the same as Kafka's Java
 * `org.apache.kafka.common.utils.Utils.murmur2(byte[])`: a signed 32-bit integer, so it may be
 * negative. Reads 4-byte blocks little-endian, seeds with `0x9747b28c ^ length`.
 *
 * Allocates nothing and never throws; the empty buffer has a hash too (`275646681`).
 *
 * @param data the serialized key bytes, for example a `Buffer` (any `Uint8Array` works).
 * @returns the hash, in `[-2^31, 2^31 - 1]`.
 */
export function murmur2(data: Uint8Array): number {
  const length = data.length;
  const blocksEnd = length & ~3;
  let h = SEED ^ length;

  for (let i = 0; i < blocksEnd; i += 4) {
    let k = data[i] | (data[i + 1] << 8) | (data[i + 2] << 16) | (data[i + 3] << 24);
    k = Math.imul(k, M);
    k ^= k >>> R;
    k = Math.imul(k, M);
    h = Math.imul(h, M) ^ k;
  }

  // The last 1 to 3 bytes: Java's switch falls through from case 3 to case 1.
  const tail = length & 3;
  if (tail !== 0) {
    if (tail === 3) h ^= data[blocksEnd + 2] << 16;
    if (tail >= 2) h ^= data[blocksEnd + 1] << 8;
    h ^= data[blocksEnd];
    h = Math.imul(h, M);
  }

  h ^= h >>> 13;
  h = Math.imul(h, M);
  h ^= h >>> 15;
  return h;
}

/**
 * A non-negative int from any 32-bit int, as Kafka's `Utils.toPositive`: clears the sign bit
 * (`n & 0x7fffffff`). This is not `Math.abs`: `toPositive(-1)` is `2147483647`, and
 * `toPositive(-2147483648)` is `0` rather than an overflow.
 *
 * Never throws; a non-integer input is first truncated to 32 bits, as bitwise operators do.
 *
 * @param n a signed 32-bit integer, typically a {@link murmur2} hash.
 * @returns `n` with its sign bit cleared, in `[0, 2^31 - 1]`.
 */
export function toPositive(n: number): number {
  return n & 0x7fffffff;
}
