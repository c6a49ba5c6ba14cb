import type { Materialized } from '../materialized';
import type { Named } from '../named';
import { bindingDefaultSerdes } from './default-serde';
import { KTableSourceSupplier } from './ktable-source.processor';
import { NAMES } from './naming';
import { storeNameFor, timestampedKeyValueStore } from './store-materializer';
import type { StreamNode } from './stream-node';
import type { TableNode } from './table-node';

/**
 * Writes `KStream.toTable` (Kafka Streams' `KStreamImpl.toTable`): the table source
 * `KSTREAM-TOTABLE-<n>` (or the `Named` name) below the stream, repartitioned first through
 * `<that name>-repartition` when the key changed. Its store (`Materialized`'s name, else
 * `KSTREAM-TOTABLE-STATE-STORE-<n>`) is added at once when named, else only when a downstream
 * operation needs it.
 *
 * @throws TopologyError for a taken name.
 */
export function streamToTable<K, V>(
  stream: { readonly node: StreamNode<K, V>; readonly repartitionRequired: boolean },
  named: Named | undefined,
  materialized: Materialized<K, V> | undefined,
): TableNode<K, V> {
  const { builder } = stream.node;
  const name = builder.nameOrGenerate(named?.name, NAMES.TOTABLE);
  const { storeName, queryableStoreName } = storeNameFor(builder, materialized, NAMES.TOTABLE);
  const keySerde = materialized?.keySerde ?? stream.node.keySerde;
  const valueSerde = materialized?.valueSerde ?? stream.node.valueSerde;
  let parent = stream.node.name;
  let sourceTopics = stream.node.sourceTopics;
  if (stream.repartitionRequired) {
    const repartition = builder.repartition({
      parentName: parent,
      prefix: name,
      keySerde,
      valueSerde,
    });
    parent = repartition.sourceName;
    sourceTopics = new Set([repartition.topic]);
  }
  const store = timestampedKeyValueStore(storeName, materialized, keySerde, valueSerde);
  const addStore = (): void => void builder.topology.addStateStore(store.builder, name);
  const supplier = new KTableSourceSupplier<K, V>(
    storeName,
    queryableStoreName === undefined ? addStore : undefined,
  );
  builder.topology.addProcessor(
    name,
    bindingDefaultSerdes(supplier.processorSupplier(), store.defaultSerdes),
    parent,
  );
  if (queryableStoreName !== undefined) addStore();
  return {
    node: { builder, name, keySerde, valueSerde, sourceTopics },
    supplier,
    queryableStoreName,
  };
}
