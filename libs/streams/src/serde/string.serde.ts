import type { Serde } from './serde';

/**
 * UTF-8 strings, like Kafka's `StringSerializer`/`StringDeserializer`. Never throws: bytes that
 * are not valid UTF-8 decode with U+FFFD replacement characters, as in Java.
 */
export class StringSerde implements Serde<string> {
  serialize(value: string): Buffer {
    return Buffer.from(value, 'utf8');
  }

  deserialize(bytes: Buffer): string {
    return bytes.toString('utf8');
  }
}
