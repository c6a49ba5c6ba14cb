import { hasPrefix, inRange, isEmptyRange, prefixUpperBound } from './byte-range';

const b = (...bytes: number[]): Buffer => Buffer.from(bytes);

describe('byte-range', () => {
  it.each([
    [[0x61], '62'],
    [[0x61, 0xff], '62'],
    [[0x61, 0xfe], '61ff'],
    [[0x00, 0xff, 0xff], '01'],
    [[0xff], undefined],
    [[0xff, 0xff], undefined],
    [[], undefined],
  ])('prefixUpperBound(%p) = %p', (prefix, expected) => {
    const input = b(...prefix);
    expect(prefixUpperBound(input)?.toString('hex')).toBe(expected);
    expect(input).toEqual(b(...prefix)); // not modified
  });

  it('compares ranges in unsigned byte order', () => {
    expect(isEmptyRange(b(0x80), b(0x7f))).toBe(true);
    expect(isEmptyRange(b(0x7f), b(0x80))).toBe(false);
    expect(isEmptyRange(undefined, b(0x00))).toBe(false);
    expect(inRange(b(0x80), b(0x7f), b(0xff))).toBe(true);
    expect(inRange(b(0x7f), b(0x80), undefined)).toBe(false);
    expect(inRange(Buffer.alloc(0), undefined, Buffer.alloc(0))).toBe(true);
  });

  it('matches prefixes', () => {
    expect(hasPrefix(b(0xff, 0x01), b(0xff))).toBe(true);
    expect(hasPrefix(b(0xff), b(0xff, 0x01))).toBe(false);
    expect(hasPrefix(b(0x01), Buffer.alloc(0))).toBe(true);
  });
});
