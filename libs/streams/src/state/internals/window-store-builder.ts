import * as path from 'node:path';
import type { Serde } from '../../serde/serde';
import type { StateStoreContext } from '../../processor/state-store-context';
import type { WindowBytesStoreSupplier } from '../window-bytes-store-supplier';
import { AbstractStoreBuilder } from './abstract-store-builder';
import { CachingWindowBytesStore } from './caching-window-bytes-store';
import { ChangeLoggingWindowBytesStore } from './change-logging-window-bytes-store';
import { MeteredWindowStore } from './metered-window-store';
import type { WindowBytesStore } from './segmented-window-bytes.store';

/**
 * Builds window stores: metered (typed) -> caching (when enabled) -> change-logging (when
 * enabled) -> the segmented engine in `<taskDir>/<store>/<store>.<segmentStart>`. Logging is
 * on by default, caching off (the DSL turns it on unless `Materialized` says otherwise).
 * Stores retaining duplicates (stream-stream joins) are never cached, as in Kafka Streams.
 */
export class WindowStoreBuilder<K, V> extends AbstractStoreBuilder<MeteredWindowStore<K, V>> {
  constructor(
    override readonly supplier: WindowBytesStoreSupplier,
    readonly keySerde: Serde<K>,
    readonly valueSerde: Serde<V>,
    readonly timestampedValues = false,
  ) {
    super(supplier);
  }

  /** A window store's changelog is `compact,delete` with `retention.ms` = retention + 1 day. */
  readonly changelogKind = 'window' as const;

  /** The store's retention (the runtime sizes the changelog's `retention.ms` from it). */
  get retentionMs(): number {
    return this.supplier.retentionPeriodMs;
  }

  /** The store's retention, for its changelog's `retention.ms` (retention + 1 day). */
  get retentionPeriodMs(): number {
    return this.supplier.retentionPeriodMs;
  }

  build(): MeteredWindowStore<K, V> {
    const { supplier, timestampedValues } = this;
    const logging = this.logging;
    const caching = this.caching && !supplier.retainDuplicates;
    return new MeteredWindowStore<K, V>({
      name: supplier.name,
      persistent: supplier.persistent,
      metricsScope: supplier.metricsScope,
      keySerde: this.keySerde,
      valueSerde: this.valueSerde,
      timestampedValues,
      caching,
      buildStack: (context: StateStoreContext): WindowBytesStore => {
        const engine = supplier.get({
          directory: path.join(context.taskDir, supplier.name),
          configs: context.appConfigs ?? {},
        });
        const logged = logging
          ? new ChangeLoggingWindowBytesStore(engine, timestampedValues)
          : engine;
        return caching ? new CachingWindowBytesStore(logged) : logged;
      },
    });
  }
}
