import type { Serde } from '../../../serde/serde';
import { Serdes } from '../../../serde/serdes';
import type { Aggregator, Initializer, KeyValue, KeyValueMapper, Reducer } from '../../functions';
import type { Grouped } from '../../grouped';
import type { Materialized } from '../../materialized';
import type { Named } from '../../named';
import { bindingDefaultSerdes, serdeOrDefault, type DefaultSerde } from '../default-serde';
import { NAMES } from '../naming';
import { storeNameFor, timestampedKeyValueStore } from '../store-materializer';
import type { StreamNode } from '../stream-node';
import type { TableNode } from '../table-node';
import type { AggregateResultSpec } from '../grouped-stream-aggregate-builder';
import { ChangeSerde } from './change-serde';
import { tableAggregateSupplier, type TableAggregation } from './ktable-aggregate.processor';
import { KTableRepartitionMapProcessor } from './ktable-repartition-map.processor';

/**
 * Writes `KTable.groupBy` (Kafka Streams' `KTableImpl.groupBy`): the key-selecting processor
 * `KTABLE-SELECT-<n>` (or the `Grouped` name) below `table`, which then sends old values.
 * Returns the builder of the grouped table's aggregations.
 *
 * @throws TopologyError for a taken name.
 */
export function groupTable<K, V, KR, VR>(
  table: TableNode<K, V>,
  selector: KeyValueMapper<K, V, KeyValue<KR, VR>>,
  grouped: Grouped<KR, VR> | undefined,
): GroupedTableAggregateBuilder<KR, VR> {
  const { builder } = table.node;
  const selectName = builder.nameOrGenerate(grouped?.name, NAMES.KTABLE_SELECT);
  table.supplier.enableSendingOldValues(true);
  const pending: DefaultSerde<unknown>[] = [];
  const keySerde = serdeOrDefault(grouped?.keySerde, 'key', selectName, pending);
  const valueSerde = serdeOrDefault(grouped?.valueSerde, 'value', selectName, pending);
  builder.topology.addProcessor(
    selectName,
    bindingDefaultSerdes(() => new KTableRepartitionMapProcessor<K, V, KR, VR>(selector), pending),
    table.node.name,
  );
  const node = { ...table.node, name: selectName, keySerde, valueSerde } as StreamNode<KR, VR>;
  return new GroupedTableAggregateBuilder<KR, VR>(node, grouped, pending);
}

/**
 * The aggregations of a grouped table (Kafka Streams' `KGroupedTableImpl`): each goes through
 * the repartition topic `<Grouped name, else the store name>-repartition` (a sink and a
 * source, `<named>-sink`/`-source` or generated; the topic shared by the aggregations of a
 * named grouping), carrying the changes with Kafka's `Change` layout, then the aggregate
 * processor `KTABLE-AGGREGATE-<n>` or `KTABLE-REDUCE-<n>` (or the `Named` name) and its store
 * (`Materialized`'s name, else `KTABLE-AGGREGATE-STATE-STORE-<n>`).
 */
export class GroupedTableAggregateBuilder<K, V> {
  private repartitionSource: { readonly name: string; readonly topic: string } | undefined;

  constructor(
    private readonly node: StreamNode<K, V>,
    private readonly grouped: Grouped<K, V> | undefined,
    /** The grouping's default-serde placeholders (bound by the select processor and here). */
    private readonly pending: readonly DefaultSerde<unknown>[],
  ) {}

  /** Counts the rows per key: +1 for a row that joins the key, -1 for one that leaves it. */
  count(materialized?: Materialized<K, number>, named?: Named): TableNode<K, number> {
    const aggregation: TableAggregation<K, V, number> = {
      first: () => 1,
      add: (_k, _v, count) => count + 1,
      remove: (_k, _v, count) => count - 1,
      reduce: false,
    };
    return this.build(aggregation, {
      prefix: NAMES.KTABLE_AGGREGATE,
      materialized,
      named,
      defaultValueSerde: Serdes.Long() as Serde<number>,
    });
  }

  /** Combines the values per key: `adder(aggregate, new)`, `subtractor(aggregate, old)`. */
  reduce(
    adder: Reducer<V>,
    subtractor: Reducer<V>,
    materialized?: Materialized<K, V>,
    named?: Named,
  ): TableNode<K, V> {
    const aggregation: TableAggregation<K, V, V> = {
      first: (_k, value) => value,
      add: (_k, value, aggregate) => adder(aggregate, value),
      remove: (_k, value, aggregate) => subtractor(aggregate, value),
      reduce: true,
    };
    return this.build(aggregation, {
      prefix: NAMES.KTABLE_REDUCE,
      materialized,
      named,
      defaultValueSerde: this.node.valueSerde,
    });
  }

  /** Folds the values per key from `initializer()`, with `adder` and `subtractor`. */
  aggregate<VA>(
    initializer: Initializer<VA>,
    adder: Aggregator<K, V, VA>,
    subtractor: Aggregator<K, V, VA>,
    materialized?: Materialized<K, VA>,
    named?: Named,
  ): TableNode<K, VA> {
    const aggregation: TableAggregation<K, V, VA> = {
      first: (key, value) => adder(key, value, initializer()),
      add: adder,
      remove: subtractor,
      reduce: false,
    };
    return this.build(aggregation, {
      prefix: NAMES.KTABLE_AGGREGATE,
      materialized,
      named,
      defaultValueSerde: undefined,
    });
  }

  private build<VA>(
    aggregation: TableAggregation<K, V, VA>,
    result: AggregateResultSpec<K, VA>,
  ): TableNode<K, VA> {
    const { prefix, materialized, named, defaultValueSerde } = result;
    const { builder } = this.node;
    const { storeName } = storeNameFor(builder, materialized, NAMES.KTABLE_AGGREGATE);
    const sinkName = builder.suffixedOrGenerate(named?.name, '-sink', NAMES.SINK);
    const sourceName = builder.suffixedOrGenerate(named?.name, '-source', NAMES.SOURCE);
    const processorName = builder.nameOrGenerate(named?.name, prefix);
    const groupedName = this.grouped?.name;
    if (this.repartitionSource === undefined || groupedName === undefined) {
      const topic = `${groupedName ?? storeName}-repartition`;
      const serdes = {
        keySerde: this.node.keySerde,
        valueSerde: new ChangeSerde(this.node.valueSerde!),
      };
      builder.topology.addInternalTopic(topic);
      builder.topology.addSink(sinkName, topic, serdes, this.node.name);
      builder.topology.addSource(sourceName, topic, serdes);
      this.repartitionSource = { name: sourceName, topic };
    }
    const keySerde = materialized?.keySerde ?? this.grouped?.keySerde;
    const valueSerde = materialized?.valueSerde ?? defaultValueSerde;
    const store = timestampedKeyValueStore(storeName, materialized, keySerde, valueSerde);
    const supplier = tableAggregateSupplier<K, V, VA>(storeName, aggregation);
    builder.topology.addProcessor(
      processorName,
      bindingDefaultSerdes(supplier.processorSupplier(), [...store.defaultSerdes, ...this.pending]),
      this.repartitionSource.name,
    );
    builder.topology.addStateStore(store.builder, processorName);
    return {
      node: {
        builder,
        name: processorName,
        keySerde,
        valueSerde,
        sourceTopics: new Set([this.repartitionSource.topic]),
      },
      supplier,
      queryableStoreName: store.queryableStoreName,
    };
  }
}
