import type { NativeIterator } from './internals/native';
import { unpackEntries, type RocksDBEntry } from './internals/packed';

/** Entries per chunk of the synchronous iteration (`[Symbol.iterator]`): grows to the max. */
const FIRST_CHUNK = 64;
const MAX_CHUNK = 1024;

/**
 * An ordered iterator over a RocksDB snapshot taken when it was created: later writes are not
 * seen. Reads entries in chunks (one addon call each): `nextChunk(n)` on the main thread,
 * `nextChunkAsync(n)` on the libuv pool, or `for ... of`, which reads growing chunks.
 *
 * Close it when done (`close()`, or a `for ... of` that ends or breaks does it): it pins
 * memory and files. Closing the database closes it too.
 *
 * Errors: `RocksDBClosedError` after close (its own or its database's): stop using it;
 * `RocksDBError` when RocksDB fails to read (e.g. `Corruption`); an `Error` when a call comes
 * while an asynchronous chunk is being read: await it first.
 */
export class RocksDBIterator implements IterableIterator<RocksDBEntry> {
  private buffered: RocksDBEntry[] = [];
  private position = 0;
  private finished = false;
  private chunkSize = FIRST_CHUNK;

  /** @internal Made by `RocksDB.iterator`. */
  constructor(private readonly native: NativeIterator) {}

  /**
   * The next up to `limit` entries (fewer when about `maxBytes` bytes are read, 1 MiB by
   * default); `done` is true once the end is reached.
   */
  nextChunk(limit: number, maxBytes?: number): { entries: RocksDBEntry[]; done: boolean } {
    const chunk = unpackEntries(this.native.nextChunk(limit, maxBytes));
    this.finished = chunk.done;
    return chunk;
  }

  /** Same as {@link nextChunk}, read on the libuv pool. */
  async nextChunkAsync(
    limit: number,
    maxBytes?: number,
  ): Promise<{ entries: RocksDBEntry[]; done: boolean }> {
    const chunk = unpackEntries(await this.native.nextChunkAsync(limit, maxBytes));
    this.finished = chunk.done;
    return chunk;
  }

  next(): IteratorResult<RocksDBEntry> {
    while (this.position === this.buffered.length) {
      if (this.finished) {
        this.close();
        return { done: true, value: undefined };
      }
      const { entries } = this.nextChunk(this.chunkSize);
      this.chunkSize = Math.min(this.chunkSize * 2, MAX_CHUNK);
      this.buffered = entries;
      this.position = 0;
    }
    return { done: false, value: this.buffered[this.position++] };
  }

  /** Stops early (a `for ... of` that breaks calls it): closes the iterator. */
  return(): IteratorResult<RocksDBEntry> {
    this.close();
    return { done: true, value: undefined };
  }

  [Symbol.iterator](): this {
    return this;
  }

  /** Releases the RocksDB iterator. Idempotent. */
  close(): void {
    this.finished = true;
    this.buffered = [];
    this.position = 0;
    this.native.close();
  }
}
