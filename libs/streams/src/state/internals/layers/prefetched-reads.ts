import type { BytesStore } from '../../bytes-store';

/** Marks a key whose prefetch is still in flight. */
const LOADING: Buffer = Buffer.alloc(0);

/**
 * The read sets of the batches being processed, for engines without synchronous reads: the
 * latest known value (`null`: absent) of every prefetched key, kept current by the writes
 * made through the layer that owns it. It is what lets processing read synchronously a key
 * the cache has already evicted.
 *
 * Two at most: the stream thread prefetches a slice while it processes the one before, so a
 * prefetch starts a new read set and keeps the previous one (the slice being processed) until
 * the next; lookups try the newer first.
 */
export class PrefetchedReads {
  private values = new Map<string, Buffer | null>();
  private previous = new Map<string, Buffer | null>();

  get size(): number {
    return this.values.size + this.previous.size;
  }

  /** The known value of `k`: a buffer, `null` (absent) or `undefined` (not known). */
  lookup(k: string): Buffer | null | undefined {
    const value = this.values.get(k);
    if (value !== undefined && value !== LOADING) return value;
    return this.previous.size === 0 ? undefined : this.previous.get(k);
  }

  /** Records a write to `k` made through the owning layer. */
  noteWrite(k: string, value: Buffer | null): void {
    this.values.set(k, value);
    if (this.previous.size !== 0 && this.previous.has(k)) this.previous.set(k, value);
  }

  /** Records a write only when `k` is already in a read set. */
  noteWriteIfKnown(k: string, value: Buffer | null): void {
    if (this.values.size !== 0 && this.values.has(k)) this.values.set(k, value);
    if (this.previous.size !== 0 && this.previous.has(k)) this.previous.set(k, value);
  }

  clear(): void {
    this.values.clear();
    this.previous.clear();
  }

  /**
   * Starts a read set of `keys` (the previous one is kept, the one before dropped): keys
   * `known` answers for are taken from it, the others read from `store` in one multi-get, on
   * the engine's pool when it has one. A key written while the read is in flight keeps the
   * written value. Returns the loaded keys and values (not those answered by `known`) so the
   * caller can also cache them.
   */
  async load(
    keys: readonly Buffer[],
    store: BytesStore,
    known: (k: string) => Buffer | null | undefined,
  ): Promise<{ keys: Buffer[]; strings: string[]; values: (Buffer | null)[] }> {
    // A new map: a read still in flight for a set dropped here can only write to that one.
    const values = new Map<string, Buffer | null>();
    this.previous = this.values;
    this.values = values;
    const missing: Buffer[] = [];
    const missingStrings: string[] = [];
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i];
      const k = key.toString('latin1');
      if (values.has(k)) continue;
      const value = known(k);
      if (value !== undefined) {
        values.set(k, value);
      } else {
        values.set(k, LOADING);
        missing.push(key);
        missingStrings.push(k);
      }
    }
    if (missing.length === 0) return { keys: missing, strings: missingStrings, values: [] };
    const read = await store.getManyAsync(missing);
    const loaded: (Buffer | null)[] = new Array<Buffer | null>(missing.length);
    for (let i = 0; i < missing.length; i++) {
      const k = missingStrings[i];
      const current = values.get(k);
      if (current === LOADING) {
        const value = read[i] ?? null;
        values.set(k, value);
        loaded[i] = value;
      } else {
        // Written meanwhile: the written value wins over what the engine returned.
        loaded[i] = current ?? read[i] ?? null;
      }
    }
    return { keys: missing, strings: missingStrings, values: loaded };
  }
}
