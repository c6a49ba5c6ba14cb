import { StreamsError } from './streams.error';

/**
 * The topology has global stores (`StreamsBuilder.globalTable`, `addGlobalStore`), which
 * `KafkaStreams` does not run yet: it would neither read their topics nor restore them, and
 * the joins reading them would fail. Thrown by the `KafkaStreams` constructor, before anything
 * starts.
 *
 * What to do: run the topology in the `TopologyTestDriver` (which runs global stores), or, on
 * a cluster, replace the global table with a `KTable` over a topic co-partitioned with the
 * stream (`builder.table` and `KStream.join(table, ...)`, after `selectKey`/`repartition` when
 * the stream's key is another); never retriable.
 */
export class GlobalStoresUnsupportedError extends StreamsError.coded(
  'GLOBAL_STORES_UNSUPPORTED',
  false,
) {
  constructor(
    /** The names of the topology's global stores. */
    readonly storeNames: readonly string[],
  ) {
    super(
      `KafkaStreams does not run global stores yet (${storeNames.join(', ')}): run the topology in the TopologyTestDriver, or join a co-partitioned KTable instead`,
    );
  }
}
