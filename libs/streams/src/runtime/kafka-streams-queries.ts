import type { KeyPartitioning, KeyQueryMetadata } from '../query/key-query-metadata';
import type { StateQueryRequest, StateQueryResult } from '../query/state-query';
import type { StoreQueryParameters } from '../query/store-query-parameters';
import type { LagInfo, StreamsMetadata } from '../query/streams-metadata';
import type { ClientQueries } from './internals/queries/client-queries';
import type { ClusterAdmin } from '../client/cluster-admin';
import { activeTaskMetadata, localStoreMetrics } from './internals/queries/local-task-metadata';
import type { LocalTaskView } from './internals/queries/local-task-view';
import type { LocalStoreMetrics } from '../state/store-metrics-snapshot';
import type { TaskMetadata } from './task-metadata';
import type { ResolvedStreamsConfig } from './streams-config';

/**
 * The interactive-query half of `KafkaStreams` (Kafka Streams' `store()`,
 * `queryMetadataForKey()`, `query()`, metadata and lags): what a client answers about where
 * keys live and what this instance holds.
 */
export abstract class KafkaStreamsQueries {
  abstract readonly config: ResolvedStreamsConfig;
  protected abstract readonly queries: ClientQueries;
  protected abstract readonly localView: LocalTaskView;
  protected abstract admin: ClusterAdmin | undefined;
  protected abstract processId: string;

  /**
   * A read-only view of a store over this instance's local copies (Kafka Streams' `store()`).
   * The view looks its stores up on every call, so it can be kept.
   *
   * @throws StreamsNotStartedError, StateStoreNotAvailableError (rebalancing/restoring: retry),
   *   StateStoreMigratedError (rediscover the owner), UnknownStateStoreError,
   *   InvalidStateStorePartitionError — all `InvalidStateStoreError`s with `code` and `retriable`.
   */
  store<T>(params: StoreQueryParameters<T>): T {
    return this.queries.store(params);
  }

  /**
   * Which instance holds `key` of `storeName` (active and standbys) and in which partition,
   * from the latest assignment — also while REBALANCING, as Kafka Streams answers (a read
   * routed there while the task moves gets a retriable error, never a wrong answer).
   * `KeyQueryMetadata.NOT_AVAILABLE` when no instance runs the key's task, once the client
   * stopped, and before the first assignment — unless the application's classic group was
   * stable when this client started: then its host map answers until this client's own
   * assignment (a restarted instance routes at once instead of waiting for its old member's
   * session to expire).
   *
   * @throws UnknownStateStoreError for a store the topology does not have.
   */
  queryMetadataForKey<K>(
    storeName: string,
    key: K,
    partitioning: KeyPartitioning<K>,
  ): KeyQueryMetadata {
    return this.queries.queryMetadataForKey(storeName, key, partitioning);
  }

  /**
   * Which queryable copy of partition `partition` of `storeName` this instance holds now:
   * `'active'` (an active task, restored), `'standby'` (a standby copy whose lag is known), or
   * `undefined`. What a router checks before answering as the key's named owner: while a task
   * restores, or moves here and is still held back (cooperative rebalancing), the metadata
   * names this instance but no active copy answers yet — a standby copy may.
   */
  localCopyOf(storeName: string, partition: number): 'active' | 'standby' | undefined {
    const copies = this.localView.stores(storeName).filter((c) => c.partition === partition);
    if (copies.some((c) => c.active)) return 'active';
    return copies.length > 0 ? 'standby' : undefined;
  }

  /**
   * How many partitions `storeName` has: its sub-topology's task count (the largest partition
   * count of its source topics), known once `start()` prepared the topics; `undefined` before,
   * and for a store the topology does not have. What a scatter-gather query checks its answers
   * against: a partition the metadata names no instance for is missing, not empty (while the
   * group rebalances, or under the streams protocol before every member reported its
   * endpoint, the host map may not list every task).
   */
  storePartitionCount(storeName: string): number | undefined {
    return this.queries.storePartitionCount(storeName);
  }

  /**
   * Interactive query API v2: answers `request` from this instance's copies, per partition,
   * with failures as data (NOT_ACTIVE, NOT_UP_TO_BOUND, NOT_PRESENT, DOES_NOT_EXIST,
   * STORE_EXCEPTION, UNKNOWN_QUERY_TYPE) and each copy's position for read-your-writes.
   * Never throws for a store or partition problem; the caller (or the remote transport)
   * routes NOT_PRESENT partitions to their owners.
   */
  query<K>(request: StateQueryRequest<K>): Promise<StateQueryResult<unknown>> {
    return this.queries.query(request);
  }

  /** Every instance of the application, from the latest assignment. */
  metadataForAllStreamsClients(): StreamsMetadata[] {
    return this.queries.all();
  }

  /** The instances holding `storeName` (active or standby). */
  streamsMetadataForStore(storeName: string): StreamsMetadata[] {
    return this.queries.forStore(storeName);
  }

  /** This instance's metadata, when it advertises `application.server`. */
  localMetadata(): StreamsMetadata | undefined {
    return this.queries.all().find((m) => m.processId === this.processId);
  }

  /**
   * Consumer lag of this instance's active tasks, per input partition: records fetched from
   * the broker but not processed yet are not counted as processed (position = next offset to
   * process). Asks the broker for end offsets; empty before `start()`.
   */
  async inputLags(): Promise<
    { topic: string; partition: number; position: number; endOffset: number; lag: number }[]
  > {
    return this.admin ? this.localView.inputLags(this.admin) : [];
  }

  /**
   * How far each local store copy is behind its changelog, per store and partition (Kafka
   * Streams' `allLocalStorePartitionLags`): active copies report 0 once restored; standby
   * copies report their distance to the changelog end.
   */
  async allLocalStorePartitionLags(): Promise<Map<string, Map<number, LagInfo>>> {
    return this.localView.lags(this.config.applicationId);
  }

  /**
   * Local task ids: active and standby, and which of the standbys are warm-up replicas (placed
   * on the task's intended owner until it catches up: a probing rebalance then moves the task).
   */
  localTaskIds(): { active: string[]; standby: string[]; warmup: string[] } {
    return this.localView.taskIds();
  }

  /**
   * The active tasks this client runs now: id, input partitions, stores, and whether they are
   * restored (Kafka Streams' `metadataForLocalThreads().activeTasks()`). Empty before the first
   * assignment and after `close()`.
   */
  activeTaskMetadata(): TaskMetadata[] {
    return activeTaskMetadata(this.localView.activeTasks());
  }

  /**
   * Metrics of every state store of the active tasks, one entry per store and task: operation
   * counts, rates and sampled latencies, the record cache's hit ratio, and RocksDB's memory
   * and size figures where the engine has them. Cheap enough for every metrics scrape.
   */
  storeMetrics(): LocalStoreMetrics[] {
    return localStoreMetrics(this.localView.activeTasks());
  }
}
