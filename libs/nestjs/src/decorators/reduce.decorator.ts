import {
  aggregationDecorator,
  type AggregationDecorator,
  type AggregationSourceOptions,
} from './aggregation.types';

/** Options of `@Reduce`. */
export type ReduceOptions<K, V> = AggregationSourceOptions<K, V>;

/**
 * Combines the values of a topic per key (per window or session with `windows`) into `store`:
 * the decorated method `(aggregate, value) => aggregate` is the reducer of
 * `stream(source).groupByKey().reduce(...)`; a key's first value is its first aggregate.
 *
 * @example
 * @Reduce({ source: 'prices', store: 'max-price-store', valueSerde: Serdes.Double() })
 * max(current: number, price: number): number { return Math.max(current, price); }
 *
 * Errors at start-up: as `@Aggregate`.
 */
export function Reduce<K, V>(
  options: ReduceOptions<K, V>,
): AggregationDecorator<(aggregate: V, value: V) => V> {
  return aggregationDecorator('reduce', options);
}
