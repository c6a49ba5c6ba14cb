import type { BytesWrite, KeyValueBytes } from '../bytes-store';

/**
 * A small sorted buffer of writes (values and tombstones) in store-key order: what a segment
 * accepts while its engine is still opening, readable synchronously so that reads see every
 * accepted write. Holds at most the writes of one open call's duration, so a sorted array
 * with binary search is enough.
 */
export class PendingWrites {
  private readonly entries: { key: Buffer; value: Buffer | null }[] = [];

  /** Number of buffered writes (tombstones included). */
  get size(): number {
    return this.entries.length;
  }

  /** Buffers a write; a later write to the same key replaces the earlier one. */
  put(key: Buffer, value: Buffer | null): void {
    const index = this.search(key);
    if (index >= 0) {
      this.entries[index].value = value;
    } else {
      this.entries.splice(-index - 1, 0, { key, value });
    }
  }

  /** The buffered value: a buffer, `null` for a buffered delete, `undefined` when not buffered. */
  get(key: Buffer): Buffer | null | undefined {
    const index = this.search(key);
    return index >= 0 ? this.entries[index].value : undefined;
  }

  /** Buffered values (tombstones left out) with `from <= key <= to`, either bound open. */
  range(from: Buffer | undefined, to: Buffer | undefined, reverse: boolean): KeyValueBytes[] {
    const out: KeyValueBytes[] = [];
    for (const { key, value } of this.entries) {
      if (
        value !== null &&
        (from === undefined || Buffer.compare(key, from) >= 0) &&
        (to === undefined || Buffer.compare(key, to) <= 0)
      ) {
        out.push({ key, value });
      }
    }
    return reverse ? out.reverse() : out;
  }

  /** Every buffered write in key order, emptying the buffer. */
  drain(): BytesWrite[] {
    return this.entries.splice(0, this.entries.length);
  }

  /** Index of `key`, or `-(insertion point) - 1` when absent. */
  private search(key: Buffer): number {
    let low = 0;
    let high = this.entries.length - 1;
    while (low <= high) {
      const mid = (low + high) >>> 1;
      const cmp = Buffer.compare(this.entries[mid].key, key);
      if (cmp < 0) {
        low = mid + 1;
      } else if (cmp > 0) {
        high = mid - 1;
      } else {
        return mid;
      }
    }
    return -low - 1;
  }
}
