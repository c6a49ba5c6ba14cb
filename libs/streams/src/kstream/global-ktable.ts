import type { KTableValueGetterSupplier } from './internals/ktable-value-getter';
import type { StreamNode } from './internals/stream-node';

/**
 * A table every instance keeps whole (Kafka Streams' `GlobalKTable`), from
 * `StreamsBuilder.globalTable`: filled from every partition of its topic, so a stream joins it
 * on any key it computes from its records (`KStream.join(globalTable, keySelector, joiner)`)
 * without co-partitioning or repartitioning. Its store is restored from the topic itself at
 * start (it has no changelog) and is queryable when named.
 *
 * Errors: none of its own; see `StreamsBuilder.globalTable` and `KStream.join`.
 */
export class GlobalKTable<K, V> {
  /** @internal Made by `StreamsBuilder.globalTable`. */
  constructor(
    /** @internal The global table source's node. */
    readonly node: StreamNode<K, V>,
    /** @internal Reads the global store's rows. */
    readonly rows: KTableValueGetterSupplier<K, V>,
    private readonly storeName: string | undefined,
  ) {}

  /** The store's name when it was named with `Materialized.as` (and so queryable), else undefined. */
  queryableStoreName(): string | undefined {
    return this.storeName;
  }
}
