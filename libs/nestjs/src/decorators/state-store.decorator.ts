import type { KeyValueBytesStoreSupplier, Serde } from '@nest-streams/streams';
import { STATE_STORE_METADATA } from '../streams.constants';

/** The kind of a declared store, as Kafka Streams' store types. */
export type StateStoreKind = 'key-value' | 'window' | 'session';

/**
 * Where a store keeps its data: `rocksdb` (on disk, restored from its checkpoint after a
 * restart; Kafka Streams' `ROCKS_DB`), `in-memory` (rebuilt from the changelog after every
 * restart; `IN_MEMORY`), or, for a key-value store, a supplier of your own engine
 * (`Stores.persistentKeyValueStore(name, { configSetter })`, or a custom `BytesStore`).
 */
export type StateStoreEngine = 'rocksdb' | 'in-memory' | KeyValueBytesStoreSupplier;

/** How a store is built (Kafka Streams' `Materialized` / `Stores` choices). */
export interface StateStoreOptions<K = unknown, V = unknown> {
  /** Key-value (default), window or session. */
  readonly kind?: StateStoreKind;
  /** The engine; default `rocksdb`. */
  readonly engine?: StateStoreEngine;
  /** Window and session stores: how long windows are kept, in ms. */
  readonly retentionMs?: number;
  /** Window stores used by your own processors (not by `@Aggregate`): the window size, in ms. */
  readonly windowSizeMs?: number;
  /** Batch updates in the record cache (default true). */
  readonly caching?: boolean;
  /** Mirror writes to the changelog topic (default true), optionally with topic configs. */
  readonly logging?: boolean | Readonly<Record<string, string>>;
  /** Serde of the keys; default the aggregation's source key serde, else the app's default. */
  readonly keySerde?: Serde<K>;
  /** Serde of the values; default the app's default value serde. */
  readonly valueSerde?: Serde<V>;
}

/** One `@StateStore` declaration as the accessor reads it. */
export interface StateStoreDeclaration {
  readonly name: string;
  readonly options: StateStoreOptions;
}

/**
 * Declares a state store on a provider class (repeatable: one decorator per store). Aggregation
 * decorators (`@Aggregate`, `@Count`, `@Reduce`) and `@Topology()` methods name it; it is
 * queryable under its name (`@InjectStore`, `InteractiveQueryService`, `@RouteByKey`).
 *
 * @example
 * @StateStore('stats-store', { keySerde: Serdes.String(), valueSerde: Serdes.Json<Stats>() })
 * @Injectable()
 * export class StatsAggregation { ... }
 *
 * Errors at start-up (when the module builds the topology): `DuplicateStateStoreError` when
 * two declarations share a name (rename one), `InvalidStreamsDeclarationError` for an invalid
 * name or option (fix it), `RequestScopedStreamsProviderError` on a request-scoped provider
 * (make it a singleton).
 */
export function StateStore<K = unknown, V = unknown>(
  name: string,
  options: StateStoreOptions<K, V> = {},
): ClassDecorator {
  return (target) => {
    const existing =
      (Reflect.getOwnMetadata(STATE_STORE_METADATA, target) as
        StateStoreDeclaration[] | undefined) ?? [];
    const declaration: StateStoreDeclaration = { name, options: options as StateStoreOptions };
    // Decorators apply bottom-up: prepend so the list reads in source order.
    Reflect.defineMetadata(STATE_STORE_METADATA, [declaration, ...existing], target);
  };
}
