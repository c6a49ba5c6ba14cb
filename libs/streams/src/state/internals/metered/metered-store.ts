import { StoreClosedError } from '../../../errors/store-closed.error';
import type { StateStoreContext } from '../../../processor/state-store-context';
import type { StateStore } from '../../../processor/state-store';
import type { Serde } from '../../../serde/serde';
import type { RocksDBStoreMetrics } from '../../rocksdb-store-metrics';
import type { StoreMetricsSnapshot } from '../../store-metrics-snapshot';
import { CachingBytesStore } from '../layers/caching-bytes-store';
import { ChangeLoggingBytesStore } from '../layers/change-logging-bytes-store';
import { changelogTopicName } from '../changelog-topic-name';
import { NOT_SAMPLED, OP, StoreMetrics } from './store-metrics';
import type { StoreLayer } from '../layers/store-layer';
import { withTimestamps } from '../timestamped-changelog';
import { findLayer, innermostLayer } from '../layers/wrapped-store-layer';

/** No key serialized yet (a value no key can be). */
const NO_KEY = Symbol('no key');

/**
 * Receives the typed entries the cache writes through: the key (a windowed key for window and
 * session stores), the new value (`null`: deleted), the value before (`undefined` when not
 * known) and the timestamp of the last write.
 */
export type TypedCacheFlushListener<K, V> = (
  key: K,
  newValue: V | null,
  oldValue: V | null | undefined,
  timestamp: number,
) => void;

/** How a metered store is made (by `Stores`' builders). */
export interface MeteredStoreOptions<K, V> {
  readonly name: string;
  /** The engine kind for metrics: `rocksdb`, `in-memory`, `rocksdb-window`, ... */
  readonly metricsScope: string;
  readonly keySerde: Serde<K>;
  readonly valueSerde: Serde<V>;
  /**
   * Values are `ValueAndTimestamp` bytes: restored changelog records get their record
   * timestamp put in front of the value, and queries unwrap them.
   */
  readonly timestampedValues?: boolean;
  /** Whether `buildStack` puts a caching layer in the stack. */
  readonly caching: boolean;
  /** Builds the stack (engine and layers) for one task, unopened. */
  readonly buildStack: (context: StateStoreContext) => StoreLayer;
}

/**
 * The metered layer, the outermost and only typed one, of every store kind: serdes (the
 * serde's topic argument is the changelog topic name), metrics, and the store's life with its
 * task. It opens the stack in `init` and registers the store with the task's state manager,
 * telling it how to restore straight into the engine. Each kind's facade (key-value, window,
 * session) adds its typed reads and writes, turning them into store keys with its key schema.
 *
 * Errors: every call before `init` or after `close` throws `StoreClosedError` (reopen the
 * task, or for queries rediscover the store); serdes throw `SerializationError` (fix the serde
 * or the data); the layers below throw as documented on them.
 */
export abstract class MeteredStore<K, V, FlushKey> implements StateStore {
  readonly name: string;
  protected readonly keySerde: Serde<K>;
  protected readonly valueSerde: Serde<V>;
  protected metrics: StoreMetrics;
  /** The changelog topic once initialized (the store name before): serdes receive it. */
  protected topic: string;
  private stack: StoreLayer | undefined;
  private caching: CachingBytesStore | undefined;
  /** The last string or number key serialized, and its bytes (see {@link keyBytes}). */
  private lastKey: unknown = NO_KEY;
  private lastKeyBytes: Buffer | undefined;
  private pendingListener:
    { listener: TypedCacheFlushListener<FlushKey, V>; sendOldValues: boolean } | undefined;

  constructor(
    private readonly options: MeteredStoreOptions<K, V>,
    /** Whether the engine keeps its data across restarts. */
    readonly persistent: boolean,
  ) {
    this.name = options.name;
    this.keySerde = options.keySerde;
    this.valueSerde = options.valueSerde;
    this.topic = options.name;
    this.metrics = new StoreMetrics(options.name, options.metricsScope);
  }

  /** Whether values carry their timestamps (`ValueAndTimestamp`): queries unwrap them. */
  get timestampedValues(): boolean {
    return this.options.timestampedValues === true;
  }

  /**
   * Whether synchronous reads work (the engine reads synchronously). False before `init` and
   * for engines that only read asynchronously: use the `...Async` reads then.
   */
  get syncReads(): boolean {
    return this.stack?.capabilities.syncReads ?? false;
  }

  /**
   * The bytes of `key` (the record key, not a windowed one) as this store and its changelog
   * hold them: interactive queries hash them to ask the key's partition first.
   *
   * @throws SerializationError from the key serde (fix the key or the serde).
   */
  keyBytes(key: K): Buffer {
    if (key === this.lastKey) return this.lastKeyBytes!;
    const bytes = this.keySerde.serialize(key, this.topic);
    // A string or number key is immutable: an aggregation's read and write of the same key
    // share one serialization (no layer writes into a key's bytes).
    if (typeof key === 'string' || typeof key === 'number') {
      this.lastKey = key;
      this.lastKeyBytes = bytes;
    }
    return bytes;
  }

