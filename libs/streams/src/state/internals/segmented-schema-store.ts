import { InvalidWindowError } from '../../errors/invalid-window.error';
import type { KeyValueBytes } from '../bytes-store';
import {
  SegmentedBytesStore,
  type SegmentedBytesStoreOptions,
  type SegmentedKeySchema,
  type SegmentedRange,
} from './segmented-bytes.store';
import { WrappedSegmentedStore } from './wrapped-segmented-store';

/**
 * What the window and the session stores share: a {@link SegmentedBytesStore} under one key
 * schema, whose lifecycle, retention and restore it passes on, and range reads that turn store
 * keys into the store's entries. Each subclass adds its own writes, point reads and range
 * shapes.
 */
export abstract class SegmentedSchemaStore<
  Entry,
> extends WrappedSegmentedStore<SegmentedBytesStore> {
  /**
   * @throws InvalidWindowError when the retention is negative or the segment interval not
   *   positive (fix the store definition).
   */
  protected constructor(
    options: SegmentedBytesStoreOptions,
    schema: SegmentedKeySchema,
    private readonly toEntry: (entry: KeyValueBytes) => Entry,
  ) {
    super(new SegmentedBytesStore(options, schema));
  }

  /** Number of live segments (for tests and metrics). */
  segmentCount(): number {
    return this.inner.segmentCount();
  }

  /** Names of the live segments, ascending (`<store>.<segment start>`). */
  segmentNames(): string[] {
    return this.inner.segmentNames();
  }

  /** Puts dropped because their entry was past retention (Kafka's `dropped-records`). */
  expiredRecordDrops(): number {
    return this.inner.expiredRecordDrops();
  }

  /**
   * The entries of `range` (nothing when `undefined`), synchronously; valid until the next
   * `await`.
   * @throws StoreClosedError when not open; UnsupportedStoreOperationError when the engine has
   *   no synchronous reads.
   */
  protected readRange(range: SegmentedRange | undefined): IterableIterator<Entry> {
    return range === undefined ? [][Symbol.iterator]() : this.entries(this.inner.range(range));
  }

  /**
   * {@link SegmentedSchemaStore.readRange}, read asynchronously into an array (every engine).
   * @throws StoreClosedError when not open; the engine's `ProcessorStateError` on failure.
   */
  protected async readRangeAsync(range: SegmentedRange | undefined): Promise<Entry[]> {
    return range === undefined ? [] : (await this.inner.rangeAsync(range)).map(this.toEntry);
  }

  private *entries(raw: Iterable<KeyValueBytes>): IterableIterator<Entry> {
    for (const entry of raw) yield this.toEntry(entry);
  }
}

/**
 * A query's time bound: `fallback` when absent.
 * @throws InvalidWindowError for `NaN` (fix the caller).
 */
export function queryTime(value: number | undefined, fallback: number, what: string): number {
  if (value === undefined) return fallback;
  if (Number.isNaN(value)) {
    throw new InvalidWindowError(`${what} must be a number of milliseconds, got NaN`);
  }
  return value;
}
