import { SetMetadata } from '@nestjs/common';
import type { Serde, SessionWindows, TimeWindows } from '@nest-streams/streams';
import { STREAM_AGGREGATION_METADATA } from '../streams.constants';

/** What every aggregation decorator shares: where records come from and where results go. */
export interface AggregationSourceOptions<K, V> {
  /** The input topic (it must exist: the engine never creates user topics). */
  readonly source: string;
  /** A store declared with `@StateStore` that holds the results. */
  readonly store: string;
  /** Aggregate per time window or session instead of per key. */
  readonly windows?: TimeWindows | SessionWindows;
  /** Serde of the source topic's keys; default the app's default key serde. */
  readonly keySerde?: Serde<K>;
  /** Serde of the source topic's values; default the app's default value serde. */
  readonly valueSerde?: Serde<V>;
}

/** The kind of an aggregation decorator. */
export type AggregationKind = 'aggregate' | 'count' | 'reduce';

/** One aggregation decorator as the accessor reads it (method name added by the accessor). */
export interface AggregationMetadata {
  readonly kind: AggregationKind;
  readonly options: AggregationSourceOptions<unknown, unknown> & {
    readonly initializer?: () => unknown;
    readonly merger?: (key: unknown, aggregate1: unknown, aggregate2: unknown) => unknown;
  };
}

/**
 * What `@Aggregate`, `@Count` and `@Reduce` return: a method decorator that accepts only methods
 * of type `M` (a method of another shape fails to compile).
 */
export type AggregationDecorator<M> = <T extends M>(
  target: object,
  propertyKey: string | symbol,
  descriptor: TypedPropertyDescriptor<T>,
) => void;

/** The decorator of one aggregation: records `kind` and `options` for the explorer. */
export function aggregationDecorator<M, K, V>(
  kind: AggregationKind,
  options: AggregationSourceOptions<K, V>,
): AggregationDecorator<M> {
  const metadata: AggregationMetadata = {
    kind,
    options: options as unknown as AggregationMetadata['options'],
  };
  return SetMetadata(STREAM_AGGREGATION_METADATA, metadata);
}
