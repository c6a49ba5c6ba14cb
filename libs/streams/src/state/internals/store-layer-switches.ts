import type { StoreLayers } from './store-stack';

/**
 * The caching and logging switches of a store, with the changelog topic's configs: what both
 * `Materialized` (the DSL) and the store builders (`Stores.*Builder`) let you set, as in Kafka
 * Streams. Logging starts on; caching starts as the subclass says (on for `Materialized`, off
 * for the builders).
 */
export abstract class StoreLayerSwitches {
  private caching: boolean;
  private logging = true;
  private topicConfigs: Readonly<Record<string, string>> = {};

  protected constructor(cachingByDefault: boolean) {
    this.caching = cachingByDefault;
  }

  get cachingEnabled(): boolean {
    return this.caching;
  }

  get loggingEnabled(): boolean {
    return this.logging;
  }

  /** Extra configs of the changelog topic (none while logging is off). */
  get topicConfig(): Readonly<Record<string, string>> {
    return this.topicConfigs;
  }

  /**
   * Batches updates in the process-wide record cache: fewer changelog records and downstream
   * updates (same-key writes collapse until the cache flushes).
   */
  withCachingEnabled(): this {
    this.caching = true;
    return this;
  }

  /** Every update goes to the store, the changelog and downstream at once. */
  withCachingDisabled(): this {
    this.caching = false;
    return this;
  }

  /**
   * Mirrors every write to the changelog topic `<applicationId>-<store>-changelog`, created
   * with `topicConfig` on top of the store kind's defaults.
   */
  withLoggingEnabled(topicConfig: Readonly<Record<string, string>> = {}): this {
    this.logging = true;
    this.topicConfigs = { ...topicConfig };
    return this;
  }

  /** No changelog: the store starts empty after a restart or a move. */
  withLoggingDisabled(): this {
    this.logging = false;
    this.topicConfigs = {};
    return this;
  }

  /** The layers the switches ask for. */
  protected layers(): StoreLayers {
    return { caching: this.caching, logging: this.logging, topicConfig: this.topicConfigs };
  }
}
