import { NonceCache } from './nonce-cache';

describe('NonceCache', () => {
  it('accepts a nonce once while its message is inside the window', () => {
    const nonces = new NonceCache(1000);
    expect(nonces.check('a', 10_000, 10_000)).toBe('accepted');
    expect(nonces.check('a', 10_000, 10_500)).toBe('replayed');
    expect(nonces.check('b', 10_400, 10_500)).toBe('accepted');
    expect(nonces.size).toBe(2);
    // a expires at 11_000, b at 11_400.
    expect(nonces.check('c', 11_200, 11_200)).toBe('accepted');
    expect(nonces.size).toBe(2);
    expect(nonces.check('b', 10_400, 11_300)).toBe('replayed');
  });

  it('refuses new nonces rather than forgetting live ones when full', () => {
    const nonces = new NonceCache(1000, 2);
    expect(nonces.check('a', 0, 0)).toBe('accepted');
    expect(nonces.check('b', 0, 0)).toBe('accepted');
    expect(nonces.check('c', 0, 0)).toBe('full');
    expect(nonces.check('a', 0, 0)).toBe('replayed');
    expect(nonces.check('c', 1001, 1001)).toBe('accepted');
  });
});
