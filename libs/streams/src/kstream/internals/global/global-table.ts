import type { Consumed } from '../../consumed';
import type { Materialized } from '../../materialized';
import { bindingDefaultSerdes } from '../default-serde';
import type { InternalStreamsBuilder } from '../internal-streams-builder';
import { KTableSourceSupplier } from '../ktable-source.processor';
import type { KTableValueGetterSupplier } from '../ktable-value-getter';
import { NAMES } from '../naming';
import { storeNameFor, timestampedKeyValueStore } from '../store-materializer';
import type { StreamNode } from '../stream-node';
import { globalStoreGetterSupplier } from './global-store-getter';

/** What a `GlobalKTable` wraps: its node, how its rows are read, and its queryable store name. */
export interface GlobalTableNode<K, V> {
  readonly node: StreamNode<K, V>;
  readonly rows: KTableValueGetterSupplier<K, V>;
  readonly queryableStoreName: string | undefined;
}

/**
 * Writes `StreamsBuilder.globalTable` (Kafka Streams' `InternalStreamsBuilder.globalTable`): the
 * store `Materialized`'s name, else `<topic>-STATE-STORE-<n>`, never logged (its topic is its
 * changelog) nor cached; the source `KSTREAM-SOURCE-<n>` and the table source
 * `KTABLE-SOURCE-<n>` (with `Consumed.as(n)`: `n-source` and `n`) as a global store.
 *
 * @throws TopologyError for a taken name, or a topic already read.
 */
export function globalTable<K, V>(
  builder: InternalStreamsBuilder,
  topic: string,
  consumed: Consumed<K, V> | undefined,
  materialized: Materialized<K, V> | undefined,
): GlobalTableNode<K, V> {
  const { storeName, queryableStoreName } = storeNameFor(builder, materialized, `${topic}-`);
  const named = consumed?.processorName;
  const sourceName = builder.suffixedOrGenerate(named, '-source', NAMES.SOURCE);
  const processorName = builder.nameOrGenerate(named, NAMES.KTABLE_SOURCE);
  const keySerde = consumed?.keySerde ?? materialized?.keySerde;
  const valueSerde = consumed?.valueSerde ?? materialized?.valueSerde;
  const store = timestampedKeyValueStore(storeName, materialized, keySerde, valueSerde);
  store.builder.withLoggingDisabled().withCachingDisabled();
  const supplier = new KTableSourceSupplier<K, V>(storeName);
  builder.topology.addGlobalStore(
    store.builder,
    sourceName,
    { keySerde, valueSerde, timestampExtractor: consumed?.timestampExtractor },
    topic,
    processorName,
    bindingDefaultSerdes(supplier.processorSupplier(), store.defaultSerdes),
  );
  return {
    node: { builder, name: processorName, keySerde, valueSerde, sourceTopics: new Set([topic]) },
    rows: globalStoreGetterSupplier<K, V>(storeName),
    queryableStoreName,
  };
}
