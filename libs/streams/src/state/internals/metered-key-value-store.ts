import type { RocksDBStoreMetrics } from '../rocksdb-store-metrics';
import { StoreClosedError } from '../../errors/store-closed.error';
import type { Serde } from '../../serde/serde';
import type { KeyValue, KeyValueIterator, KeyValueStore } from '../key-value-store';
import type { StateStore } from '../../processor/state-store';
import type { ChangelogRecord, StateStoreContext } from '../../processor/state-store-context';
import type { BytesStore, BytesWrite, KeyValueBytes } from '../bytes-store';
import { CachingBytesStore } from './caching-bytes-store';
import { ChangeLoggingBytesStore } from './change-logging-bytes-store';
import { changelogTopicName } from './changelog-topic-name';
import { DeserializingKeyValueIterator } from './deserializing-key-value-iterator';
import { writeTimestamp } from './ordered-bytes';
import { PrefetchingBytesStore } from './prefetching-bytes-store';
import { NOT_SAMPLED, OP, StoreMetrics } from './store-metrics';
import type { StoreMetricsSnapshot } from '../store-metrics-snapshot';
import { findLayer, initBytesStore, innermostBytesStore } from './wrapped-bytes-store';

/** Receives the typed entries the cache writes through (see `CacheFlushListener`). */
export type TypedCacheFlushListener<K, V> = (
  key: K,
  newValue: V | null,
  oldValue: V | null | undefined,
  timestamp: number,
) => void;

/** How a {@link MeteredKeyValueStore} is made; built by `KeyValueStoreBuilder`. */
export interface MeteredKeyValueStoreOptions<K, V> {
  readonly name: string;
  readonly persistent: boolean;
  /** The engine kind for metrics: `rocksdb`, `in-memory`, ... */
  readonly metricsScope: string;
  readonly keySerde: Serde<K>;
  readonly valueSerde: Serde<V>;
  /**
   * Values are `ValueAndTimestamp` bytes: restored changelog records get their record
   * timestamp put in front of the value.
   */
  readonly timestampedValues?: boolean;
  /** Builds the bytes stack (engine and layers) for one task, unopened. */
  readonly buildStack: (context: StateStoreContext) => BytesStore;
}

interface Prefetcher {
  prefetch(keys: readonly Buffer[]): Promise<void>;
}

/**
 * The metered layer, the outermost and only typed one: serializes keys and values with the
 * store's serdes (the serde's topic argument is the changelog topic name), counts every
 * operation (and times a sample when latency sampling is on), and hands bytes to the layers
 * below. It opens the bytes stack in `init` and registers the store with the task's state
 * manager, telling it how to restore straight into the engine.
 *
 * Errors: every call before `init` or after `close` throws `StoreClosedError` (reopen the
 * task, or for queries rediscover the store); serdes throw `SerializationError` (fix the serde
 * or the data); the layers below throw as documented on them.
 */
export class MeteredKeyValueStore<K, V> implements KeyValueStore<K, V>, StateStore {
  readonly name: string;
  readonly persistent: boolean;
  private readonly keySerde: Serde<K>;
  private readonly valueSerde: Serde<V>;
  private metrics: StoreMetrics;
  private stack: BytesStore | undefined;
  private prefetcher: Prefetcher | undefined;
  private caching: CachingBytesStore | undefined;
  private topic: string;
  private engineSyncReads = false;
  private pendingListener:
    { listener: TypedCacheFlushListener<K, V>; sendOldValues: boolean } | undefined;

  /** Whether values carry their timestamps (`ValueAndTimestamp`): queries unwrap them. */
  get timestampedValues(): boolean {
    return this.options.timestampedValues === true;
  }

  /**
   * Whether `get` and `queryGet` can read any key synchronously (the engine reads
   * synchronously). False before `init` and for engines that only read asynchronously: use
   * `getAsync` then.
   */
  get syncReads(): boolean {
    return this.engineSyncReads;
  }

