import { NonceReplayGuard } from './nonce-replay.guard';

describe('NonceReplayGuard', () => {
  it('accepts a nonce once while its message is inside the window', () => {
    const guard = new NonceReplayGuard(1000);
    expect(guard.check('a', 10_000, 10_000)).toBe('accepted');
    expect(guard.check('a', 10_000, 10_500)).toBe('replayed');
    expect(guard.check('b', 10_400, 10_500)).toBe('accepted');
    expect(guard.size).toBe(2);
    // a expires at 11_000, b at 11_400.
    expect(guard.check('c', 11_200, 11_200)).toBe('accepted');
    expect(guard.size).toBe(2);
    expect(guard.check('b', 10_400, 11_300)).toBe('replayed');
  });

  it('refuses new nonces rather than forgetting live ones when full', () => {
    const guard = new NonceReplayGuard(1000, 2);
    expect(guard.check('a', 0, 0)).toBe('accepted');
    expect(guard.check('b', 0, 0)).toBe('accepted');
    expect(guard.check('c', 0, 0)).toBe('full');
    expect(guard.check('a', 0, 0)).toBe('replayed');
    expect(guard.check('c', 1001, 1001)).toBe('accepted');
  });
});
