import { InvalidWindowError } from '../../errors/invalid-window.error';
import type { BytesStoreCapabilities, BytesWrite, KeyValueBytes } from './bytes-store';
import {
  SegmentedBytesStore,
  type RestoreBatchResult,
  type SegmentedBytesStoreOptions,
  type SegmentedKeySchema,
  type SegmentedRange,
} from './segmented-bytes.store';

/**
 * What the window and the session stores share: a {@link SegmentedBytesStore} under one key
 * schema, its lifecycle, retention and restore, and range reads that turn store keys into the
 * store's entries. Each subclass adds its own writes, point reads and range shapes.
 */
export abstract class SegmentedSchemaStore<Entry> {
  protected readonly inner: SegmentedBytesStore;

  /**
   * @throws InvalidWindowError when the retention is negative or the segment interval not
   *   positive (fix the store definition).
   */
  protected constructor(
    options: SegmentedBytesStoreOptions,
    schema: SegmentedKeySchema,
    private readonly toEntry: (entry: KeyValueBytes) => Entry,
  ) {
    this.inner = new SegmentedBytesStore(options, schema);
  }

  get name(): string {
    return this.inner.name;
  }

  get capabilities(): BytesStoreCapabilities {
    return this.inner.capabilities;
  }

  get retentionPeriodMs(): number {
    return this.inner.retentionPeriodMs;
  }

  get segmentIntervalMs(): number {
    return this.inner.segmentIntervalMs;
  }

  /**
   * Opens the segments a previous run left (`listSegmentNames`). Stream time restarts unknown.
   * @throws ProcessorStateError (from the engine) when a segment cannot be opened.
   */
  open(): Promise<void> {
    return this.inner.open();
  }

  isOpen(): boolean {
    return this.inner.isOpen();
  }

  /** The largest segment time written or restored since open, `-1` when none. */
  observedStreamTime(): number {
    return this.inner.observedStreamTime();
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
   * Applies one batch of changelog records (keys in the store's key format) as one write batch
   * per segment, skipping records already past retention.
   * @throws StoreClosedError when not open; InvalidWindowedKeyError for a key too short for the
   *   key schema (the changelog holds foreign data).
   */
  restoreAll(records: readonly BytesWrite[]): RestoreBatchResult {
    return this.inner.restoreAll(records);
  }

  approximateNumEntries(): number {
    return this.inner.approximateNumEntries();
  }

  /** @throws the engine's `ProcessorStateError` when a segment fails to flush or drop. */
  flush(): Promise<void> {
    return this.inner.flush();
  }

  /** Flushes and closes every segment. Idempotent. */
  close(): Promise<void> {
    return this.inner.close();
  }

  /** Closes and deletes every segment. */
  destroy(): Promise<void> {
    return this.inner.destroy();
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
