import {
  aggregationDecorator,
  type AggregationDecorator,
  type AggregationSourceOptions,
} from './aggregation.types';

/** Options of `@Aggregate`. */
export interface AggregateOptions<K, V, VA> extends AggregationSourceOptions<K, V> {
  /** The starting aggregate of a key (of a window, of a session). */
  readonly initializer: () => VA;
  /** Session windows only: combines the aggregates of two sessions that merge. */
  readonly merger?: (key: K, aggregate1: VA, aggregate2: VA) => VA;
}

/**
 * Folds a topic into a store: the decorated provider method `(key, value, aggregate) =>
 * aggregate` becomes the aggregator of `stream(source).groupByKey().aggregate(initializer, ...)`
 * materialized in `store` (or of `.windowedBy(windows).aggregate(...)` when `windows` is
 * given). The method runs on the processing path, synchronously, once per record: keep it
 * pure and fast; `this` is the provider instance.
 *
 * @example
 * @Aggregate({ source: 'labs.events', store: 'stats-store', initializer: () => ({ count: 0, sum: 0 }),
 *   keySerde: Serdes.String(), valueSerde: Serdes.Json<Event>() })
 * add(userId: string, event: Event, stats: Stats): Stats {
 *   return { count: stats.count + 1, sum: stats.sum + event.amount };
 * }
 *
 * Errors at start-up: `UndeclaredStateStoreError` when `store` has no `@StateStore` (declare
 * it), `ConflictingSourceSerdesError` when two decorators read one topic with different serdes
 * (use the same), the engine's `MissingSourceTopicError` from start when `source` does not
 * exist (create it). An exception thrown by the method fails the task: it reaches the
 * uncaught-exception handler (module option `uncaughtExceptionHandler`).
 */
export function Aggregate<K, V, VA>(
  options: AggregateOptions<K, V, VA>,
): AggregationDecorator<(key: K, value: V, aggregate: VA) => VA> {
  return aggregationDecorator('aggregate', options);
}
