import {
  Consumed,
  type KStream,
  Materialized,
  type Serde,
  Serdes,
  SessionWindows,
  type StreamsLogger,
  type StateStore,
  type StoreBuilder,
  Stores,
  StreamsBuilder,
  TimeWindows,
  type Topology,
} from '@nest-streams/streams';
import { ConflictingSourceSerdesError } from '../../errors/conflicting-source-serdes.error';
import { InvalidStreamsDeclarationError } from '../../errors/invalid-streams-declaration.error';
import { UndeclaredStateStoreError } from '../../errors/undeclared-state-store.error';
import type { DeclaredAggregation, DeclaredStore, StreamsDeclarations } from './streams.explorer';
import type { TopologyContext } from '../topology-context';

interface SharedSource {
  readonly stream: KStream<unknown, unknown>;
  readonly keySerde?: Serde<unknown>;
  readonly valueSerde?: Serde<unknown>;
  readonly by: string;
}

/** What the factory needs besides the declarations. */
export interface TopologyFactoryOptions {
  readonly defaultKeySerde?: Serde<unknown>;
  readonly defaultValueSerde?: Serde<unknown>;
  readonly logger: StreamsLogger;
}

/**
 * Builds the topology from the declarations, with the engine's DSL: one source stream per
 * topic shared by every decorator that reads it, one `groupByKey().aggregate|count|reduce`
 * per aggregation decorator materialized as its `@StateStore` says, then every `@Topology()`
 * method. Declared stores nothing uses are left out (with a warning).
 *
 * Errors: `ConflictingSourceSerdesError`, `UndeclaredStateStoreError`,
 * `InvalidStreamsDeclarationError`, and the engine's `TopologyError` from the DSL; each names
 * what to fix.
 */
export class StreamsTopologyFactory {
  private readonly builder = new StreamsBuilder();
  private readonly sources = new Map<string, SharedSource>();
  private readonly claimed = new Map<string, string>();
  private readonly planned = new Map<
    string,
    { keySerde?: Serde<unknown>; valueSerde?: Serde<unknown>; by: string }
  >();

  constructor(
    private readonly declarations: StreamsDeclarations,
    private readonly options: TopologyFactoryOptions,
  ) {}

  build(): Topology {
    this.planSources();
    for (const aggregation of this.declarations.aggregations) this.addAggregation(aggregation);
    const context = this.context();
    for (const method of this.declarations.topologyMethods) {
      method.invoke(this.builder, context);
    }
    const topology = this.builder.build();
    for (const name of this.declarations.stores.keys()) {
      if (this.claimed.has(name) || topology.stores().has(name)) continue;
      this.options.logger.warn(
        `state store '${name}' is declared with @StateStore but no aggregation or @Topology() method uses it: it is not created`,
      );
    }
    return topology;
  }

  /**
   * Merges the source serdes of every aggregation per topic first, so that a serde given by
   * one decorator serves all the decorators reading that topic.
   */
  private planSources(): void {
    for (const { options, declaredBy } of this.declarations.aggregations) {
      const planned = this.planned.get(options.source);
      if (!planned) {
        this.planned.set(options.source, {
          keySerde: options.keySerde,
          valueSerde: options.valueSerde,
          by: declaredBy,
        });
        continue;
      }
      if (!sameSerde(planned.keySerde, options.keySerde)) {
        throw new ConflictingSourceSerdesError(options.source, planned.by, declaredBy, 'key');
      }
      if (!sameSerde(planned.valueSerde, options.valueSerde)) {
        throw new ConflictingSourceSerdesError(options.source, planned.by, declaredBy, 'value');
      }
      this.planned.set(options.source, {
        keySerde: planned.keySerde ?? options.keySerde,
        valueSerde: planned.valueSerde ?? options.valueSerde,
        by: planned.by,
      });
    }
  }

