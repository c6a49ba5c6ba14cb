/**
 * Decoders of the addon's packed results (native/packed.h, native/iterator.cc). The values
 * are views into one Buffer per call: cheap to make, but a value kept alive keeps its whole
 * chunk alive (copy it, `Buffer.from(value)`, to keep a few values of a large read).
 */

/** A key and its value. */
export interface RocksDBEntry {
  readonly key: Buffer;
  readonly value: Buffer;
}

/** Multi-get: u32 count, count i32 lengths (-1 = missing), then the values' bytes. */
export function unpackValues(packed: Buffer): (Buffer | undefined)[] {
  const count = packed.readUInt32LE(0);
  const values = new Array<Buffer | undefined>(count);
  let data = 4 + 4 * count;
  for (let i = 0; i < count; i++) {
    const length = packed.readInt32LE(4 + 4 * i);
    if (length < 0) {
      values[i] = undefined;
    } else {
      values[i] = packed.subarray(data, data + length);
      data += length;
    }
  }
  return values;
}

/** An iterator chunk: u32 count, u32 done, count (key length, value length) pairs, bytes. */
export function unpackEntries(packed: Buffer): { entries: RocksDBEntry[]; done: boolean } {
  const count = packed.readUInt32LE(0);
  const done = packed.readUInt32LE(4) !== 0;
  const entries = new Array<RocksDBEntry>(count);
  let data = 8 + 8 * count;
  for (let i = 0; i < count; i++) {
    const keyLength = packed.readUInt32LE(8 + 8 * i);
    const valueLength = packed.readUInt32LE(12 + 8 * i);
    const key = packed.subarray(data, data + keyLength);
    data += keyLength;
    entries[i] = { key, value: packed.subarray(data, data + valueLength) };
    data += valueLength;
  }
  return { entries, done };
}
