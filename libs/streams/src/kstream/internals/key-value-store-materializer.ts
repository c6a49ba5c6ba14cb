import type { Materialized } from '../materialized';
import type { Serde } from '../../serde/serde';
import { Stores } from '../../state/stores';
import type { ValueAndTimestamp } from '../../state/value-and-timestamp';
import type { MeteredKeyValueStore } from '../../state/internals/metered-key-value-store';
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
  if (materialized.cachingEnabled) builder.withCachingEnabled();
  else builder.withCachingDisabled();
  if (materialized.loggingEnabled) builder.withLoggingEnabled(materialized.topicConfig);
  else builder.withLoggingDisabled();
  return builder;
}
