import type { BytesWrite, KeyValueBytes } from './bytes-store';

/** One batch of writes, newest write per key, keyed by the key's latin1 string. */
export type WriteBatchMap = Map<string, BytesWrite>;

/**
 * Writes an asynchronous engine has accepted but not yet applied: the batch still being filled
 * (`pending`) and batches handed to the engine whose write has not completed (`in flight`,
 * oldest first). Reads consult it before the engine, so they see every accepted write.
 */
export class WriteBehindBuffer {
  private current: WriteBatchMap = new Map();
  private readonly inFlight: WriteBatchMap[] = [];

  /** Keys in the batch still being filled. */
  get size(): number {
    return this.current.size;
  }

  /** Records a write (a `null` value is a delete); a later write to a key replaces it. */
  set(key: Buffer, value: Buffer | null): void {
    this.current.set(key.toString('latin1'), { key, value });
  }

  /**
   * The newest accepted write to `key` that may not have reached the engine yet, or undefined
   * when the engine's own value is current.
   */
  lookup(key: Buffer): BytesWrite | undefined {
    const id = key.toString('latin1');
    const pending = this.current.get(id);
    if (pending !== undefined) {
      return pending;
    }
    for (let i = this.inFlight.length - 1; i >= 0; i--) {
      const write = this.inFlight[i].get(id);
      if (write !== undefined) {
        return write;
      }
    }
    return undefined;
  }

  /** Moves the batch being filled into flight and returns it; undefined when it is empty. */
  take(): WriteBatchMap | undefined {
    if (this.current.size === 0) {
      return undefined;
    }
    const batch = this.current;
    this.current = new Map();
    this.inFlight.push(batch);
    return batch;
  }

  /** Forgets an in-flight batch once the engine has applied it (or failed to). */
  settle(batch: WriteBatchMap): void {
    const index = this.inFlight.indexOf(batch);
    if (index >= 0) {
      this.inFlight.splice(index, 1);
    }
  }

  /** Accepted writes whose key `matches`, newest per key, in ascending key order. */
  overlay(matches: (key: Buffer) => boolean): BytesWrite[] {
    const merged: WriteBatchMap = new Map();
    for (const batch of [...this.inFlight, this.current]) {
      for (const [id, write] of batch) {
        if (matches(write.key)) {
          merged.set(id, write);
        }
      }
    }
    return [...merged.keys()].sort().map((id) => merged.get(id) as BytesWrite);
  }

  /** Drops everything (the store closed or was destroyed). */
  clear(): void {
    this.current = new Map();
    this.inFlight.length = 0;
  }
}

/**
 * Applies `overlay` (ascending, from {@link WriteBehindBuffer.overlay}) to `entries` (ascending,
 * from the engine): overlay puts replace or add entries, overlay deletes remove them.
 */
export function mergeOverlay(
  entries: readonly KeyValueBytes[],
  overlay: readonly BytesWrite[],
): KeyValueBytes[] {
  if (overlay.length === 0) {
    return [...entries];
  }
  const merged: KeyValueBytes[] = [];
  let i = 0;
  let j = 0;
  while (i < entries.length || j < overlay.length) {
    const order =
      i === entries.length
        ? 1
        : j === overlay.length
          ? -1
          : Buffer.compare(entries[i].key, overlay[j].key);
    if (order < 0) {
      merged.push(entries[i++]);
      continue;
    }
    const write = overlay[j++];
    if (order === 0) {
      i++;
    }
    if (write.value !== null) {
      merged.push({ key: write.key, value: write.value });
    }
  }
  return merged;
}
