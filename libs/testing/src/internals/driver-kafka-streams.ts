import {
  executeGlobalStateQuery,
  executeStateQuery,
  LocalStoreProvider,
  type LocalStore,
  type QueryableCopy,
} from '@nest-streams/streams/internals';
import {
  type ClientMetrics,
  HostInfo,
  KafkaStreams,
  type KafkaStreamsOptions,
  KafkaStreamsState,
  KeyQueryMetadata,
  type LagInfo,
  type LocalStoreMetrics,
  type StateListener,
  type StateQueryRequest,
  type StateQueryResult,
  type StoreQueryParameters,
  StreamsConfigError,
  type StreamsConfig,
  type StreamsMetadata,
  type TaskMetadata,
  TaskId,
  type Topology,
  UnknownStateStoreError,
} from '@nest-streams/streams';
import { TopologyTestDriver, type TopologyTestDriverOptions } from '../topology-test-driver';
import { driverTasks } from './driver-tasks';

/**
 * A `KafkaStreams` whose topology runs in a {@link TopologyTestDriver} instead of against a
 * broker: `start()` builds the driver (one task per sub-topology, every topic one partition)
 * and goes REBALANCING → RUNNING; `store()`, `query()`, `queryMetadataForKey()` and the
 * metadata answer from the driver's tasks as a single instance that owns every partition, so
 * whatever reads the client (the Nest module's store facades, `InteractiveQueryService`,
 * `@RouteByKey` routing, health, metrics) answers from the records the test pipes in.
 */
export class DriverKafkaStreams extends KafkaStreams {
  private driverValue: TopologyTestDriver | undefined;
  private current = KafkaStreamsState.CREATED;
  private readonly listeners = new Set<StateListener>();
  private readonly provider = new LocalStoreProvider({
    state: () => this.current,
    subtopologyOf: (name) => this.topology.subtopologies().find((s) => s.stores.includes(name)),
    partitionCount: (name) => (this.driverSubtopology(name) ? 1 : undefined),
    localStores: (name) => this.driverCopies(name),
    globalStore: (name) => this.driverGlobal(name),
  });

  constructor(
    topology: Topology,
    config: StreamsConfig,
    private readonly engineOptions: KafkaStreamsOptions,
    private readonly driverOptions: Omit<TopologyTestDriverOptions, 'config'> = {},
  ) {
    super(topology, config, engineOptions);
  }

  /**
   * The driver the topology runs in.
   *
   * @throws StreamsConfigError before `start()`: start the client (the Nest module does it on
   *   application bootstrap) first.
   */
  get driver(): TopologyTestDriver {
    if (!this.driverValue) {
      throw new StreamsConfigError(
        'the test driver exists once the client started (the Nest module starts it in app.init())',
      );
    }
    return this.driverValue;
  }

  override get state(): KafkaStreamsState {
    return this.current;
  }

