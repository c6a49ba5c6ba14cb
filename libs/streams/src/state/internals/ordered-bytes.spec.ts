import { lowerRangeBound, readTimestamp, upperRangeBound, writeTimestamp } from './ordered-bytes';

/** Every byte string over `alphabet` of length 0 to `maxLength`. */
function strings(alphabet: number[], maxLength: number): Buffer[] {
  let level: number[][] = [[]];
  const out: Buffer[] = [Buffer.alloc(0)];
  for (let length = 1; length <= maxLength; length++) {
    level = level.flatMap((prefix) => alphabet.map((byte) => [...prefix, byte]));
    out.push(...level.map((bytes) => Buffer.from(bytes)));
  }
  return out;
}

describe('timestamps as 8-byte big-endian longs', () => {
  it('writes Java ByteBuffer.putLong bytes and reads them back', () => {
    const buffer = Buffer.alloc(8);
    writeTimestamp(buffer, 1_704_067_200_000, 0);
    expect(buffer.toString('hex')).toBe('0000018cc251f400');
    expect(readTimestamp(buffer, 0)).toBe(1_704_067_200_000);
    writeTimestamp(buffer, Number.MAX_SAFE_INTEGER, 0);
    expect(buffer.toString('hex')).toBe('001fffffffffffff');
    expect(readTimestamp(buffer, 0)).toBe(Number.MAX_SAFE_INTEGER);
  });

  it('writes unbounded as Long.MAX_VALUE and clamps negatives to 0 (range bounds only)', () => {
    const buffer = Buffer.alloc(8);
    writeTimestamp(buffer, Number.POSITIVE_INFINITY, 0);
    expect(buffer.toString('hex')).toBe('7fffffffffffffff');
    writeTimestamp(buffer, -5, 0);
    expect(buffer.toString('hex')).toBe('0000000000000000');
  });
});

describe('range bounds over variable-length keys', () => {
  // Exhaustive over a small alphabet: keys up to 3 bytes, suffixes of 2 bytes.
  const alphabet = [0x00, 0x01, 0xff];
  const keys = strings(alphabet, 3);
  const suffixes = strings(alphabet, 2).filter((s) => s.length === 2);

  it('upperRangeBound is above every entry of a key <= keyTo with a suffix <= maxSuffix', () => {
    for (const keyTo of keys) {
      for (const maxSuffix of suffixes) {
        const bound = upperRangeBound(keyTo, maxSuffix);
        for (const key of keys.filter((k) => Buffer.compare(k, keyTo) <= 0)) {
          for (const suffix of suffixes.filter((s) => Buffer.compare(s, maxSuffix) <= 0)) {
            const entry = Buffer.concat([key, suffix]);
            if (Buffer.compare(entry, bound) > 0) {
              throw new Error(
                `entry ${entry.toString('hex')} above bound ${bound.toString('hex')} for keyTo ${keyTo.toString('hex')}`,
              );
            }
          }
        }
      }
    }
  });

  it('lowerRangeBound is below every entry of a key >= keyFrom', () => {
    for (const keyFrom of keys) {
      const bound = lowerRangeBound(keyFrom, 2);
      for (const key of keys.filter((k) => Buffer.compare(k, keyFrom) >= 0)) {
        for (const suffix of suffixes) {
          expect(Buffer.compare(Buffer.concat([key, suffix]), bound)).toBeGreaterThanOrEqual(0);
        }
      }
    }
  });

  it('covers the case appending maxSuffix to keyTo misses', () => {
    // Key "a" with a suffix starting 0x20 sorts after "a\x01" + suffix.
    const keyTo = Buffer.from('6101', 'hex');
    const maxSuffix = Buffer.from('20ff', 'hex');
    const entry = Buffer.from('6120ff', 'hex');
    expect(Buffer.compare(entry, Buffer.concat([keyTo, maxSuffix]))).toBeGreaterThan(0);
    expect(upperRangeBound(keyTo, maxSuffix).toString('hex')).toBe('6120ff');
  });
});
