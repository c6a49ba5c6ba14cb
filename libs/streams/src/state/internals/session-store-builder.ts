import * as path from 'node:path';
import type { Serde } from '../../serde/serde';
import type { SessionBytesStoreSupplier } from '../session-bytes-store-supplier';
import type { StateStoreContext } from '../state-store-context';
import type { StoreBuilder } from '../store-builder';
import { CachingSessionBytesStore } from './caching-session-bytes-store';
import { ChangeLoggingSessionBytesStore } from './change-logging-session-bytes-store';
import { MeteredSessionStore } from './metered-session-store';
import type { SessionBytesStore } from './segmented-session-bytes.store';

/**
 * Builds session stores: metered (typed) -> caching (when enabled) -> change-logging (when
 * enabled) -> the segmented engine in `<taskDir>/<store>/<store>.<segmentStart>`. Logging is
 * on by default, caching off (the DSL turns it on unless `Materialized` says otherwise).
 */
export class SessionStoreBuilder<K, AGG> implements StoreBuilder<MeteredSessionStore<K, AGG>> {
  /** The changelog kind (compact + delete, `retention.ms` from {@link retentionMs}). */
  readonly changelogKind = 'session' as const;
  private caching = false;
  private logging = true;
  private topicConfig: Readonly<Record<string, string>> = {};

  constructor(
    readonly supplier: SessionBytesStoreSupplier,
    readonly keySerde: Serde<K>,
    readonly aggSerde: Serde<AGG>,
  ) {}

  get name(): string {
    return this.supplier.name;
  }
  get cachingEnabled(): boolean {
    return this.caching;
  }
  get loggingEnabled(): boolean {
    return this.logging;
  }
  get logConfig(): Readonly<Record<string, string>> {
    return this.topicConfig;
  }
  /** The store's retention, for its changelog's `retention.ms` (retention + 1 day). */
  get retentionMs(): number {
    return this.supplier.retentionPeriodMs;
  }
  /** The store's retention (same as {@link retentionMs}, named as the window store builder's). */
  get retentionPeriodMs(): number {
    return this.supplier.retentionPeriodMs;
  }

  withCachingEnabled(): this {
    this.caching = true;
    return this;
  }
  withCachingDisabled(): this {
    this.caching = false;
    return this;
  }
  withLoggingEnabled(topicConfig: Readonly<Record<string, string>> = {}): this {
    this.logging = true;
    this.topicConfig = { ...topicConfig };
    return this;
  }
  withLoggingDisabled(): this {
    this.logging = false;
    this.topicConfig = {};
    return this;
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
