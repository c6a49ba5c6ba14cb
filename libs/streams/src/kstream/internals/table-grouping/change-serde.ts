import type { Serde } from '../../../serde/serde';
import { SerializationError } from '../../../serde/serialization.error';
import { change, type Change } from '../change';

/**
 * The serde of a table's changes on a repartition topic (Kafka Streams' `ChangedSerializer`
 * and `ChangedDeserializer`, as `KTable.groupBy` writes them): the old value then flag 0, the
 * new value then flag 1, or a varint length, the new value, the old value, then flag 2 when
 * both are set. Reads Kafka's flags 3 to 5 too (the same with a trailing `isLatest` byte).
 *
 * Errors: `serialize` throws `SerializationError` for a change with neither value;
 * `deserialize` for an unknown flag (the topic holds something else).
 */
export class ChangeSerde<T> implements Serde<Change<T>> {
  constructor(private readonly inner: Serde<T>) {}

  serialize(value: Change<T>, topic?: string): Buffer {
    const newBytes = value.newValue === null ? null : this.inner.serialize(value.newValue, topic);
    const oldBytes = value.oldValue === null ? null : this.inner.serialize(value.oldValue, topic);
    if (newBytes !== null && oldBytes !== null) {
      return Buffer.concat([varint(newBytes.length), newBytes, oldBytes, Buffer.from([2])]);
    }
    if (newBytes !== null) return Buffer.concat([newBytes, Buffer.from([1])]);
    if (oldBytes !== null) return Buffer.concat([oldBytes, Buffer.from([0])]);
    throw new SerializationError('both old and new values of a change are null', { topic });
  }

  deserialize(bytes: Buffer, topic?: string): Change<T> {
    const flag = bytes[bytes.length - 1];
    const body =
      flag >= 3 ? bytes.subarray(0, bytes.length - 2) : bytes.subarray(0, bytes.length - 1);
    const value = (part: Buffer): T => this.inner.deserialize(part, topic);
    switch (flag) {
      case 0:
      case 3:
        return change<T>(null, value(body));
      case 1:
      case 4:
        return change<T>(value(body), null);
      case 2:
      case 5: {
        const { length, size } = readVarint(body);
        return change(
          value(body.subarray(size, size + length)),
          value(body.subarray(size + length)),
        );
      }
      default:
        throw new SerializationError(`unknown change encoding flag ${String(flag)}`, { topic });
    }
  }
}

/** Kafka's zig-zag varint (`ByteUtils.writeVarint`). */
function varint(value: number): Buffer {
  let v = (value << 1) ^ (value >> 31);
  const out: number[] = [];
  while ((v & ~0x7f) !== 0) {
    out.push((v & 0x7f) | 0x80);
    v >>>= 7;
  }
  out.push(v);
  return Buffer.from(out);
}

function readVarint(bytes: Buffer): { length: number; size: number } {
  let value = 0;
  let shift = 0;
  let size = 0;
  for (;;) {
    if (size >= bytes.length || size > 4) throw new SerializationError('malformed change length');
    const b = bytes[size++];
    value |= (b & 0x7f) << shift;
    if ((b & 0x80) === 0) break;
    shift += 7;
  }
  return { length: (value >>> 1) ^ -(value & 1), size };
}
