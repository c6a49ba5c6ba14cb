import * as path from 'node:path';
import type { Serde } from '../../serde/serde';
import type { KeyValueBytesStoreSupplier } from '../key-value-bytes-store-supplier';
import type { StateStoreContext } from '../../processor/state-store-context';
import { AbstractStoreBuilder } from './abstract-store-builder';
import type { BytesStore } from '../bytes-store';
import { CachingBytesStore } from './caching-bytes-store';
import { ChangeLoggingBytesStore } from './change-logging-bytes-store';
import { MeteredKeyValueStore } from './metered-key-value-store';
import { PrefetchingBytesStore } from './prefetching-bytes-store';

/** The sub-directory of a task directory holding key-value engines (Kafka Streams' layout). */
const KEY_VALUE_DIR = 'rocksdb';

/**
 * Builds key-value stores as a stack of layers, outermost first:
 *
 * ```
 * metered (typed: serdes, metrics)
 *   -> caching (record cache)                 when caching is enabled
 *      or prefetching (batch read set)        when disabled and the engine reads async only
 *   -> change-logging (changelog records)     when logging is enabled
 *   -> engine (RocksDB or in-memory bytes)
 * ```
 *
 * Logging sits below caching, so with caching on only what the cache flushes reaches the
 * changelog. The engine and the layers are created when a task opens the store.
 */
export class KeyValueStoreBuilder<K, V> extends AbstractStoreBuilder<MeteredKeyValueStore<K, V>> {
  /**
   * @param timestampedValues values are `ValueAndTimestamp` bytes (set by
   *   `Stores.timestampedKeyValueStoreBuilder`, with the matching value serde).
   */
  constructor(
    override readonly supplier: KeyValueBytesStoreSupplier,
    readonly keySerde: Serde<K>,
    readonly valueSerde: Serde<V>,
    readonly timestampedValues = false,
  ) {
    super(supplier);
  }

  build(): MeteredKeyValueStore<K, V> {
    const { supplier, timestampedValues } = this;
    const caching = this.caching;
    const logging = this.logging;
    const topicConfig = this.topicConfig;
    return new MeteredKeyValueStore<K, V>({
      name: supplier.name,
      persistent: supplier.persistent,
      metricsScope: supplier.metricsScope,
      keySerde: this.keySerde,
      valueSerde: this.valueSerde,
      timestampedValues,
      buildStack: (context: StateStoreContext): BytesStore => {
        const engine = supplier.get({
          directory: path.join(context.taskDir, KEY_VALUE_DIR, supplier.name),
          configs: context.appConfigs ?? {},
        });
        let stack: BytesStore = engine;
        if (logging) stack = new ChangeLoggingBytesStore(stack, { timestampedValues, topicConfig });
        if (caching) stack = new CachingBytesStore(stack);
        else if (!engine.capabilities.syncReads) stack = new PrefetchingBytesStore(stack);
        return stack;
      },
    });
  }
}
