import type { ClusterAdmin } from '../../../client/cluster-admin';
import { HostInfo } from '../../../cluster/host-info';
import type { AssignmentInfo } from '../../../cluster/internals/assignment-info';
import type { Topology } from '../../../processor/topology';
import { KeyQueryMetadata, type KeyPartitioning } from '../../../query/key-query-metadata';
import { executeGlobalStateQuery } from '../../../query/internals/global-state-query';
import { LocalStoreProvider } from '../../../query/internals/local-store-provider';
import {
  executeStateQuery,
  type QueryableCopy,
} from '../../../query/internals/state-query-executor';
import { StreamsMetadataState } from '../../../query/internals/streams-metadata-state';
import type { StateQueryRequest, StateQueryResult } from '../../../query/state-query';
import type { StoreQueryParameters } from '../../../query/store-query-parameters';
import type { LagInfo, StreamsMetadata } from '../../../query/streams-metadata';
import type { LocalStoreMetrics } from '../../../state/store-metrics-snapshot';
import { KafkaStreamsState } from '../../kafka-streams-state';
import type { MetricsRecordingLevel } from '../../streams-config';
import type { StreamsMetric } from '../../streams-metric';
import { MetricsReport } from '../metrics/metrics-report';
import type { ThreadMetrics } from '../metrics/thread-metrics';
import { WindowRates } from '../metrics/window-rates';
import { clientMetricsReport } from './client-metrics-report';
import type { TaskMetadata } from '../../task-metadata';
import type { ActiveTaskManager } from '../active-tasks/active-task-manager';
import type { GlobalStoreCopy } from '../global/global-stores';
import type { StandbyTaskManager } from '../standby/standby-task-manager';
import { activeTaskMetadata, localStoreMetrics } from './local-task-metadata';
import { LocalTaskView } from './local-task-view';

/** What the client's queries read from the client. */
export interface QueryableClient {
  readonly topology: Topology;
  readonly applicationId: string;
  state(): KafkaStreamsState;
  resolveTopic(logical: string): string;
  /** Partition count of a physical topic, once the topics were prepared. */
  partitionCount(topic: string): number | undefined;
  /** This client's process id (known once `start()` locked the state directory). */
  processId(): string;
  /** The client's admin, once `start()` connected it. */
  admin(): ClusterAdmin | undefined;
  /** The current stream thread's active tasks, once it runs. */
  activeTasks(): ActiveTaskManager | undefined;
  /** The current stream thread's standby tasks, once it runs. */
  standbyTasks(): StandbyTaskManager | undefined;
  /** A global store: `undefined` when `name` is none, `store` `undefined` while it restores. */
  globalStore(name: string): GlobalStoreCopy | undefined;
  /** This instance's `application.server` (`host:port`), when it advertises one. */
  readonly applicationServer?: string;
  /** `client.id` and `metrics.recording.level`. */
  readonly clientId: string;
  readonly metricsRecordingLevel: MetricsRecordingLevel;
  /** The current stream thread's sensors, and how many threads run now and failed so far. */
  threadMetrics(): ThreadMetrics | undefined;
  threadCounts(): { alive: number; failed: number };
}

/**
 * The client's query surface, in one place (Kafka Streams' `store()`, `queryMetadataForKey()`,
 * `query()`, metadata and lags): the cluster as the latest assignment describes it, the local
 * copies `store()` reads, IQv2's `query()` over them, and what this instance holds. Each method
 * is the `KafkaStreams` method of its name, which delegates here (the documentation is there).
 */
export class ClientQueries {
  private readonly metadata: StreamsMetadataState;
  private readonly provider: LocalStoreProvider;
  private readonly localView: LocalTaskView;
  private readonly rates = new WindowRates();

  constructor(private readonly client: QueryableClient) {
    const { topology } = client;
    this.localView = new LocalTaskView(
      () => client.activeTasks(),
      () => client.standbyTasks(),
    );
    const thisHost = client.applicationServer
      ? HostInfo.parse(client.applicationServer)
      : undefined;
    this.metadata = new StreamsMetadataState(
      topology,
      (sub) => sub.sourceTopics.map((t) => client.resolveTopic(t)),
      (topic) => client.partitionCount(topic),
      () => thisHost,
    );
    this.provider = new LocalStoreProvider({
      state: () => client.state(),
      subtopologyOf: (name) => topology.subtopologyOf(name),
      partitionCount: (name) => this.storePartitionCount(name),
      localStores: (name) => this.localView.stores(name),
      globalStore: (name) => client.globalStore(name),
    });
  }

