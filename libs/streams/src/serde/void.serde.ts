import type { Serde } from './serde';
import { SerializationError } from './serialization.error';

/**
 * Kafka's `Serdes.Void()`: for keys or values that carry no data. Serializes `null` to an empty
 * buffer and accepts only empty input.
 *
 * Throws {@link SerializationError} when asked to deserialize non-empty bytes: the topic holds
 * data, so use a serde that reads it.
 */
export class VoidSerde implements Serde<null> {
  serialize(_value: null): Buffer {
    return Buffer.alloc(0);
  }

  deserialize(bytes: Buffer, topic?: string): null {
    if (bytes.length !== 0) {
      throw new SerializationError(`Void serde expects no data but got ${bytes.length} bytes`, {
        topic,
      });
    }
    return null;
  }
}
