import type { Kafka } from 'kafkajs';
import { PartitionOffsetOutOfRangeError } from '../../errors/internals/partition-offset-out-of-range.error';
import type {
  AssignedPartitionReader,
  AssignedPartitionReaderFactory,
  AssignedPartitionReaderOptions,
  FetchedPartition,
  FetchedRecord,
  PartitionFetchPosition,
  RecordHeaders,
} from '../assigned-partition-reader';
import { resolveReaderOptions, type ResolvedReaderOptions } from '../assigned-partition-reader';
import type { AbortedTransaction } from '../wire-format/read-committed-filter';
import { toFetchedPartition } from '../fetched-partition';
import { fetchV11ResponseDecoder, type FetchV11Partition } from './fetch-v11-response';
import { filterAbortedMessages } from './filter-aborted-messages';
import {
  clusterFactoryOf,
  type CreateKafkajsCluster,
  type KafkajsCluster,
} from './kafkajs-cluster';
import { KAFKAJS_FIXED_VERSION } from './kafkajs-fixes';
import { locateKafkajs } from './kafkajs-internals';

const READ_COMMITTED = 1;
/** Partition errors after which the leader is looked up again (the next fetch reaches it). */
const LEADER_MOVED = new Set([
  'NOT_LEADER_FOR_PARTITION',
  'NOT_LEADER_OR_FOLLOWER',
  'LEADER_NOT_AVAILABLE',
  'UNKNOWN_TOPIC_OR_PARTITION',
  'FENCED_LEADER_EPOCH',
  'UNKNOWN_LEADER_EPOCH',
  'KafkaJSBrokerNotFound',
]);

/** A record as kafkajs' record batch decoder returns it. */
interface KafkajsFetchedMessage {
  readonly offset: string;
  readonly timestamp: string;
  readonly key: Buffer | null;
  readonly value: Buffer | null;
  readonly headers?: RecordHeaders;
  readonly isControlRecord?: boolean;
  readonly batchContext: { readonly producerId: string; readonly inTransaction: boolean };
}

/** A partition as kafkajs' own Fetch decoding returns it (for a broker not speaking v11). */
interface KafkajsFetchedPartition {
  readonly partition: number;
  readonly highWatermark: string;
  readonly lastStableOffset?: string;
  readonly abortedTransactions?: readonly AbortedTransaction[];
  readonly messages: readonly KafkajsFetchedMessage[];
}

interface FetchResponse {
  readonly responses: readonly {
    readonly topicName: string;
    readonly partitions: readonly (FetchV11Partition | KafkajsFetchedPartition)[];
  }[];
}

/** The parts of kafkajs' (internal) `Broker` this reader uses. */
/** What kafkajs' request lookup gives for one API version: the request and its decoder. */
interface ProtocolRequest {
  readonly request: { readonly apiVersion: number };
  readonly response: {
    decode(data: Buffer): Promise<unknown>;
    parse(data: unknown): Promise<unknown>;
  };
  readonly requestTimeout?: number;
}
interface KafkajsBroker {
  lookupRequest(apiKey: number, definition: unknown): (request: FetchRequest) => ProtocolRequest;
  fetch(request: FetchRequest): Promise<FetchResponse>;
}
type FetchRequest = {
  replicaId: number;
  isolationLevel: number;
  maxWaitTime: number;
  minBytes: number;
  maxBytes: number;
  topics: {
    topic: string;
    partitions: { partition: number; fetchOffset: string; maxBytes: number }[];
  }[];
};
type KafkajsReaderCluster = KafkajsCluster<KafkajsBroker>;

/** What the reader needs of kafkajs to send a Fetch decoded its own way. */
interface OwnFetch {
  readonly apiKey: number;
  readonly definition: unknown;
  readonly sendRequest: symbol;
  readonly decode: (data: Buffer, checkCrcs: boolean, headers: boolean) => Promise<unknown>;
}
let ownFetchParts: OwnFetch | null | undefined;

/**
 * kafkajs' Fetch request definition, its broker's (private) send, and the engine's response
 * decoder; `undefined` for a kafkajs whose internals differ from 2.2.4's (its `fetch` is used).
 */
