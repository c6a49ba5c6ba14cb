import type { Serde } from '../../../serde/serde';
import type { Aggregator, Initializer } from '../../functions';
import type { Materialized } from '../../materialized';
import type { Named } from '../../named';
import type { AggregateSupplier } from '../aggregate-supplier';
import { bindingDefaultSerdes } from '../default-serde';
import { NAMES } from '../naming';
import { storeNameFor, type StoreMaterializer } from '../store-materializer';
import { unionTopics, type StreamNode } from '../stream-node';
import type { TableNode } from '../table-node';
import { KTablePassThroughSupplier } from './ktable-pass-through.processor';

/** One grouped stream of a cogroup: where it is, how it is grouped and its aggregator. */
export interface CogroupedInput<K, VOut> {
  readonly node: StreamNode<K, unknown>;
  readonly repartitionRequired: boolean;
  readonly repartitionName: string | undefined;
  readonly aggregator: Aggregator<K, unknown, VOut>;
}

/** How a cogroup keeps its aggregates (by key, time window, sliding window or session). */
export interface CogroupKind<K, VOut, KT> {
  readonly store: StoreMaterializer;
  /** The table's key serde from the first stream's key serde. */
  tableKeySerde(keySerde: Serde<K> | undefined): Serde<KT> | undefined;
  /** The aggregate processor of one stream over the shared store. */
  supplier(
    storeName: string,
    aggregator: Aggregator<K, unknown, VOut>,
    initializer: Initializer<VOut>,
  ): AggregateSupplier<K, unknown, KT, VOut>;
  readonly windowGraceMs?: number;
}

/**
 * Writes a cogrouped aggregation (Kafka Streams' `CogroupedStreamAggregateBuilder`): every
 * stream whose key changed goes through `<its Grouped name, else the store name>-repartition`;
 * the streams' topics must be co-partitioned; each stream then has its aggregate processor
 * (`COGROUPKSTREAM-AGGREGATE-<n>`, or `<name>-cogroup-agg-<i>`) folding its records into the one
 * shared store (`Materialized`'s name, else `COGROUPKSTREAM-AGGREGATE-STATE-STORE-<n>`), and a
 * merge (`COGROUPKSTREAM-MERGE-<n>`, or `<name>-cogroup-merge`) forwards every update. Returns
 * the merge's table node.
 *
 * @throws TopologyError for a taken name, or two streams repartitioned into one topic (give
 *   their groupings names).
 */
export function cogroupedAggregate<K, VOut, KT>(
  inputs: readonly CogroupedInput<K, VOut>[],
  kind: CogroupKind<K, VOut, KT>,
  initializer: Initializer<VOut>,
  materialized: Materialized<K, VOut> | undefined,
  named: Named | undefined,
): TableNode<KT, VOut> {
  const { builder } = inputs[0].node;
  const { storeName } = storeNameFor(builder, materialized, NAMES.COGROUP_AGGREGATE);
  const parents = inputs.map((input) => {
    if (!input.repartitionRequired) return input.node;
    const { topic, sourceName } = builder.repartition({
      parentName: input.node.name,
      prefix: input.repartitionName ?? storeName,
      keySerde: input.node.keySerde,
      valueSerde: input.node.valueSerde,
    });
    return { ...input.node, name: sourceName, sourceTopics: new Set([topic]) };
  });
  const sourceTopics = parents.reduce<ReadonlySet<string>>(
    (all, p) => unionTopics(all, p.sourceTopics),
    new Set(),
  );
  builder.copartition(sourceTopics);
  const keySerde = materialized?.keySerde ?? inputs[0].node.keySerde;
  const store = kind.store(storeName, materialized, keySerde, materialized?.valueSerde);
  const suppliers = inputs.map((input) => kind.supplier(storeName, input.aggregator, initializer));
  const aggregateNames = inputs.map((_input, i) =>
    builder.suffixedOrGenerate(named?.name, `-cogroup-agg-${i}`, NAMES.COGROUP_AGGREGATE),
  );
  const { topology } = builder;
  aggregateNames.forEach((name, i) => {
    const processor = bindingDefaultSerdes(suppliers[i].processorSupplier(), store.defaultSerdes);
    topology.addProcessor(name, processor, parents[i].name);
    if (i === 0) topology.addStateStore(store.builder, name);
    else topology.connectProcessorAndStateStores(name, storeName);
  });
  const mergeName = builder.suffixedOrGenerate(named?.name, '-cogroup-merge', NAMES.COGROUP_MERGE);
  const merge = new KTablePassThroughSupplier<KT, VOut>(suppliers);
  topology.addProcessor(mergeName, merge.processorSupplier(), ...aggregateNames);
  return {
    node: {
      builder,
      name: mergeName,
      keySerde: kind.tableKeySerde(keySerde),
      valueSerde: materialized?.valueSerde,
      sourceTopics,
    },
    supplier: merge,
    queryableStoreName: store.queryableStoreName,
    windowGraceMs: kind.windowGraceMs,
  };
}

/** An aggregator and its initializer as one fold (`undefined`: a key's first record). */
export function foldWith<K, V, VOut>(
  aggregator: Aggregator<K, V, VOut>,
  initializer: Initializer<VOut>,
): (key: K, value: V, aggregate: VOut | undefined) => VOut {
  return (key, value, aggregate) =>
    aggregator(key, value, aggregate === undefined ? initializer() : aggregate);
}
