import type { StateStore } from '../../processor/state-store';
import type { StoreBuilder } from '../../processor/store-builder';
import { CachingBytesStore } from './caching-bytes-store';
import { ChangeLoggingBytesStore } from './change-logging-bytes-store';
import { PrefetchingBytesStore } from './prefetching-bytes-store';
import type { StoreLayer } from './store-layer';

/** What every store supplier says about its engine. */
export interface StoreSupplier {
  readonly name: string;
  readonly metricsScope: string;
  readonly persistent: boolean;
}

/** What a builder decided about the layers when it builds a store. */
export interface StackChoice {
  readonly caching: boolean;
  readonly logging: boolean;
  /** Extra configs of the changelog topic. */
  readonly topicConfig: Readonly<Record<string, string>>;
}

/**
 * The one builder of every store kind (Kafka Streams' `KeyValueStoreBuilder`,
 * `WindowStoreBuilder`, `SessionStoreBuilder`): the caching and logging switches with the
 * changelog's topic config, then `build()` makes the kind's metered store over a new stack.
 * Logging is on by default, caching off (the DSL turns it on unless `Materialized` says
 * otherwise). Window and session builders say so (`changelogKind`) and give their retention,
 * which decide the changelog's cleanup policy and `retention.ms` (retention + 1 day).
 */
export class StateStoreBuilder<T extends StateStore> implements StoreBuilder<T> {
  private caching = false;
  private logging = true;
  private topicConfig: Readonly<Record<string, string>> = {};

  constructor(
    /** The engine's supplier (`Stores.persistentKeyValueStore(...)`, ...). */
    readonly supplier: StoreSupplier,
    private readonly create: (choice: StackChoice) => T,
    readonly changelogKind: 'key-value' | 'window' | 'session' = 'key-value',
    /** The store's retention (window and session stores). */
    readonly retentionMs?: number,
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

  build(): T {
    const { caching, logging, topicConfig } = this;
    return this.create({ caching, logging, topicConfig });
  }
}

/**
 * The layers over an engine, outermost first:
 *
 * ```
 * caching (record cache)                 when caching is enabled
 *   or prefetching (batch read set)      when disabled and a key-value engine reads async only
 * -> change-logging (changelog records)  when logging is enabled
 * -> engine (RocksDB, in-memory, segmented)
 * ```
 *
 * Logging sits below caching, so with caching on only what the cache flushes reaches the
 * changelog.
 */
export function stackOver(
  engine: StoreLayer,
  { caching, logging, topicConfig }: StackChoice,
  timestampedValues: boolean,
): StoreLayer {
  let stack = engine;
  if (logging) stack = new ChangeLoggingBytesStore(stack, { timestampedValues, topicConfig });
  if (caching) stack = new CachingBytesStore(stack);
  else if (!engine.capabilities.syncReads && engine.segments === undefined) {
    stack = new PrefetchingBytesStore(stack);
  }
  return stack;
}
