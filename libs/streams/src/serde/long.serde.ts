import type { Serde } from './serde';
import { SerializationError } from './serialization.error';

const TWO_POW_32 = 0x1_0000_0000;
const TWO_POW_63 = 2 ** 63;
/** `hi` words in `[-2^21, 2^21)` make `|value| <= 2^53`: always exact as a double. */
const EXACT_HI = 0x20_0000;

/**
 * 64-bit signed integers as 8 bytes, big-endian two's complement: byte-compatible with Java's
 * `Serdes.Long()`, for values held as JavaScript numbers.
 *
 * Range and precision: `serialize` accepts any integer-valued number in `[-2^63, 2^63)` and any
 * bigint in that range; `deserialize` returns a number, and refuses (throws) a stored value a
 * double cannot hold exactly (beyond `Number.MAX_SAFE_INTEGER` only multiples of a power of
 * two are exact). Nothing is ever rounded silently. For the full 64-bit range use
 * `Serdes.LongBigInt()`, which reads and writes the same bytes as bigints.
 *
 * Throws {@link SerializationError}: on a fraction, NaN, an infinity or an out-of-range value
 * (fix the value); on input that is not exactly 8 bytes (the data was not written by a Long
 * serializer); on a stored value a number cannot hold exactly (switch to `LongBigInt()`).
 */
export class LongSerde implements Serde<number> {
  serialize(value: number | bigint, topic?: string): Buffer {
    const bytes = Buffer.allocUnsafe(8);
    if (typeof value === 'bigint') {
      if (BigInt.asIntN(64, value) !== value) {
        throw new SerializationError(`Long serde: ${value} is outside the 64-bit range`, { topic });
      }
      bytes.writeBigInt64BE(value, 0);
      return bytes;
    }
    if (!Number.isInteger(value) || value < -TWO_POW_63 || value >= TWO_POW_63) {
      throw new SerializationError(`Long serde accepts integers in [-2^63, 2^63), got ${value}`, {
        topic,
      });
    }
    // Both steps are exact for every integer-valued double in range.
    const hi = Math.floor(value / TWO_POW_32);
    const lo = value - hi * TWO_POW_32;
    bytes.writeInt32BE(hi, 0);
    bytes.writeUInt32BE(lo, 4);
    return bytes;
  }

  deserialize(bytes: Buffer, topic?: string): number {
    if (bytes.length !== 8) {
      throw new SerializationError(`Long serde expects 8 bytes, got ${bytes.length}`, { topic });
    }
    const hi = bytes.readInt32BE(0);
    if (hi >= -EXACT_HI && hi < EXACT_HI) {
      return hi * TWO_POW_32 + bytes.readUInt32BE(4);
    }
    const exact = bytes.readBigInt64BE(0);
    const asNumber = Number(exact);
    if (BigInt(asNumber) !== exact) {
      throw new SerializationError(
        `Long serde: ${exact} cannot be represented exactly as a number; use Serdes.LongBigInt()`,
        { topic },
      );
    }
    return asNumber;
  }
}
