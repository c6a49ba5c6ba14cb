import type { StateStore } from '../../processor/state-store';
import type { StoreBuilder } from '../../processor/store-builder';

/**
 * What every store builder shares, as Kafka Streams' `AbstractStoreBuilder`: the supplier's
 * name, and the caching and logging switches with the changelog's topic config. Logging is on
 * by default, caching off (the DSL turns it on unless `Materialized` says otherwise). Each
 * builder adds its serdes and how it stacks its layers in `build()`.
 */
export abstract class AbstractStoreBuilder<T extends StateStore> implements StoreBuilder<T> {
  protected caching = false;
  protected logging = true;
  protected topicConfig: Readonly<Record<string, string>> = {};

  protected constructor(readonly supplier: { readonly name: string }) {}

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

  withCachingEnabled(): this {
    this.caching = true;
    return this;
  }

  withCachingDisabled(): this {
    this.caching = false;
    return this;
  }

  /** Logs to the changelog, created with `topicConfig` on top of the kind's defaults. */
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

  abstract build(): T;
}
