import type { Serde } from './serde';

/**
 * Raw bytes, passed through unchanged (Kafka's `Serdes.ByteArray()`/`Serdes.Bytes()`). Never
 * throws. The buffer is not copied: do not mutate a buffer after handing it over.
 */
export class BytesSerde implements Serde<Buffer> {
  serialize(value: Buffer): Buffer {
    return value;
  }

  deserialize(bytes: Buffer): Buffer {
    return bytes;
  }
}