function ownFetch(): OwnFetch | undefined {
  if (ownFetchParts === undefined) {
    try {
      const kafkajs = locateKafkajs();
      const broker = kafkajs.load<{ prototype: object }>('./src/broker');
      const sendRequest = Object.getOwnPropertySymbols(broker.prototype).find(
        (s) => s.description === 'private:Broker:sendRequest',
      );
      ownFetchParts =
        kafkajs.version === KAFKAJS_FIXED_VERSION && sendRequest !== undefined
          ? {
              apiKey: kafkajs.load<{ Fetch: number }>('./src/protocol/requests/apiKeys').Fetch,
              definition: kafkajs.load<{ requests: { Fetch: unknown } }>('./src/protocol/requests')
                .requests.Fetch,
              sendRequest,
              decode: fetchV11ResponseDecoder(kafkajs.load),
            }
          : null;
    } catch {
      ownFetchParts = null;
    }
  }
  return ownFetchParts ?? undefined;
}

/** Whether fetches are decoded by the engine (record batch ends kept); false: by kafkajs. */
export function decodesBatchEnds(): boolean {
  return ownFetch() !== undefined;
}

/**
 * The kafkajs adapter of {@link AssignedPartitionReader}: kafkajs has no `assign`, so this
 * reader keeps a cluster connection of its own (as a kafkajs consumer does, with the client's
 * brokers, TLS, SASL and retries) and sends Fetch requests to each partition's leader
 * directly, read_committed, filtering aborted transactions itself. No consumer group is
 * joined: nothing waits for a group coordinator, a join or a sync.
 *
 * Returns `undefined` for a kafkajs whose internals differ from 2.2.4's: the engine then reads
 * through a consumer of a throwaway group, as before. `defaults` apply to every reader (a
 * reader's own options win).
 */
export function kafkajsAssignedReaderFactory(
  kafka: Kafka,
  defaults: AssignedPartitionReaderOptions = {},
): AssignedPartitionReaderFactory {
  return (options) => {
    const createCluster = clusterFactoryOf<KafkajsBroker>(kafka);
    return createCluster && new KafkajsAssignedReader(createCluster, { ...defaults, ...options });
  };
}

class KafkajsAssignedReader implements AssignedPartitionReader {
  private readonly cluster: KafkajsReaderCluster;
  private connecting: Promise<void> | undefined;
  private readonly settings: ResolvedReaderOptions;

  constructor(
    createCluster: CreateKafkajsCluster<KafkajsBroker>,
    options: AssignedPartitionReaderOptions = {},
  ) {
    this.cluster = createCluster({
      metadataMaxAge: 300_000,
      allowAutoTopicCreation: false,
      maxInFlightRequests: null,
      instrumentationEmitter: null,
      isolationLevel: READ_COMMITTED,
    });
    this.settings = resolveReaderOptions(options);
  }

  async fetch(positions: readonly PartitionFetchPosition[]): Promise<FetchedPartition[]> {
    if (positions.length === 0) return [];
    await this.connect();
    const topics = [...new Set(positions.map((p) => p.topic))];
    await this.cluster.addMultipleTargetTopics(topics);
    await this.cluster.refreshMetadataIfNecessary();
    const byLeader = new Map<string, PartitionFetchPosition[]>();
    let leaderless = false;
    for (const topic of topics) {
      const ofTopic = positions.filter((p) => p.topic === topic);
      const leaders = this.cluster.findLeaderForPartitions(
        topic,
        ofTopic.map((p) => p.partition),
      );
      const led = new Set<number>();
      for (const [nodeId, partitions] of Object.entries(leaders)) {
        let list = byLeader.get(nodeId);
        if (!list) byLeader.set(nodeId, (list = []));
        for (const partition of partitions) {
          led.add(partition);
          list.push(ofTopic.find((p) => p.partition === partition)!);
        }
      }
      if (led.size < ofTopic.length) leaderless = true;
    }
    if (leaderless) await this.cluster.refreshMetadata().catch(() => undefined);
    const fetched = await Promise.all(
      [...byLeader].map(([nodeId, list]) => this.fetchFrom(nodeId, list)),
    );
    return fetched.flat();
  }

  async close(): Promise<void> {
    const connecting = this.connecting;
    this.connecting = undefined;
    if (connecting) await connecting.catch(() => undefined);
    await this.cluster.disconnect().catch(() => undefined);
  }

  private connect(): Promise<void> {
    if (!this.connecting) {
      this.connecting = this.cluster.connect();
      this.connecting.catch(() => {
        this.connecting = undefined; // the next fetch tries again
      });
    }
    return this.connecting;
  }

