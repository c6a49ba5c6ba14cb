import type { RocksDBStoreMetrics } from './rocksdb-store-metrics';

/** The operations a metered store counts. */
export type StoreOperation =
  | 'put'
  | 'putIfAbsent'
  | 'putAll'
  | 'get'
  | 'delete'
  | 'range'
  | 'prefixScan'
  | 'all'
  | 'flush'
  | 'prefetch';

/** One operation's figures. */
export interface OperationMetricsSnapshot {
  /** Calls since the store was created. */
  readonly count: number;
  /** Calls per second over the last 30 to 60 seconds (since creation at first). */
  readonly ratePerSec: number;
  /** Timed calls (latency sampling on), else 0. */
  readonly sampled: number;
  /** Mean latency of the timed calls, in ms; undefined when none were timed. */
  readonly latencyAvgMs?: number;
  /** Largest latency of the timed calls, in ms. */
  readonly latencyMaxMs?: number;
}

/** The record cache's figures for one store. */
export interface StoreCacheMetricsSnapshot {
  readonly hits: number;
  readonly misses: number;
  /** `hits / (hits + misses)`, 0 before any read. */
  readonly hitRatio: number;
  readonly entries: number;
  readonly sizeBytes: number;
}

/**
 * A plain, JSON-ready picture of one store's metrics (one store of one task), as
 * `KafkaStreams.storeMetrics()` reports it.
 */
export interface StoreMetricsSnapshot {
  readonly store: string;
  readonly taskId: string | undefined;
  /** The engine kind: `rocksdb`, `in-memory`, ... */
  readonly scope: string;
  readonly operations: { readonly [K in StoreOperation]: OperationMetricsSnapshot };
  /** Present when the store has a caching layer. */
  readonly cache?: StoreCacheMetricsSnapshot;
}

/** One local store's metrics, as `KafkaStreams.storeMetrics()` reports them. */
export interface LocalStoreMetrics extends StoreMetricsSnapshot {
  /**
   * The RocksDB engine's memory and size figures, for a store on RocksDB that is open (a
   * window or session store's summed over its segments); absent for in-memory stores.
   */
  readonly rocksdb?: RocksDBStoreMetrics;
}