  /**
   * The bytes of `key` as this store and its changelog hold them (the store's key serde).
   * Interactive queries hash them to ask the key's partition first.
   *
   * @throws SerializationError from the key serde (fix the key or the serde).
   */
  keyBytes(key: K): Buffer {
    return this.keySerde.serialize(key, this.topic);
  }

  constructor(private readonly options: MeteredKeyValueStoreOptions<K, V>) {
    this.name = options.name;
    this.persistent = options.persistent;
    this.keySerde = options.keySerde;
    this.valueSerde = options.valueSerde;
    this.topic = options.name;
    this.metrics = new StoreMetrics(options.name, options.metricsScope);
  }

  async init(context: StateStoreContext): Promise<void> {
    if (this.stack?.isOpen()) return;
    this.metrics = StoreMetrics.forTask(this.name, this.options.metricsScope, context);
    this.topic = changelogTopicName(context.applicationId, this.name);
    const stack = this.options.buildStack(context);
    await initBytesStore(stack, context);
    this.stack = stack;
    this.caching = findLayer(stack, CachingBytesStore);
    this.prefetcher =
      stack instanceof CachingBytesStore || stack instanceof PrefetchingBytesStore
        ? stack
        : undefined;
    if (this.pendingListener) {
      this.setFlushListener(this.pendingListener.listener, this.pendingListener.sendOldValues);
    }
    const logging = findLayer(stack, ChangeLoggingBytesStore);
    const engine = innermostBytesStore(stack);
    this.engineSyncReads = engine.capabilities.syncReads;
    const timestamped = this.options.timestampedValues === true;
    context.register({
      store: this,
      name: this.name,
      persistent: engine.capabilities.persistent,
      changelog: logging
        ? { topic: logging.changelogTopic, partition: logging.changelogPartition }
        : undefined,
      restoreBatch: (records) => engine.putAll(timestamped ? withTimestamps(records) : records),
      wipe: async () => {
        await stack.destroy();
        await initBytesStore(stack, context);
      },
    });
  }

  isOpen(): boolean {
    return this.stack?.isOpen() ?? false;
  }

  /**
   * Sets the listener of the entries the cache writes through, typed. Returns false when the
   * store has no caching layer (then every write is final at once: forward it yourself).
   */
  setFlushListener(listener: TypedCacheFlushListener<K, V>, sendOldValues: boolean): boolean {
    if (!this.stack) {
      this.pendingListener = { listener, sendOldValues };
      return true;
    }
    const caching = this.caching;
    if (!caching) return false;
    const topic = this.topic;
    const values = this.valueSerde;
    caching.setFlushListener((key, newValue, oldValue, timestamp) => {
      listener(
        this.keySerde.deserialize(key, topic),
        newValue === null ? null : values.deserialize(newValue, topic),
        oldValue === undefined || oldValue === null
          ? oldValue
          : values.deserialize(oldValue, topic),
        timestamp,
      );
    }, sendOldValues);
    return true;
  }

  get(key: K): V | undefined {
    const stack = this.open();
    const mark = this.metrics.start(OP.get);
    const bytes = stack.get(this.keySerde.serialize(key, this.topic));
    const value = bytes === undefined ? undefined : this.valueSerde.deserialize(bytes, this.topic);
    if (mark !== NOT_SAMPLED) this.metrics.end(OP.get, mark);
    return value;
  }

  /**
   * `get` for interactive queries: the same answer, but a read miss is never put in the record
   * cache (so a query can never evict, flush or forward anything). The query layer uses it.
   */
  queryGet(key: K): V | undefined {
    this.open();
    const caching = this.caching;
    if (caching === undefined) return this.get(key);
    const mark = this.metrics.start(OP.get);
    const bytes = caching.getWithoutCaching(this.keySerde.serialize(key, this.topic));
    const value = bytes === undefined ? undefined : this.valueSerde.deserialize(bytes, this.topic);
    if (mark !== NOT_SAMPLED) this.metrics.end(OP.get, mark);
    return value;
  }