  private addAggregation(aggregation: DeclaredAggregation): void {
    const { options, declaredBy, invoke } = aggregation;
    const store = this.claim(options.store, declaredBy);
    const stream = this.stream(options.source, options.keySerde, options.valueSerde, declaredBy);
    const materialized = this.materializedFor<unknown>(store, options.keySerde);
    const windows = options.windows;
    if (aggregation.kind === 'count') {
      const grouped = stream.filter((key, value) => invoke(key, value) !== false).groupByKey();
      const counts = materialized as Materialized<unknown, number>;
      if (windows instanceof TimeWindows) grouped.windowedBy(windows).count(counts);
      else if (windows instanceof SessionWindows) grouped.windowedBy(windows).count(counts);
      else grouped.count(counts);
      return;
    }
    const grouped = stream.groupByKey();
    if (aggregation.kind === 'reduce') {
      const reducer = (aggregate: unknown, value: unknown): unknown => invoke(aggregate, value);
      if (windows instanceof TimeWindows) grouped.windowedBy(windows).reduce(reducer, materialized);
      else if (windows instanceof SessionWindows)
        grouped.windowedBy(windows).reduce(reducer, materialized);
      else grouped.reduce(reducer, materialized);
      return;
    }
    const initializer = options.initializer as () => unknown;
    const aggregator = (key: unknown, value: unknown, aggregate: unknown): unknown =>
      invoke(key, value, aggregate);
    if (windows instanceof TimeWindows) {
      grouped.windowedBy(windows).aggregate(initializer, aggregator, materialized);
    } else if (windows instanceof SessionWindows) {
      const merger = options.merger as (key: unknown, a: unknown, b: unknown) => unknown;
      grouped.windowedBy(windows).aggregate(initializer, aggregator, merger, materialized);
    } else {
      grouped.aggregate(initializer, aggregator, materialized);
    }
  }

  private context(): TopologyContext {
    return {
      stream: <K, V>(topic: string, consumed?: Consumed<K, V>): KStream<K, V> =>
        this.stream(
          topic,
          consumed?.keySerde as Serde<unknown> | undefined,
          consumed?.valueSerde as Serde<unknown> | undefined,
          `a @Topology() method`,
          consumed as Consumed<unknown, unknown> | undefined,
        ) as unknown as KStream<K, V>,
      materialized: <K, V>(storeName: string): Materialized<K, V> =>
        this.materializedFor<unknown>(
          this.claim(storeName, `TopologyContext.materialized('${storeName}')`),
          undefined,
        ) as unknown as Materialized<K, V>,
      addStateStore: (storeName: string): void => {
        const store = this.claim(storeName, `TopologyContext.addStateStore('${storeName}')`);
        this.builder.addStateStore(this.storeBuilderFor(store));
      },
    };
  }

  private claim(storeName: string, by: string): DeclaredStore {
    const store = this.declarations.stores.get(storeName);
    if (!store) {
      throw new UndeclaredStateStoreError(storeName, by, [...this.declarations.stores.keys()]);
    }
    const previous = this.claimed.get(storeName);
    if (previous) {
      throw new InvalidStreamsDeclarationError(
        `state store '${storeName}' is used by both ${previous} and ${by}: each needs its own store`,
      );
    }
    this.claimed.set(storeName, by);
    return store;
  }

  private stream(
    topic: string,
    keySerde: Serde<unknown> | undefined,
    valueSerde: Serde<unknown> | undefined,
    by: string,
    consumed?: Consumed<unknown, unknown>,
  ): KStream<unknown, unknown> {
    const existing = this.sources.get(topic);
    if (existing) {
      // The stream exists already: its serdes are fixed, a caller asking for others conflicts.
      if (keySerde !== undefined && !sameDefinedSerde(existing.keySerde, keySerde)) {
        throw new ConflictingSourceSerdesError(topic, existing.by, by, 'key');
      }
      if (valueSerde !== undefined && !sameDefinedSerde(existing.valueSerde, valueSerde)) {
        throw new ConflictingSourceSerdesError(topic, existing.by, by, 'value');
      }
      return existing.stream;
    }
    const planned = this.planned.get(topic);
    const key = keySerde ?? planned?.keySerde;
    const value = valueSerde ?? planned?.valueSerde;
    const stream = this.builder.stream<unknown, unknown>(
      topic,
      consumed ?? Consumed.with<unknown, unknown>(key, value),
    );
    this.sources.set(topic, { stream, keySerde: key, valueSerde: value, by: planned?.by ?? by });
    return stream;
  }