  /**
   * Sends a Fetch, decoded by {@link fetchV11ResponseDecoder} (which keeps where the record
   * batches end, and checks each batch's CRC unless `checkCrcs` is off) when the broker speaks
   * v11, the version kafkajs uses with every broker of the last years; by kafkajs' own `fetch`
   * otherwise (which checks no CRC).
   */
  private async send(broker: KafkajsBroker, request: FetchRequest): Promise<FetchResponse> {
    const own = ownFetch();
    if (own === undefined) return broker.fetch(request);
    const protocol = broker.lookupRequest(own.apiKey, own.definition)(request);
    const send = (broker as unknown as Record<symbol, unknown>)[own.sendRequest];
    if (protocol.request.apiVersion !== 11 || typeof send !== 'function')
      return broker.fetch(request);
    return (await send.call(broker, {
      ...protocol,
      response: {
        decode: (data: Buffer) => own.decode(data, this.settings.checkCrcs, this.settings.headers),
        parse: protocol.response.parse,
      },
    })) as FetchResponse;
  }

  private async fetchFrom(
    nodeId: string,
    positions: readonly PartitionFetchPosition[],
  ): Promise<FetchedPartition[]> {
    const requests = new Map<
      string,
      { partition: number; fetchOffset: string; maxBytes: number }[]
    >();
    for (const p of positions) {
      let list = requests.get(p.topic);
      if (!list) requests.set(p.topic, (list = []));
      list.push({
        partition: p.partition,
        fetchOffset: String(p.offset),
        maxBytes: this.settings.maxBytesPerPartition,
      });
    }
    let response: FetchResponse;
    try {
      const broker = await this.cluster.findBroker({ nodeId });
      response = await this.send(broker, {
        replicaId: -1,
        isolationLevel: READ_COMMITTED,
        maxWaitTime: this.settings.maxWaitTimeMs,
        minBytes: 1,
        maxBytes: this.settings.maxBytes,
        topics: [...requests].map(([topic, partitions]) => ({ topic, partitions })),
      });
    } catch (error) {
      const e = error as { name?: string; type?: string; topic?: string; partition?: number };
      if (e.name === 'KafkaJSOffsetOutOfRange') {
        const position = positions.find((p) => p.topic === e.topic && p.partition === e.partition);
        throw new PartitionOffsetOutOfRangeError(
          e.topic ?? positions[0].topic,
          e.partition ?? positions[0].partition,
          position?.offset,
          { cause: error },
        );
      }
      if (LEADER_MOVED.has(e.type ?? '') || LEADER_MOVED.has(e.name ?? '')) {
        await this.cluster.refreshMetadata().catch(() => undefined);
        return [];
      }
      throw error;
    }
    const result: FetchedPartition[] = [];
    for (const { topicName, partitions } of response.responses) {
      for (const data of partitions) {
        const position = positions.find(
          (p) => p.topic === topicName && p.partition === data.partition,
        );
        if (position === undefined) continue;
        result.push(
          'records' in data
            ? toFetchedPartition(position, data)
            : fromKafkajsPartition(position, data, this.settings.headers),
        );
      }
    }
    return result;
  }
}

/**
 * One partition kafkajs decoded (a broker not speaking Fetch v11), as the port returns it;
 * each record with the headers kafkajs decoded when `headers` is true.
 */
function fromKafkajsPartition(
  position: PartitionFetchPosition,
  data: KafkajsFetchedPartition,
  headers: boolean,
): FetchedPartition {
  const fetchOffset = position.offset;
  const within = data.messages.filter((m) => Number(m.offset) >= fetchOffset);
  const last = within.length > 0 ? Number(within[within.length - 1].offset) : fetchOffset - 1;
  const records: FetchedRecord[] = filterAbortedMessages({
    messages: within,
    abortedTransactions: data.abortedTransactions,
  })
    .filter((m) => m.isControlRecord !== true)
    .map((m) => {
      const record = {
        key: m.key,
        value: m.value,
        timestamp: Number(m.timestamp),
        offset: Number(m.offset),
      };
      return headers ? { ...record, headers: m.headers ?? {} } : record;
    });
  return {
    topic: position.topic,
    partition: position.partition,
    fetchOffset,
    records,
    nextOffset: Math.max(last + 1, fetchOffset),
    highWatermark: Number(data.highWatermark),
    lastStableOffset: data.lastStableOffset === undefined ? -1 : Number(data.lastStableOffset),
  };
}
