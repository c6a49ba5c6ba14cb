import { InvalidWindowError } from '../../../errors/invalid-window.error';
import { InvalidWindowedKeyError } from '../../../errors/invalid-windowed-key.error';
import { WindowKeySchema } from './window-key-schema';

const ALICE = Buffer.from('alice');

describe('WindowKeySchema', () => {
  it('lays out store keys as [key][8-byte BE start][4-byte BE seqnum]', () => {
    const storeKey = WindowKeySchema.toStoreKeyBinary(ALICE, 300_000, 0);
    expect(storeKey.toString('hex')).toBe('616c696365' + '00000000000493e0' + '00000000');
    expect(WindowKeySchema.toStoreKeyBinary(ALICE, 1_704_067_200_000, 7).toString('hex')).toBe(
      '616c696365' + '0000018cc251f400' + '00000007',
    );
    expect(WindowKeySchema.toStoreKeyBinary(Buffer.alloc(0), 0, 0x7fffffff).toString('hex')).toBe(
      '0000000000000000' + '7fffffff',
    );
  });

  it('splits store keys back into key, start and seqnum', () => {
    const parts = WindowKeySchema.fromStoreKey(
      Buffer.from('616c696365' + '0000018cc251f400' + '00000007', 'hex'),
    );
    expect(parts.key.toString()).toBe('alice');
    expect(parts.windowStart).toBe(1_704_067_200_000);
    expect(parts.seqnum).toBe(7);
    expect(
      WindowKeySchema.extractStoreTimestamp(WindowKeySchema.toStoreKeyBinary(ALICE, 42, 1)),
    ).toBe(42);
  });

  it('orders one key by window start, then seqnum', () => {
    const keys = [
      WindowKeySchema.toStoreKeyBinary(ALICE, 600_000, 0),
      WindowKeySchema.toStoreKeyBinary(ALICE, 300_000, 2),
      WindowKeySchema.toStoreKeyBinary(ALICE, 300_000, 1),
    ];
    const sorted = [...keys].sort(Buffer.compare).map((k) => WindowKeySchema.fromStoreKey(k));
    expect(sorted.map((p) => [p.windowStart, p.seqnum])).toEqual([
      [300_000, 1],
      [300_000, 2],
      [600_000, 0],
    ]);
  });

  it('builds fixed-size bounds for one key', () => {
    expect(WindowKeySchema.lowerRangeFixedSize(ALICE, 300_000).toString('hex')).toBe(
      '616c696365' + '00000000000493e0' + '00000000',
    );
    expect(WindowKeySchema.upperRangeFixedSize(ALICE, 600_000).toString('hex')).toBe(
      '616c696365' + '00000000000927c0' + 'ffffffff',
    );
  });

  it('lays out output keys as [key][8-byte BE start] (TimeWindowedSerializer)', () => {
    const bytes = WindowKeySchema.toBinary(ALICE, 300_000);
    expect(bytes.toString('hex')).toBe('616c696365' + '00000000000493e0');
    const back = WindowKeySchema.fromBinary(bytes);
    expect([back.key.toString(), back.windowStart]).toEqual(['alice', 300_000]);
  });

  it('rejects invalid input with typed errors', () => {
    expect(() => WindowKeySchema.toStoreKeyBinary(ALICE, -1, 0)).toThrow(InvalidWindowError);
    expect(() => WindowKeySchema.toStoreKeyBinary(ALICE, 0, 0x80000000)).toThrow(
      InvalidWindowError,
    );
    expect(() => WindowKeySchema.fromStoreKey(Buffer.alloc(11))).toThrow(InvalidWindowedKeyError);
    expect(() => WindowKeySchema.fromBinary(Buffer.alloc(7))).toThrow(InvalidWindowedKeyError);
  });
});
