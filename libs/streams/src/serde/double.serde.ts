import type { Serde } from './serde';
import { requireWidth } from './fixed-width';

/**
 * Numbers as 8-byte IEEE-754 doubles, big-endian: byte-compatible with Java's
 * `Serdes.Double()`. Every JavaScript number (including NaN, infinities and -0) round-trips.
 *
 * Throws {@link SerializationError} on input that is not exactly 8 bytes (deserialize): the
 * data was not written by a Double serializer.
 */
export class DoubleSerde implements Serde<number> {
  serialize(value: number): Buffer {
    const bytes = Buffer.allocUnsafe(8);
    bytes.writeDoubleBE(value, 0);
    return bytes;
  }

  deserialize(bytes: Buffer, topic?: string): number {
    return requireWidth(bytes, 8, 'Double', topic).readDoubleBE(0);
  }
}
