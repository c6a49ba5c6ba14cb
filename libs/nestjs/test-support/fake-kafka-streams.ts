import {
  DefaultStreamPartitioner,
  HostInfo,
  type KafkaStreams,
  KafkaStreamsState,
  KeyQueryMetadata,
  type LagInfo,
  SessionWindow,
  type StateQueryRequest,
  type StateQueryResult,
  StateStoreMigratedError,
  type StoreQueryParameters,
  type StreamsMetadata,
  Windowed,
} from '@nest-streams/streams';

/** One instance of a fake cluster. */
export function instance(
  endpoint: string,
  options: {
    active?: string[];
    standby?: string[];
    queryEndpoint?: string;
    stores?: string[];
  } = {},
): StreamsMetadata {
  const stores = options.stores ?? ['stats-store'];
  const active = options.active ?? [];
  const standby = options.standby ?? [];
  return {
    hostInfo: HostInfo.parse(endpoint),
    processId: `process-${endpoint}`,
    queryEndpoint: options.queryEndpoint,
    stateStoreNames: active.length > 0 ? stores : [],
    topicPartitions: [],
    standbyStateStoreNames: standby.length > 0 ? stores : [],
    standbyTopicPartitions: [],
    activeTasks: active,
    standbyTasks: standby,
  };
}

/**
 * The query endpoint the specs give the fake cluster's instance at `endpoint` (an HTTP port
 * 8xxx): the same host, on port 9xxx.
 */
export const queryEndpointOf = (endpoint: string): string => endpoint.replace(':8', ':9');

/** The partition of `key` among the fake's three partitions (the default partitioner's). */
export const partitionOf = (key: string): number =>
  new DefaultStreamPartitioner().partition(Buffer.from(key, 'utf8'), 3);

/** The one sub-topology of the fake's topology. */
const STATS_SUBTOPOLOGY = { id: 0, stores: ['stats-store'], sourceTopics: ['events'] };

/**
 * A stand-in for `KafkaStreams` in unit tests: answers the routing and query calls from what
 * the test sets, and records queries.
 */
export class FakeKafkaStreams {
  state = KafkaStreamsState.RUNNING;
  metadata: KeyQueryMetadata = KeyQueryMetadata.NOT_AVAILABLE;
  instances: StreamsMetadata[] = [];
  lags = new Map<string, Map<number, LagInfo>>();
  queries: StateQueryRequest<unknown>[] = [];
  answer: (request: StateQueryRequest<unknown>) => StateQueryResult<unknown> = () => ({
    partitionResults: [],
    position: {},
  });
  topology = {
    subtopologies: () => [STATS_SUBTOPOLOGY],
    subtopologyOf: (store: string) =>
      STATS_SUBTOPOLOGY.stores.includes(store) ? STATS_SUBTOPOLOGY : undefined,
    /** One global store, `regions-global` (whole on every instance). */
    globalStores: () => new Map([['regions-global', { storeName: 'regions-global' }]]),
  };

  /** Sets where keys live: the owner and its standbys, for every key. */
  owns(active: string, standbys: string[] = [], partition = 0): this {
    this.metadata = new KeyQueryMetadata(
      HostInfo.parse(active),
      standbys.map((s) => HostInfo.parse(s)),
      partition,
    );
    return this;
  }

  queryMetadataForKey(): KeyQueryMetadata {
    return this.metadata;
  }

  /**
   * The copy this instance holds of every partition (`localCopyOf`): active by default (a test
   * that names this instance the owner means it runs the task); set it for a restoring or
   * moving task.
   */
  localCopy: 'active' | 'standby' | undefined = 'active';
  /** `allLocalStorePartitionLags` does not answer until {@link releaseLags} (a hung leader). */
  lagsHang = false;
  private readonly hungLags: (() => void)[] = [];

  /** Answers the lag lookups held by {@link lagsHang}, and holds no more. */
  releaseLags(): void {
    this.lagsHang = false;
    for (const release of this.hungLags.splice(0)) release();
  }

  localCopyOf(): 'active' | 'standby' | undefined {
    return this.localCopy;
  }

  metadataForAllStreamsClients(): StreamsMetadata[] {
    return this.instances;
  }

  /** What `storePartitionCount` answers for every store: not known unless a test sets it. */
  storePartitions: number | undefined = undefined;

  storePartitionCount(): number | undefined {
    return this.storePartitions;
  }

  streamsMetadataForStore(store: string): StreamsMetadata[] {
    return this.instances.filter(
      (m) => m.stateStoreNames.includes(store) || m.standbyStateStoreNames.includes(store),
    );
  }

  async allLocalStorePartitionLags(): Promise<Map<string, Map<number, LagInfo>>> {
    // A hung changelog leader: the end offsets arrive only once released.
    if (this.lagsHang) await new Promise<void>((resolve) => this.hungLags.push(resolve));
    return this.lags;
  }

  async query(request: StateQueryRequest<unknown>): Promise<StateQueryResult<unknown>> {
    this.queries.push(request);
    return this.answer(request);
  }

  /** Sessions per partition of every session store: `key -> [start, end, aggregate][]`. */
  sessions = new Map<number, Record<string, [number, number, unknown][]>>();

  /** Partitions of every store (what a key read hashes the key's bytes with). */
  partitionCount = 3;

  /**
   * This instance's copies of key-value stores for `store()`: the engine's own composite view
   * reads them (the key's partition first, standbys only with stale stores).
   */
  keyValueCopies: {
    partition: number;
    active: boolean;
    lag: number;
    values: Record<string, unknown>;
  }[] = [];

  store(params: StoreQueryParameters<unknown>): unknown {
    if (params.queryableStoreType.kind === 'key-value') return this.keyValueStore(params);
    const partition = params.partition ?? 0;
    const rows = this.sessions.get(partition);
    if (!rows) throw new StateStoreMigratedError(`partition ${partition} is not here`);
    return {
      fetchAsync: async (key: string) =>
        (rows[key] ?? []).map(([start, end, value]) => ({
          key: new Windowed(key, new SessionWindow(start, end)),
          value,
        })),
    };
  }

  private keyValueStore(params: StoreQueryParameters<unknown>): unknown {
    const copies = this.keyValueCopies.filter(
      (c) =>
        (params.staleStoresEnabled || c.active) &&
        (params.partition === undefined || c.partition === params.partition),
    );
    if (copies.length === 0) {
      throw new StateStoreMigratedError(`store '${params.storeName}' has no copy here`);
    }
    return params.queryableStoreType.create(params.storeName, () => ({
      partitionCount: this.partitionCount,
      onServed: params.servedListener,
      stores: copies.map(({ partition, active, lag, values }) => ({
        partition,
        active,
        lag,
        store: {
          name: params.storeName,
          keyBytes: (key: string) => Buffer.from(key, 'utf8'),
          queryGet: (key: string) => values[key],
          getAsync: async (key: string) => values[key],
        },
      })),
    }));
  }

  async close(): Promise<void> {
    this.state = KafkaStreamsState.NOT_RUNNING;
  }

  activeTaskMetadata(): [] {
    return [];
  }

  storeMetrics(): [] {
    return [];
  }

  asKafkaStreams(): KafkaStreams {
    return this as unknown as KafkaStreams;
  }
}