  async getAsync(key: K): Promise<V | undefined> {
    const stack = this.open();
    const mark = this.metrics.start(OP.get);
    const bytes = await stack.getAsync(this.keySerde.serialize(key, this.topic));
    if (mark !== NOT_SAMPLED) this.metrics.end(OP.get, mark);
    return bytes === undefined ? undefined : this.valueSerde.deserialize(bytes, this.topic);
  }

  put(key: K, value: V | null): void {
    const stack = this.open();
    const mark = this.metrics.start(OP.put);
    stack.put(
      this.keySerde.serialize(key, this.topic),
      value === null ? null : this.valueSerde.serialize(value, this.topic),
    );
    if (mark !== NOT_SAMPLED) this.metrics.end(OP.put, mark);
  }

  putAll(entries: readonly KeyValue<K, V | null>[]): void {
    const stack = this.open();
    const mark = this.metrics.start(OP.putAll);
    const writes = new Array<BytesWrite>(entries.length);
    for (let i = 0; i < entries.length; i++) {
      const { key, value } = entries[i];
      writes[i] = {
        key: this.keySerde.serialize(key, this.topic),
        value: value === null ? null : this.valueSerde.serialize(value, this.topic),
      };
    }
    stack.putAll(writes);
    if (mark !== NOT_SAMPLED) this.metrics.end(OP.putAll, mark);
  }

  putIfAbsent(key: K, value: V): V | undefined {
    const stack = this.open();
    const mark = this.metrics.start(OP.putIfAbsent);
    const existing = stack.putIfAbsent(
      this.keySerde.serialize(key, this.topic),
      this.valueSerde.serialize(value, this.topic),
    );
    if (mark !== NOT_SAMPLED) this.metrics.end(OP.putIfAbsent, mark);
    return existing === undefined ? undefined : this.valueSerde.deserialize(existing, this.topic);
  }

  delete(key: K): V | undefined {
    const stack = this.open();
    const mark = this.metrics.start(OP.delete);
    const old = stack.delete(this.keySerde.serialize(key, this.topic));
    if (mark !== NOT_SAMPLED) this.metrics.end(OP.delete, mark);
    return old === undefined ? undefined : this.valueSerde.deserialize(old, this.topic);
  }

  async prefetch(keys: readonly K[]): Promise<void> {
    this.open();
    const prefetcher = this.prefetcher;
    if (prefetcher === undefined || keys.length === 0) return;
    const mark = this.metrics.start(OP.prefetch);
    const bytes = new Array<Buffer>(keys.length);
    for (let i = 0; i < keys.length; i++) bytes[i] = this.keySerde.serialize(keys[i], this.topic);
    await prefetcher.prefetch(bytes);
    if (mark !== NOT_SAMPLED) this.metrics.end(OP.prefetch, mark);
  }

  range(from?: K, to?: K): KeyValueIterator<K, V> {
    const stack = this.open();
    this.metrics.add(OP.range, 1);
    return this.iterate(stack.range(this.boundBytes(from), this.boundBytes(to)));
  }

  reverseRange(from?: K, to?: K): KeyValueIterator<K, V> {
    const stack = this.open();
    this.metrics.add(OP.range, 1);
    return this.iterate(stack.reverseRange(this.boundBytes(from), this.boundBytes(to)));
  }

  prefixScan<P>(
    prefix: P,
    prefixSerializer: { serialize(value: P): Buffer },
  ): KeyValueIterator<K, V> {
    const stack = this.open();
    this.metrics.add(OP.prefixScan, 1);
    return this.iterate(stack.prefixScan(prefixSerializer.serialize(prefix)));
  }

  all(): KeyValueIterator<K, V> {
    const stack = this.open();
    this.metrics.add(OP.all, 1);
    return this.iterate(stack.all());
  }

