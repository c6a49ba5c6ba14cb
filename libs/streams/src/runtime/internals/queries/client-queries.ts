import type { AssignmentInfo } from '../../../cluster/internals/assignment-info';
import type { Topology } from '../../../processor/topology';
import { KeyQueryMetadata, type KeyPartitioning } from '../../../query/key-query-metadata';
import { LocalStoreProvider } from '../../../query/internals/local-store-provider';
import {
  executeStateQuery,
  type QueryableCopy,
} from '../../../query/internals/state-query-executor';
import { StreamsMetadataState } from '../../../query/internals/streams-metadata-state';
import type { StateQueryRequest, StateQueryResult } from '../../../query/state-query';
import type { StoreQueryParameters } from '../../../query/store-query-parameters';
import type { StreamsMetadata } from '../../../query/streams-metadata';
import { KafkaStreamsState } from '../../kafka-streams-state';
import type { LocalTaskView } from './local-task-view';

/** What the client's queries read from the client. */
export interface QueryableClient {
  readonly topology: Topology;
  state(): KafkaStreamsState;
  readonly localView: LocalTaskView;
  resolveTopic(logical: string): string;
  /** Partition count of a physical topic, once the topics were prepared. */
  partitionCount(topic: string): number | undefined;
}

/**
 * The client's side of interactive queries, in one place: the cluster as the latest
 * assignment describes it (`queryMetadataForKey`, `streamsMetadataForStore`), the local
 * copies `store()` reads, and IQv2's `query()` over them. `KafkaStreams` delegates here.
 */
export class ClientQueries {
  private readonly metadata: StreamsMetadataState;
  private readonly provider: LocalStoreProvider;

  constructor(private readonly client: QueryableClient) {
    const { topology } = client;
    this.metadata = new StreamsMetadataState(
      topology,
      (sub) => sub.sourceTopics.map((t) => client.resolveTopic(t)),
      (topic) => client.partitionCount(topic),
    );
    this.provider = new LocalStoreProvider({
      state: () => client.state(),
      subtopologyOf: (name) => topology.subtopologyOf(name),
      partitionCount: (name) => this.storePartitionCount(name),
      localStores: (name) => client.localView.stores(name),
    });
  }

  /** Rebuilds the host map from a new assignment. */
  update(info: AssignmentInfo): void {
    this.metadata.update(info);
  }

  /**
   * Takes the group's current host map (read before this client's first assignment) when there
   * is one: queries route by it until this client's own assignment replaces it.
   */
  borrow(info: AssignmentInfo | undefined): void {
    if (info) this.metadata.update(info);
  }

  /** See `KafkaStreams.store`. */
  store<T>(params: StoreQueryParameters<T>): T {
    this.provider.storeSet(params);
    return params.queryableStoreType.create(params.storeName, () => this.provider.storeSet(params));
  }

  /** See `KafkaStreams.queryMetadataForKey`. */
  queryMetadataForKey<K>(
    storeName: string,
    key: K,
    partitioning: KeyPartitioning<K>,
  ): KeyQueryMetadata {
    this.metadata.subtopologyOf(storeName);
    if (!this.queryable()) return KeyQueryMetadata.NOT_AVAILABLE;
    return this.metadata.keyQueryMetadata(storeName, key, partitioning);
  }

  /** See `KafkaStreams.query`. */
  query<K>(request: StateQueryRequest<K>): Promise<StateQueryResult<unknown>> {
    const exists = this.client.topology.subtopologyOf(request.storeName) !== undefined;
    const { localView } = this.client;
    const copies: QueryableCopy[] =
      !exists || !this.queryable()
        ? []
        : localView.stores(request.storeName).map((c) => ({
            ...c,
            position: () => localView.position(c.taskId),
          }));
    return executeStateQuery(request, exists, copies);
  }

  all(): StreamsMetadata[] {
    return this.metadata.all();
  }

  forStore(storeName: string): StreamsMetadata[] {
    return this.metadata.forStore(storeName);
  }

  private queryable(): boolean {
    const state = this.client.state();
    return state === KafkaStreamsState.RUNNING || state === KafkaStreamsState.REBALANCING;
  }

  /** See `KafkaStreams.storePartitionCount`. */
  storePartitionCount(storeName: string): number | undefined {
    const sub = this.client.topology.subtopologyOf(storeName);
    if (!sub) return undefined;
    const counts = sub.sourceTopics.map(
      (t) => this.client.partitionCount(this.client.resolveTopic(t)) ?? 0,
    );
    return Math.max(0, ...counts) || undefined;
  }
}
