import { requireEpochMillis } from '../../../windowing/internals/window-time';
import { TimeWindow } from '../../../windowing/time-window';
import { Windowed } from '../../../windowing/windowed';
import type { KeyValue, KeyValueIterator } from '../../key-value-store';
import type { WindowStore, WindowStoreIterator } from '../../window-store';
import type { KeyValueBytes } from '../../bytes-store';
import { MappingKeyValueIterator } from './mapping-key-value-iterator';
import { MeteredStore, type MeteredStoreOptions } from './metered-store';
import { NOT_SAMPLED, OP } from './store-metrics';
import {
  MAX_WINDOW_SEQNUM,
  toWindowEntry,
  windowStoreRange,
  WindowKeySchema,
  type WindowBytesEntry,
  type WindowRangeQuery,
} from '../segments/window-key-schema';

/** How a {@link MeteredWindowStore} is made. */
export interface MeteredWindowStoreOptions<K, V> extends MeteredStoreOptions<K, V> {
  /** The size of the store's windows in ms (`end = start + size`). */
  readonly windowSizeMs: number;
  /**
   * Keep every write as its own entry (a growing seqnum in the key) instead of overwriting:
   * the store of a stream-stream join. Such stores are never cached.
   */
  readonly retainDuplicates: boolean;
}

/**
 * The window facade of the metered layer: typed windows over the stack, whose store keys are
 * `[key][window start][seqnum]` (see {@link WindowKeySchema}; the same bytes key the
 * changelog). Windows older than `streamTime - retention + 1` are neither written nor
 * returned.
 *
 * Errors: calls before `init` or after `close` throw `StoreClosedError`; `InvalidWindowError`
 * for bad times; `UnsupportedStoreOperationError` for synchronous reads an engine cannot serve
 * (use the `...Async` reads).
 */
