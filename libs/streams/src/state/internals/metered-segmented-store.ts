import { StoreClosedError } from '../../errors/store-closed.error';
import type { Windowed } from '../../windowing/windowed';
import type { Serde } from '../../serde/serde';
import type { ChangelogRecord, StateStoreContext } from '../../processor/state-store-context';
import type { BytesWrite } from '../bytes-store';
import { changelogTopicName } from './changelog-topic-name';
import { findLayer, initStack } from './layer-stack';
import type { SegmentedCacheFlushListener } from './segmented-store-cache';
import { OP, StoreMetrics } from './store-metrics';
import type { StoreMetricsSnapshot } from '../store-metrics-snapshot';

/**
 * Receives the windows (or sessions) a caching store writes through, typed: the windowed key,
 * the new value (`null`: deleted), the value before (`undefined` when not known) and the
 * timestamp.
 */
export type WindowedFlushListener<K, V> = (
  key: Windowed<K>,
  newValue: V | null,
  oldValue: V | null | undefined,
  timestamp: number,
) => void;

/** The bytes stack under a metered window or session store, as far as the metered layer uses it. */
export interface SegmentedStack {
  open(): Promise<void>;
  isOpen(): boolean;
  restoreAll(records: readonly BytesWrite[]): unknown;
  approximateNumEntries(): number;
  flush(): Promise<void>;
  close(): Promise<void>;
  destroy(): Promise<void>;
}

/** What the metered layer finds in its stack by class: the caching and change-logging layers. */
export interface SegmentedLayerTypes {
  readonly caching: abstract new (...args: never[]) => {
    setFlushListener(listener: SegmentedCacheFlushListener, sendOldValues: boolean): boolean;
  };
  readonly logging: abstract new (...args: never[]) => {
    readonly changelogTopic: string;
    readonly changelogPartition: number;
  };
}

/** How a metered window or session store is made. */
export interface MeteredSegmentedStoreOptions<K, V, S extends SegmentedStack> {
  readonly name: string;
  readonly persistent: boolean;
  readonly metricsScope: string;
  readonly keySerde: Serde<K>;
  readonly valueSerde: Serde<V>;
  /** Whether `buildStack` puts a caching layer in the stack. */
  readonly caching?: boolean;
  /** Builds the engine and its layers for one task, unopened. */
  readonly buildStack: (context: StateStoreContext) => S;
}

/**
 * What the metered window and session stores share: the typed layer that opens the layers
 * below, registers the store for restore (changelog records go to the segmented engine's
 * `restoreAll`, which skips expired entries), counts operations, and types what the cache
 * writes through. Each subclass adds its typed reads and writes.
 *
 * Errors: calls before `init` or after `close` throw `StoreClosedError` (initialize the store
 * first, or reopen it).
 */
export abstract class MeteredSegmentedStore<K, V, S extends SegmentedStack> {
  readonly name: string;
  readonly persistent: boolean;
  protected readonly keySerde: Serde<K>;
  protected readonly valueSerde: Serde<V>;
  protected metrics: StoreMetrics;
  /** The changelog topic once initialized (the store name before): serdes receive it. */
  protected topic: string;
  private stack: S | undefined;
  private pendingListener:
    { listener: WindowedFlushListener<K, V>; sendOldValues: boolean } | undefined;

  protected constructor(
    private readonly settings: MeteredSegmentedStoreOptions<K, V, S>,
    private readonly layers: SegmentedLayerTypes,
  ) {
    this.name = settings.name;
    this.persistent = settings.persistent;
    this.keySerde = settings.keySerde;
    this.valueSerde = settings.valueSerde;
    this.topic = settings.name;
    this.metrics = new StoreMetrics(settings.name, settings.metricsScope);
  }

  /**
   * The bytes of `key` (the record key, not the windowed one) as the store's key serde writes
   * them: what the input topic was partitioned by. Interactive queries hash them to find the
   * key's partition.
   *
   * @throws SerializationError from the key serde (fix the key or the serde).
   */
  keyBytes(key: K): Buffer {
    return this.keySerde.serialize(key, this.topic);
  }

  /**
   * Opens the stack for the task of `context` and registers the store for restore.
   * @throws ProcessorStateError (from the engine) when a segment cannot be opened.
   */
  async init(context: StateStoreContext): Promise<void> {
    if (this.stack?.isOpen()) return;
    this.metrics = StoreMetrics.forTask(this.name, this.settings.metricsScope, context);
    this.topic = changelogTopicName(context.applicationId, this.name);
    const stack = this.settings.buildStack(context);
    const open = (): Promise<void> => initStack(stack, context);
    await open();
    this.stack = stack;
    this.opened(stack);
    if (this.pendingListener) {
      this.setFlushListener(this.pendingListener.listener, this.pendingListener.sendOldValues);
    }
    const logging = findLayer(stack, this.layers.logging);
    context.register({
      store: this,
      name: this.name,
      persistent: this.persistent,
      changelog: logging
        ? { topic: logging.changelogTopic, partition: logging.changelogPartition }
        : undefined,
      restoreBatch: (records) => {
        stack.restoreAll(this.restoredRecords(records));
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
   * Sets the listener of the entries the cache writes through, typed. Returns false when the
   * store has no caching layer (then every write is final at once: forward it yourself).
   */
  setFlushListener(listener: WindowedFlushListener<K, V>, sendOldValues: boolean): boolean {
    const stack = this.stack;
    if (!stack) {
      this.pendingListener = { listener, sendOldValues };
      return this.settings.caching === true;
    }
    const caching = findLayer(stack, this.layers.caching);
    if (!caching) return false;
    const topic = this.topic;
    const values = this.valueSerde;
    caching.setFlushListener((storeKey, newValue, oldValue, timestamp) => {
      listener(
        this.windowedKeyOf(storeKey),
        newValue === null ? null : values.deserialize(newValue, topic),
        oldValue === undefined || oldValue === null
          ? oldValue
          : values.deserialize(oldValue, topic),
        timestamp,
      );
    }, sendOldValues);
    return true;
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

  /**
   * The opened stack.
   * @throws StoreClosedError before `init`.
   */
  protected open(): S {
    const stack = this.stack;
    if (stack === undefined) throw new StoreClosedError(this.name, 'is not initialized');
    return stack;
  }

  /** Called once the stack is open, before anything reads it. */
  protected opened(_stack: S): void {}

  /** The changelog records as the engine restores them (the window store adds timestamps). */
  protected restoredRecords(records: readonly ChangelogRecord[]): readonly BytesWrite[] {
    return records;
  }

  /** The typed windowed key of a store key the cache wrote through. */
  protected abstract windowedKeyOf(storeKey: Buffer): Windowed<K>;
}