  private materializedFor<V>(
    store: DeclaredStore,
    sourceKeySerde: Serde<unknown> | undefined,
  ): Materialized<unknown, V> {
    const { options } = store;
    const materialized =
      typeof options.engine === 'object'
        ? Materialized.as<unknown, V>(options.engine)
        : Materialized.as<unknown, V>(store.name);
    const keySerde = options.keySerde ?? sourceKeySerde;
    if (keySerde) materialized.withKeySerde(keySerde);
    if (options.valueSerde) materialized.withValueSerde(options.valueSerde as Serde<V>);
    if (options.engine === 'in-memory') materialized.withStoreType('IN_MEMORY');
    if (options.retentionMs !== undefined) materialized.withRetention(options.retentionMs);
    if (options.caching === false) materialized.withCachingDisabled();
    else materialized.withCachingEnabled();
    if (options.logging === false) materialized.withLoggingDisabled();
    else if (typeof options.logging === 'object') materialized.withLoggingEnabled(options.logging);
    return materialized;
  }

  private storeBuilderFor(store: DeclaredStore): StoreBuilder<StateStore> {
    const { name, options } = store;
    const keySerde = options.keySerde ?? this.options.defaultKeySerde ?? Serdes.Bytes();
    const valueSerde = options.valueSerde ?? this.options.defaultValueSerde ?? Serdes.Bytes();
    const persistent = options.engine !== 'in-memory';
    let builder: StoreBuilder<StateStore>;
    const kind = options.kind ?? 'key-value';
    if (kind === 'key-value') {
      builder = Stores.keyValueStoreBuilder(
        typeof options.engine === 'object'
          ? options.engine
          : persistent
            ? Stores.persistentKeyValueStore(name)
            : Stores.inMemoryKeyValueStore(name),
        keySerde as Serde<unknown>,
        valueSerde as Serde<unknown>,
      );
    } else if (kind === 'window') {
      const { retentionMs, windowSizeMs } = options;
      if (retentionMs === undefined || windowSizeMs === undefined) {
        throw new InvalidStreamsDeclarationError(
          `@StateStore('${name}') on ${store.declaredBy}: a window store for your own processors needs retentionMs and windowSizeMs`,
        );
      }
      builder = Stores.windowStoreBuilder(
        persistent
          ? Stores.persistentWindowStore(name, retentionMs, windowSizeMs)
          : Stores.inMemoryWindowStore(name, retentionMs, windowSizeMs),
        keySerde as Serde<unknown>,
        valueSerde as Serde<unknown>,
      );
    } else {
      const { retentionMs } = options;
      if (retentionMs === undefined) {
        throw new InvalidStreamsDeclarationError(
          `@StateStore('${name}') on ${store.declaredBy}: a session store for your own processors needs retentionMs`,
        );
      }
      builder = Stores.sessionStoreBuilder(
        persistent
          ? Stores.persistentSessionStore(name, retentionMs)
          : Stores.inMemorySessionStore(name, retentionMs),
        keySerde as Serde<unknown>,
        valueSerde as Serde<unknown>,
      );
    }
    if (options.caching === false) builder.withCachingDisabled();
    else builder.withCachingEnabled();
    if (options.logging === false) builder.withLoggingDisabled();
    else builder.withLoggingEnabled(typeof options.logging === 'object' ? options.logging : {});
    return builder;
  }
}

/** Serdes agree when one side does not care, or both are of the same class. */
function sameSerde(a: Serde<unknown> | undefined, b: Serde<unknown> | undefined): boolean {
  if (a === undefined || b === undefined) return true;
  return sameDefinedSerde(a, b);
}

/** Both given and of the same class (serde instances of one class read the same bytes). */
function sameDefinedSerde(a: Serde<unknown> | undefined, b: Serde<unknown>): boolean {
  return a !== undefined && (a === b || Object.getPrototypeOf(a) === Object.getPrototypeOf(b));
}
