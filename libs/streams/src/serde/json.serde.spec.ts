import { JsonSerde } from './json.serde';
import { SerializationError } from './serialization.error';
import { thrownBy } from '../../test-support/thrown-error';

interface Stats {
  count: number;
  sum: number;
}

const isStats = (value: unknown): value is Stats =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as Stats).count === 'number' &&
  typeof (value as Stats).sum === 'number';

describe('JsonSerde', () => {
  it('writes UTF-8 JSON and reads it back typed', () => {
    const serde = new JsonSerde<Stats>();
    const bytes = serde.serialize({ count: 2, sum: 1.5 });
    expect(bytes.toString('utf8')).toBe('{"count":2,"sum":1.5}');
    const stats: Stats = serde.deserialize(bytes);
    expect(stats).toEqual({ count: 2, sum: 1.5 });
  });

  it('writes non-ASCII text as UTF-8', () => {
    expect(new JsonSerde<string>().serialize('é').toString('hex')).toBe('22c3a922');
  });

  it('throws a SerializationError with the cause on malformed JSON', () => {
    const serde = new JsonSerde<Stats>();
    const error = thrownBy(
      () => serde.deserialize(Buffer.from('{"count":'), 'labs.events'),
      SerializationError,
    );
    expect(error.code).toBe('SERIALIZATION_ERROR');
    expect(error.retriable).toBe(false);
    expect(error.topic).toBe('labs.events');
    expect(error.message).toContain('labs.events');
    expect(error.cause).toBeInstanceOf(SyntaxError);
  });

  it('applies the guard', () => {
    const serde = new JsonSerde<Stats>({ guard: isStats });
    expect(serde.deserialize(Buffer.from('{"count":1,"sum":2}'))).toEqual({ count: 1, sum: 2 });
    expect(() => serde.deserialize(Buffer.from('{"count":"x"}'))).toThrow(SerializationError);
  });

  it('throws on values JSON cannot hold', () => {
    const serde = new JsonSerde<unknown>();
    expect(() => serde.serialize(undefined)).toThrow(SerializationError);
    expect(() => serde.serialize(10n)).toThrow(SerializationError);
    const cyclic: { self?: unknown } = {};
    cyclic.self = cyclic;
    expect(() => serde.serialize(cyclic)).toThrow(SerializationError);
  });

  it('uses the replacer and reviver', () => {
    const serde = new JsonSerde<{ n: bigint }>({
      replacer: (_key, value) => (typeof value === 'bigint' ? value.toString() : value),
      reviver: (key, value) => (key === 'n' && typeof value === 'string' ? BigInt(value) : value),
    });
    const bytes = serde.serialize({ n: 12345678901234567890n });
    expect(bytes.toString()).toBe('{"n":"12345678901234567890"}');
    expect(serde.deserialize(bytes).n).toBe(12345678901234567890n);
  });
});
