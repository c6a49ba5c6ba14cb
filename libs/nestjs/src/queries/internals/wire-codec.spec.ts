import { fromWire, toWire } from './wire-codec';

describe('wire codec', () => {
  it('round-trips what stores hold through JSON', () => {
    const value = {
      text: 'x',
      n: 1.5,
      big: 2n ** 70n,
      bytes: Buffer.from('héllo'),
      nothing: undefined,
      none: null,
      when: new Date(1_700_000_000_000),
      list: [1, 'two', { three: 3 }],
      tricky: { $nsw: 'buffer', value: 'not a buffer' },
      inf: Number.POSITIVE_INFINITY,
    };
    expect(fromWire(JSON.parse(JSON.stringify(toWire(value))))).toEqual(value);
  });

  it('refuses functions and symbols', () => {
    expect(() => toWire(() => 1)).toThrow(TypeError);
  });
});
