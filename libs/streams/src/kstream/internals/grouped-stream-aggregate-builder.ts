import type { ProcessorSupplier } from '../../processor/processor';
import type { StateStore } from '../../processor/state-store';
import type { StoreBuilder } from '../../processor/store-builder';
import type { Serde } from '../../serde/serde';
import type { KTable } from '../ktable';
import type { Materialized } from '../materialized';
import type { Named } from '../named';
import type { Change } from './change';
import { bindingDefaultSerdes, type DefaultSerde } from './default-serde';
import type { KTableProcessorSupplier } from './ktable-value-getter';
import { storeNameFor, type MaterializedStore } from './store-materializer';
import type { StreamNode } from './stream-node';

/** What one aggregation adds to the topology. */
export interface AggregationSpec<K, V, KOut, VOut> {
  readonly processorName: string;
  /** Names the repartition topic when the grouping has no name (Kafka Streams' rule). */
  readonly storeName: string;
  readonly processorSupplier: ProcessorSupplier<K, V, KOut, VOut>;
  readonly storeBuilder: StoreBuilder<StateStore>;
  readonly defaultSerdes: readonly DefaultSerde<unknown>[];
}

/** One aggregation of a grouped stream into a table (see `GroupedStreamAggregateBuilder.table`). */
export interface AggregateTableSpec<K, V, KT, VA> {
  /** Prefix of the generated processor and store names (`KSTREAM-AGGREGATE-`, ...). */
  readonly prefix: string;
  readonly materialized: Materialized<K, VA> | undefined;
  readonly named: Named | undefined;
  /** The value serde when `materialized` has none (`undefined`: the application's default). */
  readonly defaultValueSerde: Serde<VA> | undefined;
  /** The table's key serde from the stream's (none for windowed keys). */
  tableKeySerde(keySerde: Serde<K> | undefined): Serde<KT> | undefined;
  /** The store of the aggregation, named `storeName`. */
  store(
    storeName: string,
    keySerde?: Serde<K>,
    valueSerde?: Serde<VA>,
  ): MaterializedStore<StateStore>;
  /** The aggregate processor over that store. */
  supplier(storeName: string): KTableProcessorSupplier<KT, VA> & {
    processorSupplier(): ProcessorSupplier<K, V, KT, Change<VA>>;
  };
}

/**
 * Writes the aggregations of one grouped stream (Kafka Streams'
 * `GroupedStreamAggregateBuilder`): when the grouping follows a key change, the records first
 * go through `<grouping name, else the store name>-repartition`; then the aggregate processor
 * and its store. A named grouping shares one repartition topic between its aggregations; an
 * unnamed one gets a topic per aggregation (named after each store).
 */
export class GroupedStreamAggregateBuilder<K, V> {
  constructor(
    private readonly node: StreamNode<K, V>,
    private readonly repartitionRequired: boolean,
    private readonly repartitionName: string | undefined,
  ) {}

  /**
   * Adds an aggregation and returns its table: the store and processor names come from
   * `materialized` and `named`, else are generated with `spec.prefix`; the serdes from
   * `materialized`, else the stream's key serde and `spec.defaultValueSerde`.
   *
   * @throws TopologyError for a taken processor, store or repartition name.
   */
  table<KT, VA>(spec: AggregateTableSpec<K, V, KT, VA>): KTable<KT, VA> {
    const { builder } = this.node;
    const { storeName } = storeNameFor(builder, spec.materialized, spec.prefix);
    const processorName = spec.named?.name ?? builder.newProcessorName(spec.prefix);
    const keySerde = spec.materialized?.keySerde ?? this.node.keySerde;
    const valueSerde = spec.materialized?.valueSerde ?? spec.defaultValueSerde;
    const store = spec.store(storeName, keySerde, valueSerde);
    const supplier = spec.supplier(storeName);
    const sourceTopics = this.build({
      processorName,
      storeName,
      processorSupplier: supplier.processorSupplier(),
      storeBuilder: store.builder,
      defaultSerdes: store.defaultSerdes,
    });
    const tableKeySerde = spec.tableKeySerde(keySerde);
    return new builder.dsl.KTable<KT, VA>(
      { builder, name: processorName, keySerde: tableKeySerde, valueSerde, sourceTopics },
      supplier,
      store.queryableStoreName,
    );
  }

  /**
   * Adds the aggregation; returns the topics feeding it (the repartition topic, or the
   * stream's own source topics).
   *
   * @throws TopologyError for a taken processor, store or repartition name.
   */
  private build<KOut, VOut>(spec: AggregationSpec<K, V, KOut, VOut>): ReadonlySet<string> {
    const { builder } = this.node;
    let parent = this.node.name;
    let topics = this.node.sourceTopics;
    if (this.repartitionRequired) {
      const repartition = builder.repartition({
        parentName: this.node.name,
        prefix: this.repartitionName ?? spec.storeName,
        keySerde: this.node.keySerde,
        valueSerde: this.node.valueSerde,
      });
      parent = repartition.sourceName;
      topics = new Set([repartition.topic]);
    }
    builder.topology.addProcessor(
      spec.processorName,
      bindingDefaultSerdes(spec.processorSupplier, spec.defaultSerdes),
      parent,
    );
    builder.topology.addStateStore(spec.storeBuilder, spec.processorName);
    return topics;
  }
}
