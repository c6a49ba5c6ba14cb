// A Produce request (v3 to v11) whose record batches come already encoded (by the engine's
// record-batch-encoder.ts), written for @platformatic/kafka's connections: the request's
// fields laid out as platformatic's own writers lay them out, each batch appended as one
// buffer (platformatic's writer encodes every record field into a small buffer of its own,
// which its connection then concatenates), and the response read by platformatic's parser of
// the same version (its errors, `ResponseError` with each partition's error, unchanged).
import {
  createAPI,
  produceV3,
  produceV4,
  produceV5,
  produceV6,
  produceV7,
  produceV8,
  produceV9,
  produceV10,
  produceV11,
  Writer,
  type API,
} from '@platformatic/kafka';
import { commonApiVersion } from './platformatic-negotiated-api';

/** The Produce API key. */
export const PRODUCE_API_KEY = 0;

/** The Produce versions this writer speaks: v3 (record batches, KIP-896's oldest) to v11. */
export const PRODUCE_VERSIONS = { min: 3, max: 11 } as const;

/** The first flexible version (compact strings and arrays, tagged fields). */
const FIRST_FLEXIBLE = 9;

/** A Produce version this writer speaks. */
export type ProduceVersion = 3 | 4 | 5 | 6 | 7 | 8 | 9 | 10 | 11;

/** platformatic's response parsers, by version. */
const RESPONSE_PARSERS = {
  3: produceV3.parseResponse,
  4: produceV4.parseResponse,
  5: produceV5.parseResponse,
  6: produceV6.parseResponse,
  7: produceV7.parseResponse,
  8: produceV8.parseResponse,
  9: produceV9.parseResponse,
  10: produceV10.parseResponse,
  11: produceV11.parseResponse,
} as const;

/** One partition's records: one encoded record batch (base offset, length, header, records). */
export interface EncodedPartition {
  readonly partition: number;
  readonly batch: Buffer;
}

/** One topic's partitions of a Produce request. */
export interface EncodedTopic {
  readonly topic: string;
  readonly partitions: readonly EncodedPartition[];
}

/** The arguments of a Produce request, as {@link rawProduceApi}'s API takes them. */
export type ProduceRequestArguments = [
  transactionalId: string | null,
  acks: number,
  timeoutMs: number,
  topics: readonly EncodedTopic[],
];

/** What the engine reads of a Produce response (every version's parser gives at least this). */
export interface ProduceResponse {
  readonly responses: readonly {
    readonly name: string;
    readonly partitionResponses: readonly { readonly index: number; readonly baseOffset: bigint }[];
  }[];
}

/**
 * Writes a Produce request body at `version` (3 to 11) with already encoded record batches.
 * The bytes are those of platformatic's `produceVN.createRequest` for the same batches.
 */
export function writeProduceRequest(
  version: ProduceVersion,
  transactionalId: string | null,
  acks: number,
  timeoutMs: number,
  topics: readonly EncodedTopic[],
): Writer {
  const flexible = version >= FIRST_FLEXIBLE;
  const writer = Writer.create()
    .appendString(transactionalId, flexible)
    .appendInt16(acks)
    .appendInt32(timeoutMs)
    .appendArray(
      topics as EncodedTopic[],
      (w, { topic, partitions }) => {
        w.appendString(topic, flexible).appendArray(
          partitions as EncodedPartition[],
          (p, { partition, batch }) => {
            p.appendInt32(partition);
            if (flexible) p.appendUnsignedVarInt(batch.length + 1);
            else p.appendInt32(batch.length);
            p.append(batch);
          },
          flexible,
          flexible,
        );
      },
      flexible,
      flexible,
    );
  if (flexible) writer.appendTaggedFields();
  return writer;
}

/**
 * The Produce API at `version` for platformatic's connections: the request written by
 * {@link writeProduceRequest}, the response parsed by platformatic (a `ResponseError` when any
 * partition failed, with platformatic's flags: `canRetry`, `hasStaleMetadata`).
 */
export function rawProduceApi(
  version: ProduceVersion,
): API<ProduceRequestArguments, ProduceResponse> {
  const flexible = version >= FIRST_FLEXIBLE;
  return createAPI<ProduceRequestArguments, ProduceResponse>(
    PRODUCE_API_KEY,
    version,
    (...args: ProduceRequestArguments) => writeProduceRequest(version, ...args),
    RESPONSE_PARSERS[version],
    flexible,
    flexible,
  );
}

/**
 * The newest Produce version both this writer and a broker speak, from the broker's
 * `[minVersion, maxVersion]`; `undefined` when they share none.
 */
export function commonProduceVersion(
  minVersion: number,
  maxVersion: number,
): ProduceVersion | undefined {
  return commonApiVersion(PRODUCE_VERSIONS, minVersion, maxVersion) as ProduceVersion | undefined;
}
