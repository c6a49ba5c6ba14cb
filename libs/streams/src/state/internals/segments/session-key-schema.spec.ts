import { InvalidWindowError } from '../../../errors/invalid-window.error';
import { InvalidWindowedKeyError } from '../../../errors/invalid-windowed-key.error';
import { SessionKeySchema } from './session-key-schema';

const BOB = Buffer.from('bob');

describe('SessionKeySchema', () => {
  it('lays out session keys as [key][8-byte BE end][8-byte BE start]', () => {
    const bytes = SessionKeySchema.toBinary(BOB, 5_000, 8_000);
    expect(bytes.toString('hex')).toBe('626f62' + '0000000000001f40' + '0000000000001388');
    const parts = SessionKeySchema.fromBinary(bytes);
    expect([parts.key.toString(), parts.start, parts.end]).toEqual(['bob', 5_000, 8_000]);
    expect(SessionKeySchema.extractEndTimestamp(bytes)).toBe(8_000);
  });

  it('orders one key by end, then start', () => {
    const sorted = [
      SessionKeySchema.toBinary(BOB, 0, 9_000),
      SessionKeySchema.toBinary(BOB, 7_000, 8_000),
      SessionKeySchema.toBinary(BOB, 5_000, 8_000),
    ]
      .sort(Buffer.compare)
      .map((k) => SessionKeySchema.fromBinary(k));
    expect(sorted.map((p) => [p.start, p.end])).toEqual([
      [5_000, 8_000],
      [7_000, 8_000],
      [0, 9_000],
    ]);
  });

  it('builds fixed-size bounds for one key: [end >= earliest][start <= latest]', () => {
    expect(SessionKeySchema.lowerRangeFixedSize(BOB, 4_000).toString('hex')).toBe(
      '626f62' + '0000000000000fa0' + '0000000000000000',
    );
    expect(SessionKeySchema.upperRangeFixedSize(BOB, 9_000).toString('hex')).toBe(
      '626f62' + '7fffffffffffffff' + '0000000000002328',
    );
  });

  it('rejects invalid input with typed errors', () => {
    expect(() => SessionKeySchema.toBinary(BOB, 10, 9)).toThrow(InvalidWindowError);
    expect(() => SessionKeySchema.toBinary(BOB, -1, 9)).toThrow(InvalidWindowError);
    expect(() => SessionKeySchema.fromBinary(Buffer.alloc(15))).toThrow(InvalidWindowedKeyError);
  });
});
