import type { ProcessorSupplier } from '../../processor/processor';
import type { Predicate, ValueMapper } from '../functions';
import type { Materialized } from '../materialized';
import type { Named } from '../named';
import type { Change } from './change';
import { bindingDefaultSerdes } from './default-serde';
import { KTableFilterSupplier } from './table-transform/ktable-filter.processor';
import { KTableMapValuesSupplier } from './table-transform/ktable-map-values.processor';
import type { KTableProcessorSupplier } from './ktable-value-getter';
import { NAMES } from './naming';
import { storeNameFor, timestampedKeyValueStore } from './store-materializer';
import type { StreamNode } from './stream-node';
import type { TableNode } from './table-node';

/**
 * Writes `KTable.filter`/`filterNot` (`KTABLE-FILTER-<n>`), materialized when `materialized`
 * is given. Returns the result table's node.
 *
 * @throws TopologyError for a taken name.
 */
export function tableFilter<K, V>(
  table: TableNode<K, V>,
  predicate: Predicate<K, V>,
  not: boolean,
  named: Named | undefined,
  materialized: Materialized<K, V> | undefined,
): TableNode<K, V> {
  const { builder } = table.node;
  const store = materialized ? storeNameFor(builder, materialized, NAMES.KTABLE_FILTER) : undefined;
  const name = builder.nameOrGenerate(named?.name, NAMES.KTABLE_FILTER);
  const supplier = new KTableFilterSupplier<K, V>(table.supplier, predicate, not, store?.storeName);
  return addTableOperator(table, name, supplier, supplier.processorSupplier(), {
    materialized,
    storeName: store?.storeName,
    valueSerde: materialized?.valueSerde ?? table.node.valueSerde,
  });
}

/**
 * Writes `KTable.mapValues` (`KTABLE-MAPVALUES-<n>`), materialized when `materialized` is
 * given. Returns the result table's node.
 *
 * @throws TopologyError for a taken name.
 */
export function tableMapValues<K, V, VR>(
  table: TableNode<K, V>,
  mapper: ValueMapper<V, VR, K>,
  named: Named | undefined,
  materialized: Materialized<K, VR> | undefined,
): TableNode<K, VR> {
  const { builder } = table.node;
  const store = materialized
    ? storeNameFor(builder, materialized, NAMES.KTABLE_MAPVALUES)
    : undefined;
  const name = builder.nameOrGenerate(named?.name, NAMES.KTABLE_MAPVALUES);
  const supplier = new KTableMapValuesSupplier<K, V, VR>(table.supplier, mapper, store?.storeName);
  return addTableOperator(table, name, supplier, supplier.processorSupplier(), {
    materialized,
    storeName: store?.storeName,
    valueSerde: materialized?.valueSerde,
  });
}

/**
 * Adds a table operator's processor below `table`, with its store when it is materialized;
 * the result keeps the table's key serde (unless `materialized` has one) and window grace.
 */
export function addTableOperator<K, V, VR>(
  table: TableNode<K, V>,
  name: string,
  supplier: KTableProcessorSupplier<K, VR>,
  processorSupplier: ProcessorSupplier<K, Change<V>, K, Change<VR>>,
  options: {
    materialized: Materialized<K, VR> | undefined;
    storeName: string | undefined;
    valueSerde: StreamNode<K, VR>['valueSerde'];
  },
): TableNode<K, VR> {
  const { builder } = table.node;
  const keySerde = options.materialized?.keySerde ?? table.node.keySerde;
  let queryable: string | undefined;
  if (options.storeName !== undefined) {
    const built = timestampedKeyValueStore(
      options.storeName,
      options.materialized,
      keySerde,
      options.valueSerde,
    );
    const withSerdes = bindingDefaultSerdes(processorSupplier, built.defaultSerdes);
    builder.topology.addProcessor(name, withSerdes, table.node.name);
    builder.topology.addStateStore(built.builder, name);
    queryable = built.queryableStoreName;
  } else {
    builder.topology.addProcessor(name, processorSupplier, table.node.name);
  }
  return {
    node: { ...table.node, name, keySerde, valueSerde: options.valueSerde },
    supplier,
    queryableStoreName: queryable,
    windowGraceMs: table.windowGraceMs,
  };
}
