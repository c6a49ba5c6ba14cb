/**
 * The nonces of accepted instance messages (queries and hop tokens), each remembered until its message's timestamp
 * leaves the replay window, so that a message is accepted once: a second copy within the
 * window is a replay, and any copy after it is refused for its age anyway. Bounded: beyond
 * `maxEntries` live nonces, new messages are refused (retriable) rather than forgetting nonces
 * still inside the window. (Not a Nest guard: `InstanceAuthenticator` asks it.)
 */
export class NonceCache {
  /** Nonce -> when it may be forgotten (epoch ms), in arrival order. */
  private readonly seen = new Map<string, number>();

  constructor(
    private readonly windowMs: number,
    private readonly maxEntries = 500_000,
  ) {}

  /** Live nonces remembered now. */
  get size(): number {
    return this.seen.size;
  }

  /**
   * Records `nonce` of a message stamped `timestamp` (already checked to be inside the window).
   *
   * @returns `accepted`, `replayed` (seen before), or `full` (too many live nonces: refuse, retriable).
   */
  check(nonce: string, timestamp: number, now = Date.now()): 'accepted' | 'replayed' | 'full' {
    this.forgetExpired(now);
    if (this.seen.has(nonce)) return 'replayed';
    if (this.seen.size >= this.maxEntries) return 'full';
    this.seen.set(nonce, timestamp + this.windowMs);
    return 'accepted';
  }

  /**
   * Drops nonces whose messages can no longer pass the age check. Nonces arrive roughly in
   * timestamp order, so the sweep stops at the first live one (an older one behind it waits
   * for the next sweep: kept a little longer, never forgotten early).
   */
  private forgetExpired(now: number): void {
    for (const [nonce, expiresAt] of this.seen) {
      if (expiresAt >= now) break;
      this.seen.delete(nonce);
    }
  }
}
