import * as path from 'node:path';
import type { Serde } from '../../serde/serde';
import type { SessionBytesStoreSupplier } from '../session-bytes-store-supplier';
import type { StateStoreContext } from '../../processor/state-store-context';
import { AbstractStoreBuilder } from './abstract-store-builder';
import { CachingSessionBytesStore } from './caching-session-bytes-store';
import { ChangeLoggingSessionBytesStore } from './change-logging-session-bytes-store';
import { MeteredSessionStore } from './metered-session-store';
import type { SessionBytesStore } from './segmented-session-bytes.store';

/**
 * Builds session stores: metered (typed) -> caching (when enabled) -> change-logging (when
 * enabled) -> the segmented engine in `<taskDir>/<store>/<store>.<segmentStart>`. Logging is
 * on by default, caching off (the DSL turns it on unless `Materialized` says otherwise).
 */
export class SessionStoreBuilder<K, AGG> extends AbstractStoreBuilder<MeteredSessionStore<K, AGG>> {
  /** The changelog kind (compact + delete, `retention.ms` from {@link retentionMs}). */
  readonly changelogKind = 'session' as const;

  constructor(
    override readonly supplier: SessionBytesStoreSupplier,
    readonly keySerde: Serde<K>,
    readonly aggSerde: Serde<AGG>,
  ) {
    super(supplier);
  }

  /** The store's retention, for its changelog's `retention.ms` (retention + 1 day). */
  get retentionMs(): number {
    return this.supplier.retentionPeriodMs;
  }
  /** The store's retention (same as {@link retentionMs}, named as the window store builder's). */
  get retentionPeriodMs(): number {
    return this.supplier.retentionPeriodMs;
  }

  build(): MeteredSessionStore<K, AGG> {
    const { supplier } = this;
    const logging = this.logging;
    const caching = this.caching;
    return new MeteredSessionStore<K, AGG>({
      name: supplier.name,
      persistent: supplier.persistent,
      metricsScope: supplier.metricsScope,
      keySerde: this.keySerde,
      aggSerde: this.aggSerde,
      buildStack: (context: StateStoreContext): SessionBytesStore => {
        const engine = supplier.get({
          directory: path.join(context.taskDir, supplier.name),
          configs: context.appConfigs ?? {},
        });
        const logged = logging ? new ChangeLoggingSessionBytesStore(engine) : engine;
        return caching ? new CachingSessionBytesStore(logged) : logged;
      },
      caching,
    });
  }
}
