import type { Serde } from './serde';
import { requireWidth } from './fixed-width';
import { SerializationError } from './serialization.error';

/**
 * 64-bit signed integers as bigints: the same 8 big-endian two's-complement bytes as Java's
 * `Serdes.Long()` and `Serdes.Long()` here, over the full range `-2^63 .. 2^63 - 1`.
 * `serialize` also accepts integer-valued numbers in that range.
 *
 * Throws {@link SerializationError}: on a value outside the 64-bit range or a non-integer
 * number (fix the value); on input that is not exactly 8 bytes (the data was not written by a
 * Long serializer).
 */
export class LongBigIntSerde implements Serde<bigint> {
  serialize(value: bigint | number, topic?: string): Buffer {
    if (typeof value === 'number' && !Number.isInteger(value)) {
      throw new SerializationError(`LongBigInt serde accepts integers, got ${value}`, { topic });
    }
    const big = BigInt(value);
    if (BigInt.asIntN(64, big) !== big) {
      throw new SerializationError(`LongBigInt serde: ${big} is outside the 64-bit range`, {
        topic,
      });
    }
    const bytes = Buffer.allocUnsafe(8);
    bytes.writeBigInt64BE(big, 0);
    return bytes;
  }

  deserialize(bytes: Buffer, topic?: string): bigint {
    return requireWidth(bytes, 8, 'LongBigInt', topic).readBigInt64BE(0);
  }
}
