import { WriteBatch } from './write-batch';

describe('WriteBatch', () => {
  it('encodes puts, deletes and range deletes, growing past its first buffer', () => {
    const batch = new WriteBatch();
    const big = Buffer.alloc(10_000, 7);
    batch
      .put(Buffer.from('k'), big)
      .delete(Buffer.from('d'))
      .deleteRange(Buffer.from('a'), Buffer.from('b'));
    expect(batch.length).toBe(3);
    const encoded = batch.encoded();
    expect(batch.byteLength).toBe(encoded.length);
    expect(encoded.length).toBe(5 + 1 + 4 + 10_000 + 5 + 1 + 5 + 1 + 4 + 1);
    expect(encoded[0]).toBe(1);
    expect(encoded.readUInt32LE(1)).toBe(1);
    expect(encoded.readUInt32LE(6)).toBe(10_000);
    expect(encoded.subarray(10, 10_010).equals(big)).toBe(true);
    expect(encoded[10_010]).toBe(2);
    expect(encoded[10_016]).toBe(3);
    batch.clear();
    expect(batch.length).toBe(0);
    expect(batch.encoded().length).toBe(0);
  });

  it('puts a value after a prefix without building it', () => {
    const batch = new WriteBatch();
    const prefix = Buffer.from([1, 2, 3]);
    batch.put(Buffer.from('k'), Buffer.from('value'), prefix);
    prefix.fill(9); // copied when it was added
    const encoded = batch.encoded();
    expect(encoded.readUInt32LE(6)).toBe(8);
    expect(encoded.subarray(10)).toEqual(Buffer.from([1, 2, 3, ...Buffer.from('value')]));
    expect(() => batch.put(Buffer.from('k'), Buffer.from('v'), 'p' as unknown as Buffer)).toThrow(
      TypeError,
    );
    expect(batch.length).toBe(1);
  });

  it('adds nothing for a key or value that is not a Buffer', () => {
    const batch = new WriteBatch();
    expect(() => batch.put('a' as unknown as Buffer, Buffer.alloc(1))).toThrow(TypeError);
    expect(() => batch.delete(undefined as unknown as Buffer)).toThrow(TypeError);
    expect(() => batch.deleteRange(Buffer.alloc(1), null as unknown as Buffer)).toThrow(TypeError);
    expect(batch.length).toBe(0);
  });
});
