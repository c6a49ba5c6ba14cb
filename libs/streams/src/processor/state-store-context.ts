import type { RecordCollector } from './internals/record-collector';
import type { TopicPartition } from './topic-partition';
import type { TaskId } from './task-id';

/**
 * One changelog record to restore: the key, the value (`null`: a tombstone) and the record's
 * timestamp (epoch ms; kafkajs hands it over as a decimal string, which is accepted as is).
 */
export interface ChangelogRecord {
  readonly key: Buffer;
  readonly value: Buffer | null;
  readonly timestamp: number | string;
}

/**
 * What a store tells its task's state manager when it opens: how to restore it and where its
 * changelog is. The state manager restores through `restoreBatch`, straight into the engine
 * (no caching, no logging), and wipes through `wipe` when the local state cannot be trusted.
 */
export interface StoreRegistration {
  /** The store itself (the state manager flushes it before a checkpoint). */
  readonly store: { flush(): Promise<void> };
  readonly name: string;
  /** Whether the engine keeps its data across restarts (only those are checkpointed). */
  readonly persistent: boolean;
  /** The changelog partition, or undefined when logging is disabled (nothing to restore). */
  readonly changelog: TopicPartition | undefined;
  /**
   * Applies one polled batch of changelog records as one write batch to the engine; a promise
   * when the engine writes off the main thread (the caller awaits it before the next batch).
   */
  restoreBatch(records: readonly ChangelogRecord[]): void | Promise<void>;
  /** Deletes the engine's data and reopens it empty (before a full restore). */
  wipe(): Promise<void>;
}

/**
 * What a task gives its stores when it opens them (Kafka Streams' `StateStoreContext`).
 * The runtime implements it; tests can build one by hand.
 */
export interface StateStoreContext {
  readonly applicationId: string;
  readonly taskId: TaskId;
  /** The task directory, `<stateDir>/<applicationId>/<taskId>`; persistent engines live under it. */
  readonly taskDir: string;
  /** The application's configuration (handed to RocksDB config setters). */
  readonly appConfigs?: Readonly<Record<string, unknown>>;
  /** Where changelog records go; required by stores with logging enabled. */
  readonly recordCollector?: RecordCollector;
  /**
   * The process-wide record cache (the state layer's `RecordCache`, which the processor API
   * only carries); caching layers fall back to `RecordCache.processWide()` without one.
   */
  readonly cache?: object;
  /**
   * Latency sampling of the metered layer: 0 (default) counts operations only; `n` times one
   * operation in every `n` with `process.hrtime.bigint()`.
   */
  readonly metricsLatencySampling?: number;
  /** The timestamp of the record being processed, stamped on changelog records. */
  currentTimestamp(): number;
  /** Registers an opened store with the task's state manager (for restore and checkpoints). */
  register(registration: StoreRegistration): void;
}
