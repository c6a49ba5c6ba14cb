import { BadRequestException } from '@nestjs/common';
import { epochMs, MAX_KEY_LENGTH, requireKey, requireOrdered } from './input-validation';

describe('order-stats input validation', () => {
  it('accepts a key given once, and refuses missing, repeated, nested or over-long ones', () => {
    expect(requireKey('from', 'user-001')).toBe('user-001');
    expect(requireKey('from', 'k'.repeat(MAX_KEY_LENGTH))).toHaveLength(MAX_KEY_LENGTH);
    for (const bad of [
      undefined,
      '',
      ['user-000', 'user-005'], // ?from=user-000&from=user-005
      { a: 'user-000' }, // ?from[a]=user-000 with an extended query parser
      'k'.repeat(MAX_KEY_LENGTH + 1),
    ]) {
      expect(() => requireKey('from', bad)).toThrow(BadRequestException);
    }
    expect(() => requireKey('from', ['a', 'b'])).toThrow("'from' must be given once");
  });

  it('reads epoch milliseconds given once, else the fallback or a 400', () => {
    expect(epochMs('to', undefined, 7)).toBe(7);
    expect(epochMs('to', '', 7)).toBe(7);
    expect(epochMs('to', '1700000000000', 7)).toBe(1_700_000_000_000);
    for (const bad of [['1', '2'], 'abc', '-1', '1e3', '9'.repeat(16), { x: '1' }]) {
      expect(() => epochMs('to', bad, 7)).toThrow(BadRequestException);
    }
  });

  it('orders bounds by UTF-8 bytes', () => {
    expect(() => requireOrdered('a', 'b')).not.toThrow();
    expect(() => requireOrdered('b', 'a')).toThrow(BadRequestException);
    // U+FF5E sorts after U+1F600 in UTF-16 code units but before it in UTF-8 bytes.
    expect(() => requireOrdered('\uFF5E', '😀')).not.toThrow();
  });
});
