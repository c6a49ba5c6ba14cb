import { LongSerde } from './long.serde';
import { SerializationError } from './serialization.error';

const hex = (bytes: Buffer): string => bytes.toString('hex');

describe('LongSerde', () => {
  const serde = new LongSerde();

  it.each([
    [0, '0000000000000000'],
    [1, '0000000000000001'],
    [-1, 'ffffffffffffffff'],
    [256, '0000000000000100'],
    [-256, 'ffffffffffffff00'],
    [2 ** 32, '0000000100000000'],
    [-(2 ** 32), 'ffffffff00000000'],
    [Number.MAX_SAFE_INTEGER, '001fffffffffffff'],
    [Number.MIN_SAFE_INTEGER, 'ffe0000000000001'],
    [2 ** 60, '1000000000000000'],
    [-(2 ** 63), '8000000000000000'],
  ])('writes %p as Java does (%s) and reads it back', (value, bytes) => {
    expect(hex(serde.serialize(value))).toBe(bytes);
    expect(serde.deserialize(Buffer.from(bytes, 'hex'))).toBe(value);
  });

  it('writes -0 as 0', () => {
    expect(hex(serde.serialize(-0))).toBe('0000000000000000');
  });

  it('accepts bigints over the full 64-bit range', () => {
    expect(hex(serde.serialize(9223372036854775807n))).toBe('7fffffffffffffff');
    expect(hex(serde.serialize(-9223372036854775808n))).toBe('8000000000000000');
    expect(hex(serde.serialize(-1n))).toBe('ffffffffffffffff');
  });

  it.each([[1.5], [NaN], [Infinity], [-Infinity], [2 ** 63]])('rejects %p', (value) => {
    expect(() => serde.serialize(value)).toThrow(SerializationError);
  });

  it('rejects bigints outside the 64-bit range', () => {
    expect(() => serde.serialize(2n ** 63n)).toThrow(SerializationError);
    expect(() => serde.serialize(-(2n ** 63n) - 1n)).toThrow(SerializationError);
  });

  it('refuses to round a stored value a number cannot hold exactly', () => {
    const bytes = Buffer.from('7fffffffffffffff', 'hex');
    expect(() => serde.deserialize(bytes, 'orders')).toThrow(/LongBigInt/);
    try {
      serde.deserialize(bytes, 'orders');
    } catch (error) {
      expect(error).toBeInstanceOf(SerializationError);
      expect((error as SerializationError).code).toBe('SERIALIZATION_ERROR');
      expect((error as SerializationError).retriable).toBe(false);
      expect((error as SerializationError).topic).toBe('orders');
    }
    // 2^53 + 1 is not a double; 2^53 + 2 is.
    expect(() => serde.deserialize(Buffer.from('0020000000000001', 'hex'))).toThrow(
      SerializationError,
    );
    expect(serde.deserialize(Buffer.from('0020000000000002', 'hex'))).toBe(2 ** 53 + 2);
  });

  it.each([[0], [7], [9]])('rejects %p bytes', (length) => {
    expect(() => serde.deserialize(Buffer.alloc(length))).toThrow(SerializationError);
  });

  it('round-trips random safe integers', () => {
    for (let i = 0; i < 1000; i++) {
      const value = Math.floor((Math.random() - 0.5) * 2 * Number.MAX_SAFE_INTEGER);
      const bytes = serde.serialize(value);
      expect(bytes.readBigInt64BE(0)).toBe(BigInt(value));
      expect(serde.deserialize(bytes)).toBe(value);
    }
  });
});
