import {
  Base,
  protocolErrors,
  ResponseError,
  type API,
  type BaseOptions,
  type ClusterMetadata,
} from '@platformatic/kafka';
import { PartitionOffsetOutOfRangeError } from '../../errors/internals/partition-offset-out-of-range.error';
import type {
  AssignedPartitionReader,
  AssignedPartitionReaderFactory,
  AssignedPartitionReaderOptions,
  FetchedPartition,
  PartitionFetchPosition,
} from '../assigned-partition-reader';
import { resolveReaderOptions, type ResolvedReaderOptions } from '../assigned-partition-reader';
import { toFetchedPartition } from '../fetched-partition';
import type { StreamsLogger } from '../../logging/logger';
import { bridgePlatformaticLogs } from './platformatic-log-bridge';
import { NegotiatedApi } from './platformatic-negotiated-api';
import {
  commonFetchVersion,
  FETCH_API_KEY,
  FETCH_VERSIONS,
  type FetchVersion,
  rawFetchApi,
  READ_COMMITTED,
  SESSIONLESS_EPOCH,
  type FetchRequestArguments,
  type FetchRequestTopic,
  type RawFetchPartition,
  type RawFetchResponse,
} from './platformatic-fetch';
import { decodeRawPartition } from './platformatic-records';
import { platformaticTransientFault } from './platformatic-transient-faults';

/**
 * Partition errors after which the partition's leader is looked up again, as Java's fetcher
 * does (its partitions come back with no records in this round; the next fetch reaches the
 * new leader, or finds the topic gone).
 */
const LOOK_UP_AGAIN = new Set(
  [
    'NOT_LEADER_OR_FOLLOWER',
    'LEADER_NOT_AVAILABLE',
    'REPLICA_NOT_AVAILABLE',
    'KAFKA_STORAGE_ERROR',
    'FENCED_LEADER_EPOCH',
    'UNKNOWN_LEADER_EPOCH',
    'OFFSET_NOT_AVAILABLE',
    'UNKNOWN_TOPIC_OR_PARTITION',
    'UNKNOWN_TOPIC_ID',
    'INCONSISTENT_TOPIC_ID',
  ].map((id) => protocolErrors[id].code),
);
const OFFSET_OUT_OF_RANGE = protocolErrors.OFFSET_OUT_OF_RANGE.code;

type FetchApi = API<FetchRequestArguments, RawFetchResponse>;

/**
 * Whether a leader's failed fetch is one to leave out of a round (its partitions fetched again
 * once their leader is found): a transient fault, not an answer about the records (an offset out
 * of range, a corrupt batch) or a refusal.
 */
function isLeaderFault(error: unknown): boolean {
  return platformaticTransientFault(error) !== undefined;
}

/** A partition to fetch, with the topic id and leader epoch its metadata gave. */
interface LedPosition {
  readonly position: PartitionFetchPosition;
  readonly topicId: string;
  readonly leaderEpoch: number;
}

/**
 * The @platformatic/kafka adapter of {@link AssignedPartitionReader}. platformatic's consumer
 * always joins a group, so each reader keeps a client of its own (platformatic's `Base`: its
 * metadata, connection pool, retries, TLS and SASL, from `clientOptions`) and sends Fetch
 * requests (v13 to v17, sessionless, read_committed) to each partition's leader itself. The
 * records come back as the broker sent them and are decoded by the engine: each batch's
 * CRC-32C checked (platformatic checks none), aborted transactions filtered from the
 * response's list as Java's fetcher does (platformatic's own filter keeps one aborted
 * transaction per producer per fetch, so records of the others reach the reader), control
 * records left out, the next offset taken past every whole batch, and each record's headers
 * decoded when the reader's options ask for them.
 *
 * `defaults` apply to every reader (a reader's own options win). Errors of a reader's `fetch`,
 * as {@link AssignedPartitionReader.fetch} says, and what to do:
 * - a partition whose leader moved (NOT_LEADER_OR_FOLLOWER, FENCED_LEADER_EPOCH,
 *   UNKNOWN_TOPIC_ID, ... or no leader in the metadata) is left out of the result and looked
 *   up again: fetch again;
 * - {@link PartitionOffsetOutOfRangeError}: the position is outside the log; read the
 *   partition again from its log start (the restorer and the standbys wipe and do so);
 * - `CorruptRecordBatchError` (retriable): fetch again; a batch that fails each time is
 *   corrupt on the broker;
 * - platformatic's errors as it reports them, positions unchanged: `NetworkError`,
 *   `TimeoutError` or `MultipleErrors` (its retries spent) when no leader of the fetch answered
 *   (fetch again, or give up; a leader that does not answer while others do leaves its
 *   partitions out of the result, and is looked up again); `UserError` "Unknown topic" when a topic does not exist (create
 *   it, or stop reading it); `ResponseError` for any other partition or request error (an
 *   authorization failure: fix the ACLs); `UnsupportedApiError` for a broker older than Kafka
 *   3.1 (no Fetch v13: use the kafkajs reader there).
 */
export function platformaticAssignedReaderFactory(
  clientOptions: BaseOptions,
  defaults: AssignedPartitionReaderOptions = {},
  logger?: StreamsLogger,
): AssignedPartitionReaderFactory {
  return (options) =>
    new PlatformaticAssignedReader(clientOptions, { ...defaults, ...options }, logger);
}

class PlatformaticAssignedReader implements AssignedPartitionReader {
  private readonly client: Base;
  private readonly fetchApi: NegotiatedApi<FetchVersion, FetchApi>;
  private readonly settings: ResolvedReaderOptions;

