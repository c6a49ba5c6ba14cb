import type { ProcessorSupplier } from '../../processor/processor';
import type { StateStore } from '../../processor/state-store';
import type { StoreBuilder } from '../../processor/store-builder';
import { bindingDefaultSerdes, type DefaultSerde } from './default-serde';
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
   * Adds the aggregation; returns the topics feeding it (the repartition topic, or the
   * stream's own source topics).
   *
   * @throws TopologyError for a taken processor, store or repartition name.
   */
  build<KOut, VOut>(spec: AggregationSpec<K, V, KOut, VOut>): ReadonlySet<string> {
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