  override onStateChange(listener: StateListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  override async start(): Promise<void> {
    if (this.current !== KafkaStreamsState.CREATED) {
      throw new StreamsConfigError(
        `start() can only be called once, in state CREATED (now ${this.current})`,
      );
    }
    this.moveTo(KafkaStreamsState.REBALANCING);
    this.driverValue = await TopologyTestDriver.create(this.topology, {
      logger: this.engineOptions.logger,
      ...this.driverOptions,
      config: this.config,
    });
    this.moveTo(KafkaStreamsState.RUNNING);
  }

  override async close(): Promise<void> {
    if (this.current === KafkaStreamsState.NOT_RUNNING) return;
    this.moveTo(KafkaStreamsState.PENDING_SHUTDOWN);
    await this.driverValue?.close();
    this.moveTo(KafkaStreamsState.NOT_RUNNING);
  }

  override store<T>(params: StoreQueryParameters<T>): T {
    this.provider.storeSet(params);
    return params.queryableStoreType.create(params.storeName, () => this.provider.storeSet(params));
  }

  override async query<K>(request: StateQueryRequest<K>): Promise<StateQueryResult<unknown>> {
    const global = this.driverGlobal(request.storeName);
    if (global) {
      const readable = this.running() ? global : { ...global, store: undefined };
      return executeGlobalStateQuery(request, readable, `the client is ${this.current}`);
    }
    const exists = this.driverSubtopology(request.storeName) !== undefined;
    const copies: QueryableCopy[] = this.running()
      ? this.driverCopies(request.storeName).map((copy) => ({
          ...copy,
          position: () => this.position(copy.taskId),
        }))
      : [];
    return executeStateQuery(request, exists, copies);
  }

  /**
   * This instance owns every key (partition 0), once running; a global store's key too, with
   * no partition (-1), as for any instance holding a global store whole.
   */
  override queryMetadataForKey(storeName: string): KeyQueryMetadata {
    if (this.topology.globalStores().has(storeName)) {
      if (!this.running()) return KeyQueryMetadata.NOT_AVAILABLE;
      return new KeyQueryMetadata(this.hostInfo(), [], KeyQueryMetadata.UNKNOWN_PARTITION);
    }
    if (!this.driverSubtopology(storeName)) {
      throw new UnknownStateStoreError(`the topology has no state store named '${storeName}'`);
    }
    if (!this.running()) return KeyQueryMetadata.NOT_AVAILABLE;
    return new KeyQueryMetadata(this.hostInfo(), [], 0);
  }

  /** The driver's stores are this instance's active copies, once running (partition 0). */
  override localCopyOf(storeName: string, partition: number): 'active' | 'standby' | undefined {
    if (this.driverGlobal(storeName)) {
      return this.running() && this.driverValue ? 'active' : undefined;
    }
    const held = this.running() && partition === 0 && this.driverCopies(storeName).length > 0;
    return held ? 'active' : undefined;
  }

  override metadataForAllStreamsClients(): StreamsMetadata[] {
    const self = this.localMetadata();
    return self ? [self] : [];
  }

  override streamsMetadataForStore(storeName: string): StreamsMetadata[] {
    return this.metadataForAllStreamsClients().filter((m) => m.stateStoreNames.includes(storeName));
  }

  /** Without `application.server`, no metadata, as in Kafka Streams. */
  override localMetadata(): StreamsMetadata | undefined {
    if (!this.config.applicationServer || !this.running()) return undefined;
    const subs = this.topology.subtopologies();
    return {
      hostInfo: this.hostInfo(),
      processId: 'topology-test-driver',
      queryEndpoint: this.config.queryEndpoint,
      stateStoreNames: [
        ...new Set([...subs.flatMap((s) => s.stores), ...this.topology.globalStores().keys()]),
      ].sort(),
      topicPartitions: subs.flatMap((s) =>
        s.sourceTopics.map((topic) => ({ topic, partition: 0 })),
      ),
      standbyStateStoreNames: [],
      standbyTopicPartitions: [],
      activeTasks: subs.map((s) => new TaskId(s.id, 0).toString()),
      standbyTasks: [],
    };
  }

  override localTaskIds(): { active: string[]; standby: string[]; warmup: string[] } {
    return {
      active: this.activeTaskMetadata().map((t) => t.taskId.toString()),
      standby: [],
      warmup: [],
    };
  }

  override activeTaskMetadata(): TaskMetadata[] {
    if (!this.running()) return [];
    return this.topology.subtopologies().map((s) => ({
      taskId: new TaskId(s.id, 0),
      topicPartitions: s.sourceTopics.map((topic) => ({ topic, partition: 0 })),
      stores: [...s.stores],
      restored: true,
    }));
  }

  /** Every store's one copy is the active one: lag 0. */
  override async allLocalStorePartitionLags(): Promise<Map<string, Map<number, LagInfo>>> {
    const lags = new Map<string, Map<number, LagInfo>>();
    for (const task of this.activeTaskMetadata()) {
      for (const store of task.stores) {
        lags.set(
          store,
          new Map([[0, { currentOffsetPosition: 0, endOffsetPosition: 0, offsetLag: 0 }]]),
        );
      }
    }
    return lags;
  }

  override async inputLags(): Promise<
    { topic: string; partition: number; position: number; endOffset: number; lag: number }[]
  > {
    return [];
  }

  /** The driver processes every piped record at once: never stalled. */
  override lastProgressAt(): number | undefined {
    return this.driverValue ? Date.now() : undefined;
  }

  override metrics(): ClientMetrics {
    const sum = this.driverValue?.metrics();
    return {
      processed: sum?.processed ?? 0,
      produced: sum?.produced ?? 0,
      skippedDeserialization: sum?.skippedDeserialization ?? 0,
      skippedInvalidTimestamp: sum?.skippedInvalidTimestamp ?? 0,
      skippedProduction: 0,
      skippedProcessing: sum?.skippedProcessing ?? 0,
      deadLettered: sum?.deadLettered ?? 0,
      droppedRecords: sum?.droppedRecords ?? 0,
      commits: 0,
      commitTimeMs: 0,
    };
  }

  override storeMetrics(): LocalStoreMetrics[] {
    return [];
  }

  private running(): boolean {
    return (
      this.current === KafkaStreamsState.RUNNING || this.current === KafkaStreamsState.REBALANCING
    );
  }

  private hostInfo(): HostInfo {
    return this.config.applicationServer
      ? HostInfo.parse(this.config.applicationServer)
      : HostInfo.UNAVAILABLE;
  }

  private driverSubtopology(storeName: string) {
    return this.topology.subtopologies().find((s) => s.stores.includes(storeName));
  }

  /** A global store of the driver (`store` once the driver runs); `undefined` for others. */
  private driverGlobal(storeName: string) {
    if (!this.topology.globalStores().has(storeName)) return undefined;
    const store = this.driverValue?.getStateStore(storeName);
    return { store, position: () => ({}) };
  }

  private driverCopies(storeName: string): LocalStore[] {
    if (!this.driverValue) return [];
    const result: LocalStore[] = [];
    for (const task of driverTasks(this.driverValue)) {
      const store = task.store(storeName);
      if (store) {
        result.push({ taskId: task.id.toString(), partition: 0, active: true, lag: 0, store });
      }
    }
    return result;
  }

  private position(taskId: string): Record<string, Record<string, number>> {
    const task = driverTasks(this.driverValue ?? {}).find((t) => t.id.toString() === taskId);
    const position: Record<string, Record<string, number>> = {};
    for (const { topic, partition, offset } of task?.inputPositions() ?? []) {
      (position[topic] ??= {})[String(partition)] = offset - 1;
    }
    return position;
  }

  private moveTo(next: KafkaStreamsState): void {
    const previous = this.current;
    if (previous === next) return;
    this.current = next;
    for (const listener of this.listeners) listener(next, previous);
  }
}