  /**
   * Opens the stack for the task of `context` and registers the store for restore.
   * @throws ProcessorStateError (from the engine) when it cannot open.
   */
  async init(context: StateStoreContext): Promise<void> {
    if (this.stack?.isOpen()) return;
    this.metrics = StoreMetrics.forTask(this.name, this.options.metricsScope, context);
    this.topic = changelogTopicName(context.applicationId, this.name);
    this.lastKey = NO_KEY; // serdes receive the topic: bytes made for another one are stale
    const stack = this.options.buildStack(context);
    await stack.init(context);
    this.stack = stack;
    this.caching = findLayer(stack, CachingBytesStore);
    this.opened(stack);
    if (this.pendingListener) {
      this.setFlushListener(this.pendingListener.listener, this.pendingListener.sendOldValues);
    }
    const logging = findLayer(stack, ChangeLoggingBytesStore);
    const engine = innermostLayer(stack);
    const timestamped = this.timestampedValues;
    context.register({
      store: this,
      name: this.name,
      persistent: engine.capabilities.persistent,
      changelog: logging
        ? { topic: logging.changelogTopic, partition: logging.changelogPartition }
        : undefined,
      restoreBatch: !timestamped
        ? (records) => engine.restore(records)
        : engine.restoreWithTimestamps
          ? (records) => engine.restoreWithTimestamps!(records)
          : (records) => engine.restore(withTimestamps(records)),
      wipe: async () => {
        await stack.destroy();
        await stack.init(context);
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
  setFlushListener(
    listener: TypedCacheFlushListener<FlushKey, V>,
    sendOldValues: boolean,
  ): boolean {
    if (!this.stack) {
      this.pendingListener = { listener, sendOldValues };
      return this.options.caching;
    }
    const caching = this.caching;
    if (!caching) return false;
    const value = (bytes: Buffer | null | undefined) =>
      bytes === undefined || bytes === null
        ? bytes
        : this.valueSerde.deserialize(bytes, this.topic);
    caching.setFlushListener((key, newValue, oldValue, timestamp) => {
      listener(this.flushKeyOf(key), value(newValue) as V | null, value(oldValue), timestamp);
    }, sendOldValues);
    return true;
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
    await this.stack?.close();
  }

  /**
   * The RocksDB engine's memory and size figures (block-cache usage, memtables, table readers,
   * estimated keys, SST size...), read from its properties (a window or session store's summed
   * over its segments); `undefined` for engines that have none (in memory) or while closed.
   */
  rocksDBMetrics(): RocksDBStoreMetrics | undefined {
    type Measured = { metrics?: () => RocksDBStoreMetrics; isOpen(): boolean };
    type Bottom = { engine?: Measured; rocksDBMetrics?: () => RocksDBStoreMetrics | undefined };
    const bottom = this.stack && (innermostLayer(this.stack) as Bottom);
    if (bottom?.rocksDBMetrics) return bottom.rocksDBMetrics(); // a segmented store: summed
    const engine = bottom?.engine;
    return engine?.metrics && engine.isOpen() ? engine.metrics() : undefined;
  }

  /** A plain snapshot of this store's metrics (and its cache's, when it has one). */
  metricsSnapshot(): StoreMetricsSnapshot {
    if (!this.caching) return this.metrics.snapshot();
    const { hits, misses, entries, sizeBytes } = this.caching.cacheStats();
    const reads = hits + misses;
    const hitRatio = reads === 0 ? 0 : hits / reads;
    return this.metrics.snapshot({ hits, misses, hitRatio, entries, sizeBytes });
  }

  /**
   * The opened stack.
   * @throws StoreClosedError before `init`.
   */
  protected open(): StoreLayer {
    const stack = this.stack;
    if (stack === undefined) throw new StoreClosedError(this.name, 'is not initialized');
    return stack;
  }

  /** The stack's caching layer, when it has one (after `init`). */
  protected get cachingLayer(): CachingBytesStore | undefined {
    return this.caching;
  }

  /** Called once the stack is open, before anything reads it. */
  protected opened(_stack: StoreLayer): void {}

  /** The key the flush listener gets for a store key the cache wrote through. */
  protected abstract flushKeyOf(storeKey: Buffer): FlushKey;

  /** The value serde's deserialization, as a function (reads for update decode with it). */
  protected readonly decode = (bytes: Buffer): V => this.valueSerde.deserialize(bytes, this.topic);

  protected value(bytes: Buffer | undefined): V | undefined {
    return bytes === undefined ? undefined : this.valueSerde.deserialize(bytes, this.topic);
  }
}
