import { Serdes } from '../../../serde/serdes';
import { SerializationError } from '../../../serde/serialization.error';
import { LeftOrRightValuesSerde, TimestampedKeyAndJoinSideSerde } from './outer-join-records';

const str = Serdes.String();

describe('the outer-join store layout', () => {
  // The bytes are those of Kafka Streams 4.4's outer-join store changelog for the same records.
  it('writes keys as timestamp, side and key bytes', () => {
    const serde = new TimestampedKeyAndJoinSideSerde(str);
    expect(serde.serialize({ timestamp: 1, leftSide: true, key: 'k' }).toString('hex')).toBe(
      '0000000000000001016b',
    );
    expect(serde.serialize({ timestamp: 2, leftSide: false, key: 'q' }).toString('hex')).toBe(
      '00000000000000020071',
    );
    expect(serde.deserialize(Buffer.from('0000000000000001016b', 'hex'))).toEqual({
      timestamp: 1,
      leftSide: true,
      key: 'k',
    });
  });

  it('writes the waiting values as a variable-size list of side-tagged values', () => {
    const serde = new LeftOrRightValuesSerde(str, str);
    const values = [
      { side: 'left', value: 'a' },
      { side: 'left', value: 'a2' },
    ] as const;
    expect(serde.serialize(values).toString('hex')).toBe('010000000200000002016100000003016132');
    expect(serde.serialize([{ side: 'right', value: 'b' }]).toString('hex')).toBe(
      '0100000001000000020062',
    );
    expect(serde.deserialize(Buffer.from('010000000200000002016100000003016132', 'hex'))).toEqual(
      values,
    );
  });

  it('refuses bytes of another layout', () => {
    expect(() => new TimestampedKeyAndJoinSideSerde(str).deserialize(Buffer.alloc(8))).toThrow(
      new SerializationError('a timestamped join key needs at least 9 bytes, got 8'),
    );
    expect(() =>
      new LeftOrRightValuesSerde(str, str).deserialize(Buffer.from('0000', 'hex')),
    ).toThrow(
      new SerializationError('not a list of join values (Serdes.ListSerde, variable size)'),
    );
    expect(() =>
      new LeftOrRightValuesSerde(str, str).deserialize(Buffer.from('01000000020000000201', 'hex')),
    ).toThrow(new SerializationError('a join value list is truncated'));
  });
});
