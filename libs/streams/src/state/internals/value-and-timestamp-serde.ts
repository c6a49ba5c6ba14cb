import type { Serde } from '../../serde/serde';
import type { ValueAndTimestamp } from '../value-and-timestamp';
import { readTimestamp, writeTimestamp } from './ordered-bytes';

/**
 * Kafka Streams' `ValueAndTimestamp` bytes: the timestamp as an 8-byte big-endian long, then
 * the value's bytes from the value serde. What a timestamped store keeps in its engine.
 *
 * Errors: `deserialize` of fewer than 8 bytes throws `RangeError` (the data is not a
 * timestamped value: the store was written by a plain key-value store; rebuild it); the value
 * serde's `SerializationError` passes through.
 */
export class ValueAndTimestampSerde<V> implements Serde<ValueAndTimestamp<V>> {
  constructor(readonly valueSerde: Serde<V>) {}

  serialize(value: ValueAndTimestamp<V>, topic?: string): Buffer {
    const raw = this.valueSerde.serialize(value.value, topic);
    const bytes = Buffer.allocUnsafe(8 + raw.length);
    writeTimestamp(bytes, value.timestamp, 0);
    raw.copy(bytes, 8);
    return bytes;
  }

  deserialize(bytes: Buffer, topic?: string): ValueAndTimestamp<V> {
    if (bytes.length < 8) {
      throw new RangeError(`a timestamped value needs at least 8 bytes, got ${bytes.length}`);
    }
    return {
      value: this.valueSerde.deserialize(bytes.subarray(8), topic),
      timestamp: readTimestamp(bytes, 0),
    };
  }
}
