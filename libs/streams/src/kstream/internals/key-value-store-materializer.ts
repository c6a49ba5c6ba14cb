import type { Materialized } from '../materialized';
import type { Serde } from '../../serde/serde';
import type { StateStore } from '../../processor/state-store';
import type { StoreBuilder } from '../../processor/store-builder';
import { Stores } from '../../state/stores';
import type { ValueAndTimestamp } from '../../state/value-and-timestamp';
import type { MeteredKeyValueStore } from '../../state/internals/metered/metered-key-value-store';
import type { StateStoreBuilder } from '../../state/internals/state-store-builder';

/** What the DSL operation brings when its `Materialized` leaves something open. */
export interface MaterializeDefaults<K, V> {
  /** The store name to use when `Materialized` has none (a generated, internal name). */
  readonly generatedName: string;
  readonly keySerde: Serde<K>;
  readonly valueSerde: Serde<V>;
}

/**
 * Turns a DSL `Materialized` into the builder of a timestamped key-value store (what
 * `KTable`s and aggregations keep), as Kafka Streams' `KeyValueStoreMaterializer`.
 */
export function timestampedKeyValueStoreBuilderFor<K, V>(
  materialized: Materialized<K, V>,
  defaults: MaterializeDefaults<K, V>,
): StateStoreBuilder<MeteredKeyValueStore<K, ValueAndTimestamp<V>>> {
  const name = materialized.storeName ?? defaults.generatedName;
  const supplier =
    materialized.storeSupplier ??
    (materialized.storeType === 'IN_MEMORY'
      ? Stores.inMemoryKeyValueStore(name)
      : Stores.persistentTimestampedKeyValueStore(name));
  const builder = Stores.timestampedKeyValueStoreBuilder(
    supplier,
    materialized.keySerde ?? defaults.keySerde,
    materialized.valueSerde ?? defaults.valueSerde,
  );
  return withCachingAndLogging(builder, materialized);
}

/**
 * Turns caching and logging of `builder` on or off as `materialized` says (both on when there
 * is no `materialized`, as in Kafka Streams), the changelog with its topic configs.
 */
export function withCachingAndLogging<B extends StoreBuilder<StateStore>, K, V>(
  builder: B,
  materialized: Materialized<K, V> | undefined,
): B {
  if (materialized?.cachingEnabled ?? true) builder.withCachingEnabled();
  else builder.withCachingDisabled();
  if (materialized?.loggingEnabled ?? true) builder.withLoggingEnabled(materialized?.topicConfig);
  else builder.withLoggingDisabled();
  return builder;
}
