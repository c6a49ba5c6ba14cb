import type { BytesStore } from '../bytes-store';

/** Marks a key whose prefetch is still in flight. */
const LOADING: Buffer = Buffer.alloc(0);

/**
 * The read set of the batch being processed, for engines without synchronous reads: the
 * latest known value (`null`: absent) of every prefetched key, kept current by the writes
 * made through the layer that owns it. It is what lets processing read synchronously a key
 * the cache has already evicted. Replaced at every prefetch, so it holds one batch at most.
 */
export class PrefetchedReads {
  private readonly values = new Map<string, Buffer | null>();

  get size(): number {
    return this.values.size;
  }

  /** The known value of `k`: a buffer, `null` (absent) or `undefined` (not known). */
  lookup(k: string): Buffer | null | undefined {
    const value = this.values.get(k);
    return value === LOADING ? undefined : value;
  }

  /** Records a write to `k` made through the owning layer. */
  noteWrite(k: string, value: Buffer | null): void {
    this.values.set(k, value);
  }

  /** Records a write only when `k` is already in the read set. */
  noteWriteIfKnown(k: string, value: Buffer | null): void {
    if (this.values.size !== 0 && this.values.has(k)) this.values.set(k, value);
  }

  clear(): void {
    this.values.clear();
  }

  /**
   * Replaces the read set with `keys`: keys `known` answers for are taken from it, the others
   * read from `store` in one multi-get (synchronous when the engine can). A key written while
   * the read is in flight keeps the written value. Returns the loaded keys and values (not
   * those answered by `known`) so the caller can also cache them.
   */
  async load(
    keys: readonly Buffer[],
    store: BytesStore,
    known: (k: string) => Buffer | null | undefined,
  ): Promise<{ keys: Buffer[]; strings: string[]; values: (Buffer | null)[] }> {
    this.values.clear();
    const missing: Buffer[] = [];
    const missingStrings: string[] = [];
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i];
      const k = key.toString('latin1');
      if (this.values.has(k)) continue;
      const value = known(k);
      if (value !== undefined) {
        this.values.set(k, value);
      } else {
        this.values.set(k, LOADING);
        missing.push(key);
        missingStrings.push(k);
      }
    }
    if (missing.length === 0) return { keys: missing, strings: missingStrings, values: [] };
    const read = store.capabilities.syncReads
      ? store.getMany(missing)
      : await store.getManyAsync(missing);
    const values: (Buffer | null)[] = new Array<Buffer | null>(missing.length);
    for (let i = 0; i < missing.length; i++) {
      const k = missingStrings[i];
      const current = this.values.get(k);
      if (current === LOADING) {
        const value = read[i] ?? null;
        this.values.set(k, value);
        values[i] = value;
      } else {
        // Written meanwhile: the written value wins over what the engine returned.
        values[i] = current ?? read[i] ?? null;
      }
    }
    return { keys: missing, strings: missingStrings, values };
  }
}
