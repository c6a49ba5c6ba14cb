// A Fetch request (v13 to v17) sent on a @platformatic/kafka connection: the request built by
// platformatic's own request writers, the response read here down to each partition's raw
// records bytes, which the engine decodes itself (CRC checks and read_committed filtering:
// platformatic's parser drops the bytes after decoding them, and checks no CRC).
import {
  createAPI,
  fetchV13,
  fetchV14,
  fetchV15,
  fetchV16,
  fetchV17,
  type API,
  type Reader,
} from '@platformatic/kafka';
import type { AbortedTransaction } from '../wire-format/read-committed-filter';
import { commonApiVersion } from './platformatic-negotiated-api';

/** A topic of a Fetch request (v13+: by topic id), as platformatic's request writers take it. */
export type FetchRequestTopic = fetchV17.FetchRequestTopic;

/** The Fetch API key. */
export const FETCH_API_KEY = 1;
/** The isolation level of a read_committed fetch. */
export const READ_COMMITTED = 1;
/**
 * A session epoch that asks for a full fetch outside any fetch session (KIP-227's FINAL_EPOCH
 * with session id 0): a reader by assignment opens no session on the broker.
 */
export const SESSIONLESS_EPOCH = -1;

/** platformatic's request writers, by Fetch version (all use topic ids). */
const REQUEST_WRITERS = {
  13: fetchV13.createRequest,
  14: fetchV14.createRequest,
  15: fetchV15.createRequest,
  16: fetchV16.createRequest,
  17: fetchV17.createRequest,
} as const;

/** The Fetch versions this reader speaks: the first by topic id (13) to the newest (17). */
export const FETCH_VERSIONS = { min: 13, max: 17 } as const;

/** One of {@link FETCH_VERSIONS}. */
export type FetchVersion = keyof typeof REQUEST_WRITERS;

/** One partition of a Fetch response, its records left as the broker sent them. */
export interface RawFetchPartition {
  readonly partition: number;
  readonly errorCode: number;
  readonly highWatermark: number;
  readonly lastStableOffset: number;
  /** The aborted transactions overlapping the returned records (read_committed). */
  readonly abortedTransactions: AbortedTransaction[];
  /** The records field (record batches, the last one possibly cut); `undefined` when empty. */
  readonly records: Buffer | undefined;
}

/** A Fetch response (v13 to v17), topics by id. */
export interface RawFetchResponse {
  readonly errorCode: number;
  readonly responses: readonly {
    readonly topicId: string;
    readonly partitions: readonly RawFetchPartition[];
  }[];
}

/** The arguments of a Fetch request, in the order of platformatic's request writers. */
export type FetchRequestArguments = [
  maxWaitMs: number,
  minBytes: number,
  maxBytes: number,
  isolationLevel: number,
  sessionId: number,
  sessionEpoch: number,
  topics: FetchRequestTopic[],
  forgottenTopicsData: [],
  rackId: string,
];

/**
 * Reads a Fetch response, v13 to v17 (their layouts differ only in tagged fields, which are
 * skipped): partition errors are returned, not thrown (the reader decides, partition by
 * partition); the records field is kept as bytes (a view of the response).
 *
 * @throws what platformatic's `Reader` throws for a response shorter than its fields say
 *   (`OutOfBoundsError`): the connection fails that request with it; fetch again.
 */
export function parseRawFetchResponse(
  _correlationId: number,
  _apiKey: number,
  _apiVersion: number,
  reader: Reader,
): RawFetchResponse {
  reader.readInt32(); // throttle time
  const errorCode = reader.readInt16();
  reader.readInt32(); // session id
  const responses = reader.readArray((topic) => ({
    topicId: topic.readUUID(),
    partitions: topic.readArray(readPartition),
  }));
  reader.readTaggedFields();
  return { errorCode, responses };
}

function readPartition(r: Reader): RawFetchPartition {
  const partition = r.readInt32();
  const errorCode = r.readInt16();
  const highWatermark = Number(r.readInt64());
  const lastStableOffset = Number(r.readInt64());
  r.readInt64(); // log start offset
  const abortedTransactions =
    r.readNullableArray((a) => ({
      producerId: a.readInt64().toString(),
      firstOffset: Number(a.readInt64()),
    })) ?? [];
  r.readInt32(); // preferred read replica
  const size = r.readUnsignedVarInt() - 1; // COMPACT_RECORDS: length + 1, 0 for null
  let records: Buffer | undefined;
  if (size > 0) {
    records = r.buffer.slice(r.position, r.position + size);
    r.skip(size);
  }
  return { partition, errorCode, highWatermark, lastStableOffset, abortedTransactions, records };
}

/**
 * The Fetch API at `version` (13 to 17), for platformatic's connections: the request written
 * by platformatic, the response read by {@link parseRawFetchResponse}.
 */
export function rawFetchApi(version: FetchVersion): API<FetchRequestArguments, RawFetchResponse> {
  return createAPI<FetchRequestArguments, RawFetchResponse>(
    FETCH_API_KEY,
    version,
    REQUEST_WRITERS[version],
    parseRawFetchResponse,
  );
}

/**
 * The newest Fetch version both this reader and a broker speak, from the broker's
 * `[minVersion, maxVersion]`; `undefined` when they share none (a broker older than Kafka 3.1).
 */
export function commonFetchVersion(
  minVersion: number,
  maxVersion: number,
): FetchVersion | undefined {
  return commonApiVersion(FETCH_VERSIONS, minVersion, maxVersion) as FetchVersion | undefined;
}
