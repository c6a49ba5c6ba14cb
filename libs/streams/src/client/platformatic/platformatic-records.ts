import { compressionsAlgorithmsByBitmask, UnsupportedCompressionError } from '@platformatic/kafka';
import {
  decodeCommittedRecords,
  type RecordsDecompressor,
} from '../wire-format/committed-records-decoder';
import type { DecodedFetchPartition } from '../fetched-partition';
import type { RawFetchPartition } from './platformatic-fetch';

/**
 * Decompresses a record batch's records with platformatic's codecs (gzip, snappy, lz4, and
 * zstd where Node's zlib has it).
 *
 * @throws (rejects with) UnsupportedCompressionError (platformatic's) for a codec it does not know, or zstd on
 *   a Node without it: the records cannot be read by this client.
 */
export const platformaticDecompress: RecordsDecompressor = async (codec, compressed) => {
  const algorithm = compressionsAlgorithmsByBitmask[codec];
  if (algorithm === undefined) {
    throw new UnsupportedCompressionError(
      `Unsupported compression algorithm with bitmask ${codec}`,
    );
  }
  return algorithm.decompressSync(compressed);
};

/**
 * One partition of a Fetch response, its record batches decoded by the engine: committed data
 * records only (the response's aborted transactions filtered as Java's fetcher does, control
 * records left out), each whole batch's CRC-32C checked unless `checkCrcs` is false, each
 * record's headers decoded when `headers` is true, and where the whole batches end.
 *
 * @throws CorruptRecordBatchError for a batch that fails its CRC (fetch again); what
 *   {@link decodeCommittedRecords} throws otherwise (an old message format, a record that does
 *   not fit its batch, a codec platformatic lacks).
 */
export async function decodeRawPartition(
  topic: string,
  raw: RawFetchPartition,
  checkCrcs: boolean,
  headers = false,
): Promise<DecodedFetchPartition> {
  const { records, batchesEnd } =
    raw.records === undefined
      ? { records: [], batchesEnd: undefined }
      : await decodeCommittedRecords(raw.records, raw.abortedTransactions, platformaticDecompress, {
          topic,
          partition: raw.partition,
          checkCrcs,
          headers,
        });
  return {
    records,
    batchesEnd,
    highWatermark: raw.highWatermark,
    lastStableOffset: raw.lastStableOffset,
  };
}

/** One topic's offsets as platformatic's OffsetCommit and TxnOffsetCommit requests take them. */
export interface OffsetCommitTopic {
  readonly name: string;
  readonly partitions: {
    partitionIndex: number;
    committedOffset: bigint;
    committedLeaderEpoch: number;
    committedMetadata: null;
  }[];
}

/** `offsets` (each the next offset to read) grouped by topic, in the order topics come first. */
export function offsetCommitTopics(
  offsets: readonly { topic: string; partition: number; offset: number }[],
): OffsetCommitTopic[] {
  const topics = new Map<string, OffsetCommitTopic>();
  for (const { topic, partition, offset } of offsets) {
    let entry = topics.get(topic);
    if (!entry) topics.set(topic, (entry = { name: topic, partitions: [] }));
    entry.partitions.push({
      partitionIndex: partition,
      committedOffset: BigInt(offset),
      committedLeaderEpoch: -1,
      committedMetadata: null,
    });
  }
  return [...topics.values()];
}
