import {
  aggregationDecorator,
  type AggregationDecorator,
  type AggregationSourceOptions,
} from './aggregation.types';

/** Options of `@Count`. */
export type CountOptions<K, V> = AggregationSourceOptions<K, V>;

/**
 * Counts the records of a topic per key (per window or session with `windows`) into `store`:
 * `stream(source).filter(method).groupByKey().count(...)`. The decorated method
 * `(key, value) => boolean | void` decides which records count: returning `false` skips the
 * record, anything else (including nothing) counts it. Values in the store are numbers (the
 * store's value serde defaults to `Serdes.Long()`).
 *
 * @example
 * @Count({ source: 'labs.events', store: 'windowed-count-store', windows: TimeWindows.ofSizeWithNoGrace(300_000) })
 * countEvent(): void {}
 *
 * Errors at start-up: as `@Aggregate` (`UndeclaredStateStoreError`,
 * `ConflictingSourceSerdesError`, `MissingSourceTopicError`).
 */
export function Count<K, V>(
  options: CountOptions<K, V>,
): AggregationDecorator<(key: K, value: V) => boolean | void> {
  return aggregationDecorator('count', options);
}
