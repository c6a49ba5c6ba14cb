import { SerializationError } from './serialization.error';
import type { Serde } from './serde';

/**
 * Raw bytes, passed through unchanged (Kafka's `Serdes.ByteArray()`/`Serdes.Bytes()`), and the
 * default key and value serde. The buffer is not copied: do not mutate a buffer after handing
 * it over. A `Uint8Array` is viewed as a Buffer without a copy.
 *
 * @throws SerializationError when asked to serialize anything else, e.g. a string key after
 *   `selectKey` or `groupBy` with no key serde given: Kafka Streams fails the same way (a
 *   `ClassCastException` naming the serde). Pass a serde (`Grouped.with`, `Consumed.with`,
 *   `Materialized.with`, `Produced.with`) or set `defaultKeySerde`/`defaultValueSerde`.
 */
export class BytesSerde implements Serde<Buffer> {
  serialize(value: Buffer, topic?: string): Buffer {
    const given: unknown = value;
    // null (a tombstone) passes through as before: the callers write it as an absent payload.
    if (Buffer.isBuffer(given) || given === null || given === undefined) return value;
    if (given instanceof Uint8Array) {
      return Buffer.from(given.buffer, given.byteOffset, given.length);
    }
    throw new SerializationError(
      `the bytes serde (the default serde) cannot serialize a ${describe(given)}: pass a serde for it (Grouped.with, Consumed.with, Materialized.with, Produced.with) or set defaultKeySerde/defaultValueSerde`,
      { topic },
    );
  }

  deserialize(bytes: Buffer): Buffer {
    return bytes;
  }
}

function describe(value: unknown): string {
  if (value === null || typeof value !== 'object') return typeof value;
  return value.constructor?.name ?? 'object';
}