  reverseAll(): KeyValueIterator<K, V> {
    const stack = this.open();
    this.metrics.add(OP.all, 1);
    return this.iterate(stack.reverseAll());
  }

  async rangeAsync(from?: K, to?: K, reverse = false): Promise<KeyValue<K, V>[]> {
    const stack = this.open();
    this.metrics.add(OP.range, 1);
    return this.toTyped(
      await stack.rangeAsync(this.boundBytes(from), this.boundBytes(to), reverse),
    );
  }

  async allAsync(reverse = false): Promise<KeyValue<K, V>[]> {
    const stack = this.open();
    this.metrics.add(OP.all, 1);
    return this.toTyped(await stack.rangeAsync(undefined, undefined, reverse));
  }

  approximateNumEntries(): number {
    return this.open().approximateNumEntries();
  }

  async flush(): Promise<void> {
    const stack = this.open();
    const mark = this.metrics.start(OP.flush);
    await stack.flush();
    if (mark !== NOT_SAMPLED) this.metrics.end(OP.flush, mark);
  }

  async close(): Promise<void> {
    const stack = this.stack;
    if (!stack) return;
    await stack.close();
  }

  /** A plain snapshot of this store's metrics (and its cache's, when it has one). */
  /**
   * The RocksDB engine's memory and size figures (block-cache usage, memtables, table readers,
   * estimated keys, SST size...), read from its properties; `undefined` for engines that have
   * none (in memory) or while closed.
   */
  rocksDBMetrics(): RocksDBStoreMetrics | undefined {
    let layer: unknown = this.stack;
    while (layer) {
      const candidate = layer as {
        metrics?: () => RocksDBStoreMetrics;
        isOpen?: () => boolean;
        inner?: unknown;
      };
      if (typeof candidate.metrics === 'function')
        return candidate.isOpen?.() === false ? undefined : candidate.metrics();
      layer = candidate.inner;
    }
    return undefined;
  }

  metricsSnapshot(): StoreMetricsSnapshot {
    if (!this.caching) return this.metrics.snapshot();
    const { hits, misses, entries, sizeBytes } = this.caching.cacheStats();
    const reads = hits + misses;
    return this.metrics.snapshot({
      hits,
      misses,
      hitRatio: reads === 0 ? 0 : hits / reads,
      entries,
      sizeBytes,
    });
  }

  private open(): BytesStore {
    const stack = this.stack;
    if (stack === undefined) throw new StoreClosedError(this.name, 'is not initialized');
    return stack;
  }

  private boundBytes(key: K | undefined): Buffer | undefined {
    return key === undefined ? undefined : this.keySerde.serialize(key, this.topic);
  }

  private iterate(source: IterableIterator<KeyValueBytes>): KeyValueIterator<K, V> {
    return new DeserializingKeyValueIterator(source, this.keySerde, this.valueSerde, this.topic);
  }

  private toTyped(entries: readonly KeyValueBytes[]): KeyValue<K, V>[] {
    const result = new Array<KeyValue<K, V>>(entries.length);
    for (let i = 0; i < entries.length; i++) {
      result[i] = {
        key: this.keySerde.deserialize(entries[i].key, this.topic),
        value: this.valueSerde.deserialize(entries[i].value, this.topic),
      };
    }
    return result;
  }
}

/** Changelog records of a timestamped store: the record timestamp goes in front of the value. @internal */
export function withTimestamps(records: readonly ChangelogRecord[]): BytesWrite[] {
  const writes = new Array<BytesWrite>(records.length);
  for (let i = 0; i < records.length; i++) {
    const { key, value, timestamp } = records[i];
    if (value === null) {
      writes[i] = { key, value: null };
      continue;
    }
    const stamped = Buffer.allocUnsafe(8 + value.length);
    writeTimestamp(stamped, Number(timestamp), 0);
    value.copy(stamped, 8);
    writes[i] = { key, value: stamped };
  }
  return writes;
}