  /** Rebuilds the host map from a new assignment. */
  update(info: AssignmentInfo): void {
    this.metadata.update(info);
  }

  /** Notes the warm-up replicas of a new assignment (see `localTaskIds`). */
  assignedWarmups(warmup: readonly string[]): void {
    this.localView.assigned(warmup);
  }

  /**
   * Takes the group's current host map (read before this client's first assignment) when there
   * is one: queries route by it until this client's own assignment replaces it.
   */
  borrow(info: AssignmentInfo | undefined): void {
    if (info) this.metadata.update(info);
  }

  store<T>(params: StoreQueryParameters<T>): T {
    this.provider.storeSet(params);
    return params.queryableStoreType.create(params.storeName, () => this.provider.storeSet(params));
  }

  queryMetadataForKey<K>(
    storeName: string,
    key: K,
    partitioning: KeyPartitioning<K>,
  ): KeyQueryMetadata {
    if (!this.metadata.isGlobal(storeName)) this.metadata.subtopologyOf(storeName);
    if (!this.queryable()) return KeyQueryMetadata.NOT_AVAILABLE;
    return this.metadata.keyQueryMetadata(storeName, key, partitioning);
  }

  localCopyOf(storeName: string, partition: number): 'active' | 'standby' | undefined {
    // A global store is whole here once restored: any partition asked is in it.
    const global = this.client.globalStore(storeName);
    if (global) return this.queryable() && global.store !== undefined ? 'active' : undefined;
    return this.localView.copyOf(storeName, partition);
  }

  storePartitionCount(storeName: string): number | undefined {
    const sub = this.client.topology.subtopologyOf(storeName);
    if (!sub) return undefined;
    const counts = sub.sourceTopics.map(
      (t) => this.client.partitionCount(this.client.resolveTopic(t)) ?? 0,
    );
    return Math.max(0, ...counts) || undefined;
  }

  query<K>(request: StateQueryRequest<K>): Promise<StateQueryResult<unknown>> {
    const global = this.client.globalStore(request.storeName);
    if (global) {
      const readable = this.queryable() ? global : { ...global, store: undefined };
      const why = this.queryable() ? 'restoring' : `the client is ${this.client.state()}`;
      return executeGlobalStateQuery(request, readable, why);
    }
    const exists = this.client.topology.subtopologyOf(request.storeName) !== undefined;
    const { localView } = this;
    const copies: QueryableCopy[] =
      !exists || !this.queryable()
        ? []
        : localView.stores(request.storeName).map((c) => ({
            ...c,
            position: () => localView.position(c.taskId),
          }));
    return executeStateQuery(request, exists, copies);
  }

  metadataForAllStreamsClients(): StreamsMetadata[] {
    return this.metadata.all();
  }

  streamsMetadataForStore(storeName: string): StreamsMetadata[] {
    return this.metadata.forStore(storeName);
  }

  localMetadata(): StreamsMetadata | undefined {
    return this.metadata.all().find((m) => m.processId === this.client.processId());
  }

  async inputLags(): Promise<
    { topic: string; partition: number; position: number; endOffset: number; lag: number }[]
  > {
    const admin = this.client.admin();
    return admin ? this.localView.inputLags(admin) : [];
  }

  async allLocalStorePartitionLags(): Promise<Map<string, Map<number, LagInfo>>> {
    return this.localView.lags(this.client.applicationId);
  }

  localTaskIds(): { active: string[]; standby: string[]; warmup: string[] } {
    return this.localView.taskIds();
  }

  activeTaskMetadata(): TaskMetadata[] {
    return activeTaskMetadata(this.localView.activeTasks());
  }

  storeMetrics(): LocalStoreMetrics[] {
    return localStoreMetrics(this.localView.activeTasks());
  }

  allMetrics(now = Date.now()): StreamsMetric[] {
    const { client } = this;
    const counts = client.threadCounts();
    return clientMetricsReport(new MetricsReport(client.metricsRecordingLevel, now, this.rates), {
      clientId: client.clientId,
      aliveThreads: counts.alive,
      failedThreads: counts.failed,
      thread: client.threadMetrics(),
      activeTasks: this.localView.activeTasks(),
      standbyTasks: client.standbyTasks()?.all() ?? [],
      stores: this.storeMetrics(),
    });
  }

  private queryable(): boolean {
    const state = this.client.state();
    return state === KafkaStreamsState.RUNNING || state === KafkaStreamsState.REBALANCING;
  }
}
