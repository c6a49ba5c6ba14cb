import type { Serde } from './serde';
import { requireWidth } from './fixed-width';
import { SerializationError } from './serialization.error';

const MIN = -0x80000000;
const MAX = 0x7fffffff;

/**
 * 32-bit signed integers as 4 bytes, big-endian two's complement: byte-compatible with Java's
 * `Serdes.Integer()`. Range `-2^31 .. 2^31 - 1`.
 *
 * Throws {@link SerializationError} on a non-integer or out-of-range value (serialize) and on
 * input that is not exactly 4 bytes (deserialize): fix the value, or use `Serdes.Long()`.
 */
export class IntegerSerde implements Serde<number> {
  serialize(value: number, topic?: string): Buffer {
    if (!Number.isInteger(value) || value < MIN || value > MAX) {
      throw new SerializationError(
        `Integer serde accepts integers in [${MIN}, ${MAX}], got ${value}`,
        { topic },
      );
    }
    const bytes = Buffer.allocUnsafe(4);
    bytes.writeInt32BE(value, 0);
    return bytes;
  }

  deserialize(bytes: Buffer, topic?: string): number {
    return requireWidth(bytes, 4, 'Integer', topic).readInt32BE(0);
  }
}