  constructor(
    clientOptions: BaseOptions,
    options: AssignedPartitionReaderOptions,
    logger: StreamsLogger | undefined,
  ) {
    // Java's metadata.max.age.ms (platformatic's default is 5 s): a leader move is found by
    // the partition errors above, not by asking the metadata every few seconds.
    this.client = new Base({ metadataMaxAge: 300_000, ...clientOptions });
    if (logger) bridgePlatformaticLogs(this.client, logger);
    this.settings = resolveReaderOptions(options);
    this.fetchApi = new NegotiatedApi(this.client, {
      apiKey: FETCH_API_KEY,
      name: 'Fetch',
      needs: `a reader by assignment needs v${FETCH_VERSIONS.min} or newer (Kafka 3.1+)`,
      commonVersion: commonFetchVersion,
      create: rawFetchApi,
    });
  }

  async fetch(positions: readonly PartitionFetchPosition[]): Promise<FetchedPartition[]> {
    if (positions.length === 0) return [];
    const api = await this.fetchApi.get();
    const topics = [...new Set(positions.map((p) => p.topic))];
    const metadata = await this.client.metadata({ topics });
    const byLeader = new Map<number, LedPosition[]>();
    let leaderless = false;
    for (const position of positions) {
      const topic = metadata.topics.get(position.topic);
      const partition = topic?.partitions[position.partition];
      if (
        topic === undefined ||
        partition === undefined ||
        !metadata.brokers.has(partition.leader)
      ) {
        leaderless = true;
        continue;
      }
      let list = byLeader.get(partition.leader);
      if (!list) byLeader.set(partition.leader, (list = []));
      list.push({ position, topicId: topic.id, leaderEpoch: partition.leaderEpoch });
    }
    if (leaderless) this.client.clearMetadata();
    // One leader that does not answer (it died; its partitions move) holds back no other's
    // partitions: they come back, its own are left out (its leader looked up again next time).
    // Only when no leader answered does the fetch fail.
    const fetched = await Promise.allSettled(
      [...byLeader].map(([leader, led]) => this.fetchFrom(api, metadata, leader, led)),
    );
    const failed = fetched.find((f) => f.status === 'rejected');
    const answered = fetched.flatMap((f) => (f.status === 'fulfilled' ? [f.value] : []));
    if (failed && (answered.length === 0 || !isLeaderFault(failed.reason))) throw failed.reason;
    return answered.flat();
  }

  async close(): Promise<void> {
    await this.client.close();
  }

  private async fetchFrom(
    api: FetchApi,
    metadata: ClusterMetadata,
    leader: number,
    led: readonly LedPosition[],
  ): Promise<FetchedPartition[]> {
    const topics = new Map<string, FetchRequestTopic>();
    const asked = new Map<string, PartitionFetchPosition>();
    for (const { position, topicId, leaderEpoch } of led) {
      let topic = topics.get(topicId);
      if (!topic) topics.set(topicId, (topic = { topicId, partitions: [] }));
      asked.set(`${topicId}:${position.partition}`, position);
      topic.partitions.push({
        partition: position.partition,
        currentLeaderEpoch: leaderEpoch,
        fetchOffset: BigInt(position.offset),
        lastFetchedEpoch: -1,
        partitionMaxBytes: this.settings.maxBytesPerPartition,
      });
    }
    let response: RawFetchResponse;
    try {
      const connection = await this.client.connections.get(metadata.brokers.get(leader)!);
      response = await api.async(
        connection,
        this.settings.maxWaitTimeMs,
        1,
        this.settings.maxBytes,
        READ_COMMITTED,
        0,
        SESSIONLESS_EPOCH,
        [...topics.values()],
        [],
        '',
      );
    } catch (error) {
      this.client.clearMetadata(); // the leader may have gone: look it up at the next fetch
      throw error;
    }
    if (response.errorCode !== 0) {
      throw new ResponseError(api.key, api.version, { '': [response.errorCode, null] }, response);
    }
    const usable: { position: PartitionFetchPosition; raw: RawFetchPartition }[] = [];
    const failed: Record<string, [number, null]> = {};
    let lookUpAgain = false;
    response.responses.forEach(({ topicId, partitions }, t) => {
      partitions.forEach((raw, p) => {
        const position = asked.get(`${topicId}:${raw.partition}`);
        if (position === undefined) return;
        if (raw.errorCode === 0) usable.push({ position, raw });
        else if (LOOK_UP_AGAIN.has(raw.errorCode)) lookUpAgain = true;
        else if (raw.errorCode === OFFSET_OUT_OF_RANGE) {
          const { topic, partition, offset } = position;
          throw new PartitionOffsetOutOfRangeError(topic, partition, offset, {
            cause: new ResponseError(
              api.key,
              api.version,
              { [`/responses/${t}/partitions/${p}`]: [raw.errorCode, null] },
              response,
            ),
          });
        } else failed[`/responses/${t}/partitions/${p}`] = [raw.errorCode, null];
      });
    });
    if (Object.keys(failed).length > 0) {
      throw new ResponseError(api.key, api.version, failed, response);
    }
    if (lookUpAgain) this.client.clearMetadata();
    const decoded = await Promise.all(
      usable.map(({ position, raw }) =>
        decodeRawPartition(position.topic, raw, this.settings.checkCrcs, this.settings.headers),
      ),
    );
    return decoded.map((data, i) => toFetchedPartition(usable[i].position, data));
  }
}
