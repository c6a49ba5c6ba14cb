import type { Serde } from '../../serde/serde';
import { timestampedKeyValueStoreBuilderFor } from './key-value-store-materializer';
import type { StoreBuilder } from '../../processor/store-builder';
import type { StateStore } from '../../processor/state-store';
import { Materialized } from '../materialized';
import { serdeOrDefault, type DefaultSerde } from './default-serde';
import type { InternalStreamsBuilder } from './internal-streams-builder';

/** A store the DSL decided to build, with what the KTable over it needs to know. */
export interface MaterializedStore<S extends StateStore> {
  readonly storeName: string;
  /** The store name when the user named it (so it is queryable), else undefined. */
  readonly queryableStoreName: string | undefined;
  readonly builder: StoreBuilder<S>;
  /** Placeholders to bind to the default serdes when the processor initializes. */
  readonly defaultSerdes: DefaultSerde<unknown>[];
}

/**
 * The store name of `materialized`, generating `<prefix>STATE-STORE-<index>` (and burning an
 * index, as Kafka Streams' `MaterializedInternal`) when it has none.
 */
export function storeNameFor<K, V>(
  builder: InternalStreamsBuilder,
  materialized: Materialized<K, V> | undefined,
  generatedPrefix: string,
): { storeName: string; queryableStoreName: string | undefined } {
  const named = materialized?.storeName;
  if (named !== undefined) return { storeName: named, queryableStoreName: named };
  return { storeName: builder.newStoreName(generatedPrefix), queryableStoreName: undefined };
}

/**
 * The timestamped key-value store of a KTable or an aggregation, built with the store
 * layer's materializer: serdes from `materialized`, else the operation's, else the
 * application's defaults (bound at processor init).
 */
export function timestampedKeyValueStore<K, V>(
  storeName: string,
  materialized: Materialized<K, V> | undefined,
  keySerde: Serde<K> | undefined,
  valueSerde: Serde<V> | undefined,
): MaterializedStore<StateStore> {
  const defaultSerdes: DefaultSerde<unknown>[] = [];
  const m = materialized ?? Materialized.with<K, V>();
  const builder = timestampedKeyValueStoreBuilderFor(m, {
    generatedName: storeName,
    keySerde: serdeOrDefault(m.keySerde ?? keySerde, 'key', storeName, defaultSerdes),
    valueSerde: serdeOrDefault(m.valueSerde ?? valueSerde, 'value', storeName, defaultSerdes),
  });
  return {
    storeName,
    queryableStoreName: materialized?.storeName,
    builder,
    defaultSerdes,
  };
}
