import type { BytesStore, BytesWrite, KeyValueBytes } from '../../bytes-store';
import { InMemoryBytesStore } from '../in-memory-bytes.store';

/**
 * One segment of a segmented store: a bytes store holding the entries whose segment time
 * (window start, or session end) falls in `[id * interval, (id + 1) * interval)`.
 *
 * Opening an engine is asynchronous, but a new segment is needed in the middle of a
 * synchronous `put` (when stream time enters a new interval). So a segment created on the hot
 * path starts opening in the background and accepts writes at once into an in-memory buffer,
 * which synchronous reads consult; when the engine is open the buffer is applied as one write
 * batch. A new segment is empty, so the buffer alone answers reads correctly until then (and
 * a buffered delete need not reach the engine). Asynchronous reads wait for the open.
 *
 * If opening fails, every later call on the segment throws the engine's error (a
 * `ProcessorStateError`): fatal for the task, as any engine failure.
 */
export class KeyValueSegment {
  private pending: InMemoryBytesStore | undefined;
  private failure: { error: unknown } | undefined;
  private readonly opened: Promise<void>;
  private dropped = false;

  private constructor(
    /** Segment id: `floor(segmentTime / segmentInterval)`. */
    readonly id: number,
    /**
     * The segment's name, `<store>.<segment start>`: its directory's name. Not the engine's
     * name, which may be the store's (the RocksDB factory names engines after the store).
     */
    readonly name: string,
    /** The engine holding this segment's entries. */
    readonly store: BytesStore,
    alreadyOpen: boolean,
  ) {
    if (alreadyOpen) {
      this.opened = Promise.resolve();
    } else {
      this.pending = new InMemoryBytesStore(name);
      void this.pending.open(); // synchronous for the in-memory engine
      this.opened = this.completeOpen();
      // The failure is kept and rethrown by every later call; never an unhandled rejection.
      this.opened.catch(() => undefined);
    }
  }

  /** Wraps an engine that is already open (a segment found at startup). */
  static open(id: number, name: string, store: BytesStore): KeyValueSegment {
    return new KeyValueSegment(id, name, store, true);
  }

  /** Starts opening `store` in the background; the segment accepts writes at once. */
  static opening(id: number, name: string, store: BytesStore): KeyValueSegment {
    return new KeyValueSegment(id, name, store, false);
  }

  /** True once the segment was dropped (expired) or closed by its owner. */
  get isDropped(): boolean {
    return this.dropped;
  }

  /** Resolves when the engine is open and buffered writes are applied; rejects if that failed. */
  ready(): Promise<void> {
    return this.opened;
  }

  get(key: Buffer): Buffer | undefined {
    this.throwIfFailed();
    return (this.pending ?? this.store).get(key);
  }

  put(key: Buffer, value: Buffer | null): void {
    this.throwIfFailed();
    (this.pending ?? this.store).put(key, value);
  }

  /** Applies `writes` as one batch (into the buffer while opening). */
  putAll(writes: readonly BytesWrite[]): void {
    this.throwIfFailed();
    (this.pending ?? this.store).putAll(writes);
  }

  /** Entries with `from <= key <= to`, ascending or descending; either bound open. */
  range(
    from: Buffer | undefined,
    to: Buffer | undefined,
    reverse: boolean,
  ): Iterable<KeyValueBytes> {
    this.throwIfFailed();
    const store = this.pending ?? this.store;
    return reverse ? store.reverseRange(from, to) : store.range(from, to);
  }

  async getAsync(key: Buffer): Promise<Buffer | undefined> {
    await this.opened;
    return this.store.getAsync(key);
  }

  async rangeAsync(
    from: Buffer | undefined,
    to: Buffer | undefined,
    reverse: boolean,
  ): Promise<KeyValueBytes[]> {
    await this.opened;
    return this.store.rangeAsync(from, to, reverse);
  }

  approximateNumEntries(): number {
    if (this.pending !== undefined) return this.pending.approximateNumEntries();
    return this.failure === undefined ? this.store.approximateNumEntries() : 0;
  }

  async flush(): Promise<void> {
    await this.opened;
    await this.store.flush();
  }

  /** Waits for a pending open (ignoring its failure) and closes the engine. */
  async close(): Promise<void> {
    this.dropped = true;
    await this.opened.catch(() => undefined);
    await this.store.close();
  }

  /** Waits for a pending open (ignoring its failure), closes the engine and deletes its data. */
  async destroy(): Promise<void> {
    this.dropped = true;
    await this.opened.catch(() => undefined);
    await this.store.destroy();
  }

  private async completeOpen(): Promise<void> {
    try {
      await this.store.open();
      const writes = this.pending ? [...this.pending.all()] : [];
      if (writes.length > 0) this.store.putAll(writes);
      this.pending = undefined;
    } catch (error: unknown) {
      this.failure = { error };
      this.pending = undefined;
      throw error;
    }
  }

  private throwIfFailed(): void {
    if (this.failure !== undefined) {
      throw this.failure.error;
    }
  }
}