export class MeteredWindowStore<K, V>
  extends MeteredStore<K, V, Windowed<K>>
  implements WindowStore<K, V>
{
  private readonly windowSize: number;
  private readonly retainDuplicates: boolean;
  private seqnum = 0;

  constructor(options: MeteredWindowStoreOptions<K, V>, persistent: boolean) {
    super(options, persistent);
    this.windowSize = options.windowSizeMs;
    this.retainDuplicates = options.retainDuplicates;
  }

  protected override opened(): void {
    this.seqnum = 0; // restarts at every open, as in Kafka Streams
  }

  protected flushKeyOf(storeKey: Buffer): Windowed<K> {
    return this.windowedKey(toWindowEntry(storeKey, storeKey));
  }

  /**
   * Writes `value` (or deletes, with `null`) for `key`'s window starting at `windowStart`.
   * With duplicates retained, each write gets the next seqnum (wrapping at 2^31) and `null`
   * writes are ignored.
   */
  put(key: K, value: V | null, windowStart: number): void {
    const stack = this.open();
    requireEpochMillis(windowStart, 'window start');
    if (this.retainDuplicates) {
      if (value === null) return;
      this.seqnum = (this.seqnum + 1) & MAX_WINDOW_SEQNUM;
    }
    const mark = this.metrics.start(OP.put);
    stack.put(
      WindowKeySchema.toStoreKeyBinary(this.keyBytes(key), windowStart, this.seqnum),
      value === null ? null : this.valueSerde.serialize(value, this.topic),
    );
    if (mark !== NOT_SAMPLED) this.metrics.end(OP.put, mark);
  }

  /**
   * Engine-internal, for the DSL's windowed aggregations: `fetch` of one window that may return
   * the object the last {@link putUpdated} of that window wrote, kept by the record cache (see
   * `MeteredKeyValueStore.getForUpdate` for the contract). Without a caching layer, or with
   * duplicates retained, it is `fetch`. Errors are those of `fetch`.
   */
  fetchForUpdate(key: K, windowStart: number): V | undefined {
    const caching = this.cachingLayer;
    if (caching === undefined || this.retainDuplicates) return this.fetch(key, windowStart);
    this.open();
    requireEpochMillis(windowStart, 'window start');
    const mark = this.metrics.start(OP.get);
    const value = caching.getForUpdate(this.windowKey(key, windowStart), this.decode);
    if (mark !== NOT_SAMPLED) this.metrics.end(OP.get, mark);
    return value;
  }

  /**
   * `put` of one window whose value the record cache keeps as an object for the next
   * {@link fetchForUpdate}; the caller must not mutate `value` afterwards. Without a caching
   * layer, or with duplicates retained, it is `put`. Errors are those of `put`.
   */
  putUpdated(key: K, value: V | null, windowStart: number): void {
    const caching = this.cachingLayer;
    if (caching === undefined || this.retainDuplicates) return this.put(key, value, windowStart);
    this.open();
    requireEpochMillis(windowStart, 'window start');
    const mark = this.metrics.start(OP.put);
    const bytes = value === null ? null : this.valueSerde.serialize(value, this.topic);
    caching.putUpdated(this.windowKey(key, windowStart), bytes, value);
    if (mark !== NOT_SAMPLED) this.metrics.end(OP.put, mark);
  }

  /** Drops the object kept for a window by {@link fetchForUpdate} (an update failed). */
  forgetUpdate(key: K, windowStart: number): void {
    this.cachingLayer?.forgetObject(this.windowKey(key, windowStart));
  }

  fetch(key: K, windowStart: number): V | undefined;
  fetch(key: K, timeFrom: number, timeTo: number): WindowStoreIterator<V>;
  fetch(key: K, time: number, timeTo?: number): V | undefined | WindowStoreIterator<V> {
    const stack = this.open();
    if (timeTo !== undefined)
      return this.windowsOf(this.read({ key: this.keyBytes(key), timeFrom: time, timeTo }));
    const mark = this.metrics.start(OP.get);
    const bytes = this.retainDuplicates
      ? this.latest(key, time)
      : stack.get(WindowKeySchema.toStoreKeyBinary(this.keyBytes(key), time, 0));
    if (mark !== NOT_SAMPLED) this.metrics.end(OP.get, mark);
    return this.value(bytes);
  }

  backwardFetch(key: K, timeFrom: number, timeTo: number): WindowStoreIterator<V> {
    return this.windowsOf(this.read({ key: this.keyBytes(key), timeFrom, timeTo, backward: true }));
  }

  fetchRange(
    keyFrom: K | undefined,
    keyTo: K | undefined,
    timeFrom: number,
    timeTo: number,
  ): KeyValueIterator<Windowed<K>, V> {
    return this.windowed(this.read(this.keyRange(keyFrom, keyTo, timeFrom, timeTo, false)));
  }

  fetchAll(timeFrom: number, timeTo: number): KeyValueIterator<Windowed<K>, V> {
    return this.windowed(this.read({ timeFrom, timeTo }, OP.all));
  }

  /**
   * Engine-internal, for emitting closed windows (`EmitStrategy.onWindowClose()`): `fetchAll`
   * as Kafka Streams' time-ordered window store reads it, its retention bound included (windows
   * starting at stream time - retention too; with retention = grace, the last window to close
   * would be gone otherwise). Errors are those of `fetchAll`.
   */
  fetchAllInSegments(timeFrom: number, timeTo: number): KeyValueIterator<Windowed<K>, V> {
    const stack = this.open();
    this.metrics.add(OP.all, 1);
    const range = windowStoreRange({ timeFrom, timeTo });
    const entries =
      range === undefined
        ? [][Symbol.iterator]()
        : windowEntries(stack.read({ ...range, retention: 'inclusive' }));
    return this.windowed(entries);
  }

  all(): KeyValueIterator<Windowed<K>, V> {
    return this.windowed(this.read({}, OP.all));
  }

  backwardAll(): KeyValueIterator<Windowed<K>, V> {
    return this.windowed(this.read({ backward: true }, OP.all));
  }

  async fetchAsync(key: K, windowStart: number): Promise<V | undefined> {
    const stack = this.open();
    this.metrics.add(OP.get, 1);
    if (!this.retainDuplicates) {
      const storeKey = WindowKeySchema.toStoreKeyBinary(this.keyBytes(key), windowStart, 0);
      return this.value(await stack.getAsync(storeKey));
    }
    const [latest] = await this.readAsync(this.latestOf(key, windowStart));
    return this.value(latest?.value);
  }

  async fetchWindowsAsync(
    key: K,
    timeFrom: number,
    timeTo: number,
    backward = false,
  ): Promise<KeyValue<number, V>[]> {
    const query = { key: this.keyBytes(key), timeFrom, timeTo, backward };
    return (await this.readAsync(query)).map((e) => ({
      key: e.windowStart,
      value: this.valueSerde.deserialize(e.value, this.topic),
    }));
  }

  async fetchRangeAsync(
    keyFrom: K | undefined,
    keyTo: K | undefined,
    timeFrom: number,
    timeTo: number,
    backward = false,
  ): Promise<KeyValue<Windowed<K>, V>[]> {
    const entries = await this.readAsync(this.keyRange(keyFrom, keyTo, timeFrom, timeTo, backward));
    return entries.map((e) => ({
      key: this.windowedKey(e),
      value: this.valueSerde.deserialize(e.value, this.topic),
    }));
  }

  /** The store key of a window written without duplicates (seqnum 0). */
  private windowKey(key: K, windowStart: number): Buffer {
    return WindowKeySchema.toStoreKeyBinary(this.keyBytes(key), windowStart, 0);
  }

  /** Every duplicate of one window, highest seqnum first. */
  private latestOf(key: K, windowStart: number): WindowRangeQuery {
    requireEpochMillis(windowStart, 'window start');
    return { key: this.keyBytes(key), timeFrom: windowStart, timeTo: windowStart, backward: true };
  }

  /** The value of the duplicate with the highest seqnum. */
  private latest(key: K, windowStart: number): Buffer | undefined {
    const duplicates = this.read(this.latestOf(key, windowStart));
    const latest = duplicates.next();
    duplicates.return?.();
    return latest.done ? undefined : latest.value.value;
  }

  private keyRange(
    keyFrom: K | undefined,
    keyTo: K | undefined,
    timeFrom: number,
    timeTo: number,
    backward: boolean,
  ): WindowRangeQuery {
    return {
      keyFrom: keyFrom === undefined ? undefined : this.keyBytes(keyFrom),
      keyTo: keyTo === undefined ? undefined : this.keyBytes(keyTo),
      timeFrom,
      timeTo,
      backward,
    };
  }

  private read(query: WindowRangeQuery, op = OP.range): IterableIterator<WindowBytesEntry> {
    const stack = this.open();
    this.metrics.add(op, 1);
    const range = windowStoreRange(query);
    return range === undefined ? [][Symbol.iterator]() : windowEntries(stack.read(range));
  }

  private async readAsync(query: WindowRangeQuery): Promise<WindowBytesEntry[]> {
    const stack = this.open();
    this.metrics.add(OP.range, 1);
    const range = windowStoreRange(query);
    if (range === undefined) return [];
    return (await stack.readAsync(range)).map((e: KeyValueBytes) => toWindowEntry(e.key, e.value));
  }

  private windowsOf(source: IterableIterator<WindowBytesEntry>): WindowStoreIterator<V> {
    return new MappingKeyValueIterator(
      source,
      (e) => e.windowStart,
      (e) => this.valueSerde.deserialize(e.value, this.topic),
    );
  }

  private windowed(source: IterableIterator<WindowBytesEntry>): KeyValueIterator<Windowed<K>, V> {
    return new MappingKeyValueIterator(
      source,
      (e) => this.windowedKey(e),
      (e) => this.valueSerde.deserialize(e.value, this.topic),
    );
  }

  private windowedKey(entry: WindowBytesEntry): Windowed<K> {
    return new Windowed(
      this.keySerde.deserialize(entry.key, this.topic),
      new TimeWindow(entry.windowStart, entry.windowStart + this.windowSize),
    );
  }
}

function* windowEntries(
  entries: IterableIterator<KeyValueBytes>,
): IterableIterator<WindowBytesEntry> {
  try {
    for (const { key, value } of entries) yield toWindowEntry(key, value);
  } finally {
    entries.return?.();
  }
}
