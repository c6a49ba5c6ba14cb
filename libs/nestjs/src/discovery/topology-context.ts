import type { Consumed, KStream, Materialized } from '@nest-streams/streams';

/**
 * What a `@Topology()` method gets besides the `StreamsBuilder`: the source streams the
 * aggregation decorators share, and the stores `@StateStore` declares.
 *
 * Errors: `ConflictingSourceSerdesError` when `stream()` asks for other serdes than a
 * decorator reading the same topic; `UndeclaredStateStoreError` for a store no `@StateStore`
 * declares; `InvalidStreamsDeclarationError` for a store used twice. Fix the call.
 */
export interface TopologyContext {
  /**
   * The stream of `topic`, shared with every decorator that reads it (a topic is read once).
   * Serdes come from `consumed`, else from the decorators, else the application's defaults.
   */
  stream<K, V>(topic: string, consumed?: Consumed<K, V>): KStream<K, V>;
  /** A `Materialized` built from the store's `@StateStore` declaration, for a DSL operation. */
  materialized<K, V>(storeName: string): Materialized<K, V>;
  /**
   * Adds the declared store to the topology, for your processors
   * (`stream.process(supplier, named, storeName)`).
   */
  addStateStore(storeName: string): void;
}
