import type { Serde } from '../../../serde/serde';
import { SerializationError } from '../../../serde/serialization.error';

/**
 * The key of a record waiting in a left/outer stream-stream join's shared store (Kafka
 * Streams' `TimestampedKeyAndJoinSide`): its timestamp, its side and its key.
 */
export interface TimestampedKeyAndJoinSide<K> {
  readonly timestamp: number;
  readonly leftSide: boolean;
  readonly key: K;
}

/**
 * A waiting record's value, on its side (Kafka Streams' `LeftOrRightValue`): exactly one of
 * `left` and `right` is set.
 */
export type LeftOrRightValue<V1, V2> =
  { readonly side: 'left'; readonly value: V1 } | { readonly side: 'right'; readonly value: V2 };

/**
 * Kafka Streams' `TimestampedKeyAndJoinSideSerializer` layout: the timestamp as 8 big-endian
 * bytes, one byte for the side (1 left, 0 right), then the key's bytes. The store therefore
 * iterates by timestamp, then side (right first), then key.
 */
export class TimestampedKeyAndJoinSideSerde<K> implements Serde<TimestampedKeyAndJoinSide<K>> {
  constructor(private readonly keySerde: Serde<K>) {}

  serialize(data: TimestampedKeyAndJoinSide<K>, topic?: string): Buffer {
    const key = this.keySerde.serialize(data.key, topic);
    const out = Buffer.allocUnsafe(9 + key.length);
    out.writeBigInt64BE(BigInt(data.timestamp), 0);
    out[8] = data.leftSide ? 1 : 0;
    key.copy(out, 9);
    return out;
  }

  /** @throws SerializationError for fewer than 9 bytes (not this layout). */
  deserialize(bytes: Buffer, topic?: string): TimestampedKeyAndJoinSide<K> {
    if (bytes.length < 9) {
      throw new SerializationError(
        `a timestamped join key needs at least 9 bytes, got ${bytes.length}`,
      );
    }
    return {
      timestamp: Number(bytes.readBigInt64BE(0)),
      leftSide: bytes[8] === 1,
      key: this.keySerde.deserialize(bytes.subarray(9), topic),
    };
  }
}

/**
 * The waiting records of one {@link TimestampedKeyAndJoinSide}, as Kafka Streams'
 * `ListValueStore` keeps them: `Serdes.ListSerde` of variable-size entries (a strategy byte
 * 1, a 4-byte count, then each entry's 4-byte length and bytes), each entry Kafka's
 * `LeftOrRightValueSerializer` layout (a side byte, 1 left or 0 right, then the value).
 */
export class LeftOrRightValuesSerde<V1, V2> implements Serde<readonly LeftOrRightValue<V1, V2>[]> {
  constructor(
    private readonly leftSerde: Serde<V1>,
    private readonly rightSerde: Serde<V2>,
  ) {}

  serialize(values: readonly LeftOrRightValue<V1, V2>[], topic?: string): Buffer {
    const entries = values.map((entry) => {
      const bytes =
        entry.side === 'left'
          ? this.leftSerde.serialize(entry.value, topic)
          : this.rightSerde.serialize(entry.value, topic);
      return Buffer.concat([Buffer.from([entry.side === 'left' ? 1 : 0]), bytes]);
    });
    const header = Buffer.allocUnsafe(5);
    header[0] = VARIABLE_SIZE;
    header.writeInt32BE(entries.length, 1);
    const parts: Buffer[] = [header];
    for (const entry of entries) {
      const length = Buffer.allocUnsafe(4);
      length.writeInt32BE(entry.length, 0);
      parts.push(length, entry);
    }
    return Buffer.concat(parts);
  }

  /** @throws SerializationError for bytes that are not this layout. */
  deserialize(bytes: Buffer, topic?: string): LeftOrRightValue<V1, V2>[] {
    if (bytes.length < 5 || bytes[0] !== VARIABLE_SIZE) {
      throw new SerializationError('not a list of join values (Serdes.ListSerde, variable size)');
    }
    const count = bytes.readInt32BE(1);
    const values: LeftOrRightValue<V1, V2>[] = [];
    let offset = 5;
    for (let i = 0; i < count; i++) {
      if (offset + 4 > bytes.length) throw new SerializationError('a join value list is truncated');
      const length = bytes.readInt32BE(offset);
      offset += 4;
      if (length < 1 || offset + length > bytes.length) {
        throw new SerializationError('a join value list is truncated');
      }
      const side = bytes[offset];
      const value = bytes.subarray(offset + 1, offset + length);
      offset += length;
      values.push(
        side === 1
          ? { side: 'left', value: this.leftSerde.deserialize(value, topic) }
          : { side: 'right', value: this.rightSerde.deserialize(value, topic) },
      );
    }
    return values;
  }
}

/** `Serdes.ListSerde`'s flag of variable-size entries (`SerializationStrategy.VARIABLE_SIZE`). */
const VARIABLE_SIZE = 1;
