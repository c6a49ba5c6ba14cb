import {
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
    subtopologies: () => [{ id: 0, stores: ['stats-store'], sourceTopics: ['events'] }],
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

  metadataForAllStreamsClients(): StreamsMetadata[] {
    return this.instances;
  }

  streamsMetadataForStore(store: string): StreamsMetadata[] {
    return this.instances.filter(
      (m) => m.stateStoreNames.includes(store) || m.standbyStateStoreNames.includes(store),
    );
  }

  async allLocalStorePartitionLags(): Promise<Map<string, Map<number, LagInfo>>> {
    return this.lags;
  }

  async query(request: StateQueryRequest<unknown>): Promise<StateQueryResult<unknown>> {
    this.queries.push(request);
    return this.answer(request);
  }

  /** Sessions per partition of every session store: `key -> [start, end, aggregate][]`. */
  sessions = new Map<number, Record<string, [number, number, unknown][]>>();

  store(params: StoreQueryParameters<unknown>): unknown {
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
