import { StoreClosedError } from '../../errors/store-closed.error';
import { TimeWindow } from '../../kstream/windows/time-window';
import { Windowed } from '../../kstream/windows/windowed';
import type { Serde } from '../../serde/serde';
import type { KeyValue, KeyValueIterator } from '../key-value-store';
import type { StateStoreContext } from '../state-store-context';
import type { WindowStore, WindowStoreIterator } from '../window-store';
import { CachingWindowBytesStore } from './caching-window-bytes-store';
import { ChangeLoggingWindowBytesStore } from './change-logging-window-bytes-store';
import { changelogTopicName } from './changelog-topic-name';
import { MappingKeyValueIterator } from './mapping-key-value-iterator';
import { withTimestamps } from './metered-key-value-store';
import type {
  WindowBytesEntry,
  WindowBytesStore,
  WindowRangeQuery,
} from './segmented-window-bytes.store';
import { NOT_SAMPLED, OP, StoreMetrics, type StoreMetricsSnapshot } from './store-metrics';
import { WindowKeySchema } from './window-key-schema';
import { findLayer, initStack } from './layer-stack';

/** How a {@link MeteredWindowStore} is made; built by `WindowStoreBuilder`. */
export interface MeteredWindowStoreOptions<K, V> {
  readonly name: string;
  readonly persistent: boolean;
  readonly metricsScope: string;
  readonly keySerde: Serde<K>;
  readonly valueSerde: Serde<V>;
  /** Values are `ValueAndTimestamp` bytes (restored records get their timestamp in front). */
  readonly timestampedValues?: boolean;
  /** Whether `buildStack` puts a caching layer in the stack. */
  readonly caching?: boolean;
  /** Builds the engine and its layers for one task, unopened. */
  readonly buildStack: (context: StateStoreContext) => WindowBytesStore;
}

/**
 * Receives the windows a caching window store writes through, typed: the windowed key, the
 * new value (`null`: deleted), the value before (`undefined` when not known) and the timestamp.
 */
export type WindowedCacheFlushListener<K, V> = (
  key: Windowed<K>,
  newValue: V | null,
  oldValue: V | null | undefined,
  timestamp: number,
) => void;

/**
 * The metered layer of window stores: typed (serdes), counted, and the one that opens the
 * layers below and registers the store for restore (changelog records go to the segmented
 * engine's `restoreAll`, which skips expired windows).
 *
 * Errors: calls before `init` or after `close` throw `StoreClosedError`; the engine throws
 * `InvalidWindowError` for bad times and `UnsupportedStoreOperationError` for synchronous reads
 * it cannot serve (use the `...Async` reads).
 */
export class MeteredWindowStore<K, V> implements WindowStore<K, V> {
  readonly name: string;
  readonly persistent: boolean;
  private readonly keySerde: Serde<K>;
  private readonly valueSerde: Serde<V>;
  private metrics: StoreMetrics;
  private stack: WindowBytesStore | undefined;
  private topic: string;
  private windowSize = 0;
  private pendingListener:
    { listener: WindowedCacheFlushListener<K, V>; sendOldValues: boolean } | undefined;

  /** Whether values carry their timestamps (`ValueAndTimestamp`): queries unwrap them. */
  get timestampedValues(): boolean {
    return this.options.timestampedValues === true;
  }

  constructor(private readonly options: MeteredWindowStoreOptions<K, V>) {
    this.name = options.name;
    this.persistent = options.persistent;
    this.keySerde = options.keySerde;
    this.valueSerde = options.valueSerde;
    this.topic = options.name;
    this.metrics = new StoreMetrics(options.name, options.metricsScope);
  }

  async init(context: StateStoreContext): Promise<void> {
    if (this.stack?.isOpen()) return;
    this.metrics = new StoreMetrics(
      this.name,
      this.options.metricsScope,
      context.metricsLatencySampling ?? 0,
    );
    this.metrics.taskId = context.taskId.toString();
    this.topic = changelogTopicName(context.applicationId, this.name);
    const stack = this.options.buildStack(context);
    const open = (): Promise<void> => initStack(stack, context);
    await open();
    this.stack = stack;
    this.windowSize = stack.windowSizeMs;
    if (this.pendingListener) {
      this.setFlushListener(this.pendingListener.listener, this.pendingListener.sendOldValues);
    }
    const logging = findLayer(stack, ChangeLoggingWindowBytesStore);
    const timestamped = this.options.timestampedValues === true;
    context.register({
      store: this,
      name: this.name,
      persistent: this.persistent,
      changelog: logging
        ? { topic: logging.changelogTopic, partition: logging.changelogPartition }
        : undefined,
      restoreBatch: (records) => {
        stack.restoreAll(timestamped ? withTimestamps(records) : records);
      },
      wipe: async () => {
        await stack.destroy();
        await open();
      },
    });
  }

  isOpen(): boolean {
    return this.stack?.isOpen() ?? false;
  }

  /**
   * Sets the listener of the windows the cache writes through, typed. Returns false when the
   * store has no caching layer (then every write is final at once: forward it yourself).
   */
  setFlushListener(listener: WindowedCacheFlushListener<K, V>, sendOldValues: boolean): boolean {
    const stack = this.stack;
    if (!stack) {
      this.pendingListener = { listener, sendOldValues };
      return this.options.caching === true;
    }
    const caching = findLayer(stack, CachingWindowBytesStore);
    if (!caching) return false;
    const topic = this.topic;
    const values = this.valueSerde;
    caching.setFlushListener((storeKey, newValue, oldValue, timestamp) => {
      const parts = WindowKeySchema.fromStoreKey(storeKey);
      listener(
        this.windowedKey({ ...parts, value: storeKey }),
        newValue === null ? null : values.deserialize(newValue, topic),
        oldValue === undefined || oldValue === null
          ? oldValue
          : values.deserialize(oldValue, topic),
        timestamp,
      );
    }, sendOldValues);
    return true;
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

  approximateNumEntries(): number {
    return this.open().approximateNumEntries();
  }

  async flush(): Promise<void> {
    const stack = this.open();
    this.metrics.add(OP.flush, 1);
    await stack.flush();
  }

  async close(): Promise<void> {
    await this.stack?.close();
  }

  /** A plain snapshot of this store's metrics. */
  metricsSnapshot(): StoreMetricsSnapshot {
    return this.metrics.snapshot();
  }

  private open(): WindowBytesStore {
    const stack = this.stack;
    if (stack === undefined) throw new StoreClosedError(this.name, 'is not initialized');
    return stack;
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
