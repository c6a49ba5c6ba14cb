import type { ProcessorSupplier } from '../../processor/processor';
import type { StateStore } from '../../processor/state-store';
import type { StoreBuilder } from '../../processor/store-builder';
import type { Serde } from '../../serde/serde';
import { Serdes } from '../../serde/serdes';
import type { Aggregator, Initializer, Reducer } from '../functions';
import type { Materialized } from '../materialized';
import type { Named } from '../named';
import { bindingDefaultSerdes, type DefaultSerde } from './default-serde';
import type { AggregateFunction } from './kstream-aggregate.processor';
import type { AggregateSupplier } from './aggregate-supplier';
import { NAMES } from './naming';
import { storeNameFor, type MaterializedStore, type StoreMaterializer } from './store-materializer';
import type { StreamNode } from './stream-node';
import type { TableNode } from './table-node';

/** What one aggregation adds to the topology. */
export interface AggregationSpec<K, V, KOut, VOut> {
  readonly processorName: string;
  /** Names the repartition topic when the grouping has no name (Kafka Streams' rule). */
  readonly storeName: string;
  readonly processorSupplier: ProcessorSupplier<K, V, KOut, VOut>;
  readonly storeBuilder: StoreBuilder<StateStore>;
  readonly defaultSerdes: readonly DefaultSerde<unknown>[];
}

/**
 * How an aggregation's processor and store are named and its values serialized: from
 * `materialized` and `named` as the user gave them, else generated with `prefix` and the
 * default value serde.
 */
export interface AggregateResultSpec<K, VA> {
  /** Prefix of the generated processor and store names (`KSTREAM-AGGREGATE-`, ...). */
  readonly prefix: string;
  readonly materialized: Materialized<K, VA> | undefined;
  readonly named: Named | undefined;
  /** The value serde when `materialized` has none (`undefined`: the application's default). */
  readonly defaultValueSerde: Serde<VA> | undefined;
}

/** One aggregation of a grouped stream into a table (see `GroupedStreamAggregateBuilder.table`). */
export interface AggregateTableSpec<K, V, KT, VA> extends AggregateResultSpec<K, VA> {
  /** The table's key serde from the stream's (none for windowed keys). */
  tableKeySerde(keySerde: Serde<K> | undefined): Serde<KT> | undefined;
  /** The store of the aggregation, named `storeName`. */
  store(
    storeName: string,
    keySerde?: Serde<K>,
    valueSerde?: Serde<VA>,
  ): MaterializedStore<StateStore>;
  /** The aggregate processor over that store. */
  supplier(storeName: string): AggregateSupplier<K, V, KT, VA>;
  /** A windowed aggregation's window grace (see `TableNode.windowGraceMs`). */
  readonly windowGraceMs?: number;
}

/**
 * How a grouping that folds one record at a time (by key, by time window) keeps its
 * aggregates: `count`, `reduce` and `aggregate` of {@link GroupedStreamAggregateBuilder} run
 * over it.
 */
export interface AggregateKind<K, V, KT> {
  /** The table's key serde from the stream's (none for windowed keys). */
  tableKeySerde(keySerde: Serde<K> | undefined): Serde<KT> | undefined;
  /** The store of an aggregation. */
  readonly store: StoreMaterializer;
  /** The aggregate processor over that store, folding each record with `aggregate`. */
  supplier<VA>(
    storeName: string,
    aggregate: AggregateFunction<K, V, VA>,
  ): AggregateSupplier<K, V, KT, VA>;
  /** A windowed aggregation's window grace (see `TableNode.windowGraceMs`). */
  readonly windowGraceMs?: number;
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

  /** Counts the records per key of `kind` (values in the store: `Serdes.Long()` unless given). */
  count<KT>(
    kind: AggregateKind<K, V, KT>,
    materialized: Materialized<K, number> | undefined,
    named: Named | undefined,
  ): TableNode<KT, number> {
    const count: AggregateFunction<K, V, number> = (_key, _value, total) => (total ?? 0) + 1;
    return this.fold<KT, number>(kind, count, {
      prefix: NAMES.AGGREGATE,
      materialized,
      named,
      defaultValueSerde: Serdes.Long(),
    });
  }

  /** Combines the values per key of `kind` with `reducer(aggregate, value)`. */
  reduce<KT>(
    kind: AggregateKind<K, V, KT>,
    reducer: Reducer<V>,
    materialized: Materialized<K, V> | undefined,
    named: Named | undefined,
  ): TableNode<KT, V> {
    const reduce: AggregateFunction<K, V, V> = (_key, value, aggregate) =>
      aggregate === undefined ? value : reducer(aggregate, value);
    return this.fold(kind, reduce, {
      prefix: NAMES.REDUCE,
      materialized,
      named,
      defaultValueSerde: this.node.valueSerde,
    });
  }

  /** Folds the values per key of `kind`, each key starting from `initializer()`. */
  aggregate<KT, VA>(
    kind: AggregateKind<K, V, KT>,
    initializer: Initializer<VA>,
    aggregator: Aggregator<K, V, VA>,
    materialized: Materialized<K, VA> | undefined,
    named: Named | undefined,
  ): TableNode<KT, VA> {
    const aggregate: AggregateFunction<K, V, VA> = (key, value, current) =>
      aggregator(key, value, current === undefined ? initializer() : current);
    return this.fold(kind, aggregate, {
      prefix: NAMES.AGGREGATE,
      materialized,
      named,
      defaultValueSerde: undefined,
    });
  }

  /**
   * Adds an aggregation and returns its table's node: the store and processor names come from
   * `materialized` and `named`, else are generated with `spec.prefix`; the serdes from
   * `materialized`, else the stream's key serde and `spec.defaultValueSerde`.
   *
   * @throws TopologyError for a taken processor, store or repartition name.
   */
  table<KT, VA>(spec: AggregateTableSpec<K, V, KT, VA>): TableNode<KT, VA> {
    const { builder } = this.node;
    const { storeName } = storeNameFor(builder, spec.materialized, spec.prefix);
    const processorName = builder.nameOrGenerate(spec.named?.name, spec.prefix);
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
    return {
      node: { builder, name: processorName, keySerde: tableKeySerde, valueSerde, sourceTopics },
      supplier,
      queryableStoreName: store.queryableStoreName,
      windowGraceMs: spec.windowGraceMs,
    };
  }

  private fold<KT, VA>(
    kind: AggregateKind<K, V, KT>,
    aggregate: AggregateFunction<K, V, VA>,
    result: AggregateResultSpec<K, VA>,
  ): TableNode<KT, VA> {
    return this.table<KT, VA>({
      ...result,
      tableKeySerde: (keySerde) => kind.tableKeySerde(keySerde),
      store: (storeName, keySerde, valueSerde) =>
        kind.store(storeName, result.materialized, keySerde, valueSerde),
      supplier: (storeName) => kind.supplier(storeName, aggregate),
      windowGraceMs: kind.windowGraceMs,
    });
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
