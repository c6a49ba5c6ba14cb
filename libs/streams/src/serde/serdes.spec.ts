import { Serdes } from './serdes';
import { SerializationError } from './serialization.error';

const hex = (bytes: Buffer): string => bytes.toString('hex');

describe('Serdes', () => {
  it('returns shared stateless instances', () => {
    expect(Serdes.String()).toBe(Serdes.String());
    expect(Serdes.Long()).toBe(Serdes.Long());
  });

  describe('String', () => {
    it('writes UTF-8', () => {
      expect(hex(Serdes.String().serialize('aé€'))).toBe('61c3a9e282ac');
      expect(Serdes.String().deserialize(Buffer.from('61c3a9e282ac', 'hex'))).toBe('aé€');
      expect(hex(Serdes.String().serialize(''))).toBe('');
    });

    it('replaces invalid UTF-8 like Java', () => {
      expect(Serdes.String().deserialize(Buffer.from([0x61, 0xff]))).toBe('a\ufffd');
    });
  });

  describe('Long', () => {
    it('writes 8 bytes big-endian two’s complement', () => {
      expect(hex(Serdes.Long().serialize(1))).toBe('0000000000000001');
      expect(hex(Serdes.Long().serialize(-1))).toBe('ffffffffffffffff');
      expect(hex(Serdes.Long().serialize(10n))).toBe('000000000000000a');
    });
  });

  describe('LongBigInt', () => {
    it('reads and writes the same bytes as Long, as bigints', () => {
      const serde = Serdes.LongBigInt();
      expect(hex(serde.serialize(1n))).toBe('0000000000000001');
      expect(hex(serde.serialize(-1))).toBe('ffffffffffffffff');
      expect(hex(serde.serialize(9223372036854775807n))).toBe('7fffffffffffffff');
      expect(serde.deserialize(Buffer.from('8000000000000000', 'hex'))).toBe(-9223372036854775808n);
      expect(serde.deserialize(Serdes.Long().serialize(-42))).toBe(-42n);
    });

    it('rejects what a long cannot hold', () => {
      expect(() => Serdes.LongBigInt().serialize(2n ** 63n)).toThrow(SerializationError);
      expect(() => Serdes.LongBigInt().serialize(0.5)).toThrow(SerializationError);
      expect(() => Serdes.LongBigInt().deserialize(Buffer.alloc(4))).toThrow(SerializationError);
    });
  });

  // Integer: 4 bytes, two's complement; Double: 8 bytes, IEEE-754; both big-endian as Java's.
  it.each([
    ['Integer', 0, '00000000'],
    ['Integer', 1, '00000001'],
    ['Integer', -1, 'ffffffff'],
    ['Integer', 2147483647, '7fffffff'],
    ['Integer', -2147483648, '80000000'],
    ['Integer', 0x01020304, '01020304'],
    ['Double', 1.5, '3ff8000000000000'],
    ['Double', 1, '3ff0000000000000'],
    ['Double', -2, 'c000000000000000'],
    ['Double', 0, '0000000000000000'],
    ['Double', -0, '8000000000000000'],
    ['Double', Infinity, '7ff0000000000000'],
    ['Double', 0.1, '3fb999999999999a'],
  ] as const)('%s writes %p as %s and reads it back', (name, value, bytes) => {
    const serde = Serdes[name]();
    expect(hex(serde.serialize(value))).toBe(bytes);
    // toBe compares with Object.is: -0 reads back as -0.
    expect(serde.deserialize(Buffer.from(bytes, 'hex'))).toBe(value);
  });

  describe('Integer', () => {
    it.each([[2147483648], [-2147483649], [0.5], [NaN]])('rejects %p', (value) => {
      expect(() => Serdes.Integer().serialize(value)).toThrow(SerializationError);
    });

    it('rejects input that is not 4 bytes', () => {
      expect(() => Serdes.Integer().deserialize(Buffer.alloc(8))).toThrow(SerializationError);
    });
  });

  describe('Double', () => {
    it('round-trips NaN and rejects input that is not 8 bytes', () => {
      expect(Serdes.Double().deserialize(Serdes.Double().serialize(NaN))).toBeNaN();
      expect(() => Serdes.Double().deserialize(Buffer.alloc(4))).toThrow(SerializationError);
    });
  });

  describe('Bytes', () => {
    it('passes buffers through unchanged', () => {
      const bytes = Buffer.from([0, 0x80, 0xff]);
      expect(Serdes.Bytes().serialize(bytes)).toBe(bytes);
      expect(Serdes.Bytes().deserialize(bytes)).toBe(bytes);
    });

    it('views a Uint8Array as a Buffer over the same memory', () => {
      const array = new Uint8Array([1, 2, 3, 4]).subarray(1, 3);
      const bytes = Serdes.Bytes().serialize(array as Buffer);
      expect(Buffer.isBuffer(bytes)).toBe(true);
      expect(hex(bytes)).toBe('0203');
      array[0] = 9;
      expect(bytes[0]).toBe(9);
    });

    it('refuses anything else, naming the type and the way out, like Kafka Streams', () => {
      const bytes = Serdes.Bytes();
      const stringKey = (): Buffer => bytes.serialize('user-1' as unknown as Buffer, 'orders');
      expect(stringKey).toThrow(SerializationError);
      expect(stringKey).toThrow(
        'the bytes serde (the default serde) cannot serialize a string: pass a serde for it (Grouped.with, Consumed.with, Materialized.with, Produced.with) or set defaultKeySerde/defaultValueSerde (topic orders)',
      );
      expect(() => bytes.serialize({ n: 1 } as unknown as Buffer)).toThrow('serialize a Object');
      expect(bytes.serialize(null as unknown as Buffer)).toBeNull();
    });
  });

  describe('Void', () => {
    it('maps null to no bytes and refuses data', () => {
      expect(Serdes.Void().serialize(null).length).toBe(0);
      expect(Serdes.Void().deserialize(Buffer.alloc(0))).toBeNull();
      expect(() => Serdes.Void().deserialize(Buffer.from([1]))).toThrow(SerializationError);
    });
  });

  describe('Json', () => {
    it('is typed and throws SerializationError on bad JSON', () => {
      const serde = Serdes.Json<{ userId: string; amount: number }>();
      const event = serde.deserialize(Buffer.from('{"userId":"u1","amount":3}'));
      expect(event.userId).toBe('u1');
      expect(() => serde.deserialize(Buffer.from('not json'))).toThrow(SerializationError);
    });
  });
});
