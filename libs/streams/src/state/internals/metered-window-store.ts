import { TimeWindow } from '../../windowing/time-window';
import { Windowed } from '../../windowing/windowed';
import type { KeyValue, KeyValueIterator } from '../key-value-store';
import type { ChangelogRecord } from '../../processor/state-store-context';
import type { WindowStore, WindowStoreIterator } from '../window-store';
import type { BytesWrite } from '../bytes-store';
import { CachingWindowBytesStore } from './caching-window-bytes-store';
import { ChangeLoggingWindowBytesStore } from './change-logging-window-bytes-store';
import { MappingKeyValueIterator } from './mapping-key-value-iterator';
import {
  MeteredSegmentedStore,
  type MeteredSegmentedStoreOptions,
  type WindowedFlushListener,
} from './metered-segmented-store';
import { withTimestamps } from './metered-key-value-store';
import type {
  WindowBytesEntry,
  WindowBytesStore,
  WindowRangeQuery,
} from './segmented-window-bytes.store';
import { NOT_SAMPLED, OP } from './store-metrics';
import { WindowKeySchema } from './window-key-schema';

/** How a {@link MeteredWindowStore} is made; built by `WindowStoreBuilder`. */
export interface MeteredWindowStoreOptions<K, V> extends MeteredSegmentedStoreOptions<
  K,
  V,
  WindowBytesStore
> {
  /** Values are `ValueAndTimestamp` bytes (restored records get their timestamp in front). */
  readonly timestampedValues?: boolean;
}

/** Receives the windows a caching window store writes through, typed. */
export type WindowedCacheFlushListener<K, V> = WindowedFlushListener<K, V>;

/**
 * The metered layer of window stores: typed (serdes), counted, and the one that opens the
 * layers below and registers the store for restore (see {@link MeteredSegmentedStore}).
 *
 * Errors: calls before `init` or after `close` throw `StoreClosedError`; the engine throws
 * `InvalidWindowError` for bad times and `UnsupportedStoreOperationError` for synchronous reads
 * it cannot serve (use the `...Async` reads).
 */
export class MeteredWindowStore<K, V>
  extends MeteredSegmentedStore<K, V, WindowBytesStore>
  implements WindowStore<K, V>
{
  private windowSize = 0;

  /** Whether values carry their timestamps (`ValueAndTimestamp`): queries unwrap them. */
  get timestampedValues(): boolean {
    return this.options.timestampedValues === true;
  }

  constructor(private readonly options: MeteredWindowStoreOptions<K, V>) {
    super(options, { caching: CachingWindowBytesStore, logging: ChangeLoggingWindowBytesStore });
  }

  protected override opened(stack: WindowBytesStore): void {
    this.windowSize = stack.windowSizeMs;
  }

  protected override restoredRecords(records: readonly ChangelogRecord[]): readonly BytesWrite[] {
    return this.timestampedValues ? withTimestamps(records) : records;
  }

  protected windowedKeyOf(storeKey: Buffer): Windowed<K> {
    return this.windowedKey({ ...WindowKeySchema.fromStoreKey(storeKey), value: storeKey });
  }

  put(key: K, value: V | null, windowStart: number): void {
    const stack = this.open();
    const mark = this.metrics.start(OP.put);
    stack.put(
      this.keySerde.serialize(key, this.topic),
      value === null ? null : this.valueSerde.serialize(value, this.topic),
      windowStart,
    );
    if (mark !== NOT_SAMPLED) this.metrics.end(OP.put, mark);
  }

  fetch(key: K, windowStart: number): V | undefined;
  fetch(key: K, timeFrom: number, timeTo: number): WindowStoreIterator<V>;
  fetch(key: K, time: number, timeTo?: number): V | undefined | WindowStoreIterator<V> {
    const stack = this.open();
    if (timeTo === undefined) {
      const mark = this.metrics.start(OP.get);
      const bytes = stack.fetch(this.keySerde.serialize(key, this.topic), time);
      if (mark !== NOT_SAMPLED) this.metrics.end(OP.get, mark);
      return bytes === undefined ? undefined : this.valueSerde.deserialize(bytes, this.topic);
    }
    return this.windowsOf(stack.range(this.keyQuery(key, time, timeTo, false)));
  }

  backwardFetch(key: K, timeFrom: number, timeTo: number): WindowStoreIterator<V> {
    return this.windowsOf(this.open().range(this.keyQuery(key, timeFrom, timeTo, true)));
  }

  fetchRange(
    keyFrom: K | undefined,
    keyTo: K | undefined,
    timeFrom: number,
    timeTo: number,
  ): KeyValueIterator<Windowed<K>, V> {
    return this.windowed(
      this.open().range(this.rangeQuery(keyFrom, keyTo, timeFrom, timeTo, false)),
    );
  }

  fetchAll(timeFrom: number, timeTo: number): KeyValueIterator<Windowed<K>, V> {
    return this.windowed(this.open().range(this.countRange({ timeFrom, timeTo })));
  }

  all(): KeyValueIterator<Windowed<K>, V> {
    return this.windowed(this.open().range(this.countRange({})));
  }

  backwardAll(): KeyValueIterator<Windowed<K>, V> {
    return this.windowed(this.open().range(this.countRange({ backward: true })));
  }

  async fetchAsync(key: K, windowStart: number): Promise<V | undefined> {
    const stack = this.open();
    this.metrics.add(OP.get, 1);
    const bytes = await stack.fetchAsync(this.keySerde.serialize(key, this.topic), windowStart);
    return bytes === undefined ? undefined : this.valueSerde.deserialize(bytes, this.topic);
  }

  async fetchWindowsAsync(
    key: K,
    timeFrom: number,
    timeTo: number,
    backward = false,
  ): Promise<KeyValue<number, V>[]> {
    const entries = await this.open().rangeAsync(this.keyQuery(key, timeFrom, timeTo, backward));
    return entries.map((e) => ({
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
    const query = this.rangeQuery(keyFrom, keyTo, timeFrom, timeTo, backward);
    const entries = await this.open().rangeAsync(query);
    return entries.map((e) => ({
      key: this.windowedKey(e),
      value: this.valueSerde.deserialize(e.value, this.topic),
    }));
  }

  private keyQuery(key: K, timeFrom: number, timeTo: number, backward: boolean): WindowRangeQuery {
    this.metrics.add(OP.range, 1);
    return { key: this.keySerde.serialize(key, this.topic), timeFrom, timeTo, backward };
  }

  private rangeQuery(
    keyFrom: K | undefined,
    keyTo: K | undefined,
    timeFrom: number,
    timeTo: number,
    backward: boolean,
  ): WindowRangeQuery {
    this.metrics.add(OP.range, 1);
    return {
      keyFrom: keyFrom === undefined ? undefined : this.keySerde.serialize(keyFrom, this.topic),
      keyTo: keyTo === undefined ? undefined : this.keySerde.serialize(keyTo, this.topic),
      timeFrom,
      timeTo,
      backward,
    };
  }

  private countRange(query: WindowRangeQuery): WindowRangeQuery {
    this.metrics.add(OP.all, 1);
    return query;
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
