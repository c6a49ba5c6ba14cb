import type { KTableProcessorSupplier } from './ktable-value-getter';
import type { StreamNode } from './stream-node';

/**
 * What a `KTable` wraps: its node, the supplier through which its rows are read and its
 * updates made, and the name of its store when that is queryable. The internal writers
 * (aggregations, joins) make and read tables through it, below the DSL's classes. Internal.
 */
export interface TableNode<K, V> {
  readonly node: StreamNode<K, V>;
  readonly supplier: KTableProcessorSupplier<K, V>;
  /** The store's name when the user named it (`Materialized.as`), else undefined. */
  readonly queryableStoreName: string | undefined;
  /**
   * For a windowed table (a windowed aggregation, and the tables derived from it): how long
   * after a window's end it closes (the grace; for sessions, gap plus grace). What
   * `Suppressed.untilWindowCloses` waits for.
   */
  readonly windowGraceMs?: number;
}
