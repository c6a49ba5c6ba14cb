import type { FetchedRecord } from '../assigned-partition-reader';
import {
  decodeCommittedRecords,
  type RecordsDecompressor,
} from '../wire-format/committed-records-decoder';
import type { KafkajsRequire } from './kafkajs-internals';
import type { KafkajsProtocolDecoder as Decoder } from './record-batches';

/** One partition of a Fetch v11 response, its records decoded for a read_committed reader. */
export interface FetchV11Partition {
  readonly partition: number;
  readonly errorCode: number;
  readonly highWatermark: string;
  readonly lastStableOffset: string;
  /** The committed data records of its whole record batches (see {@link decodeCommittedRecords}). */
  readonly records: FetchedRecord[];
  /** One past the last whole record batch; `undefined` when no batch came whole. */
  readonly batchesEnd: number | undefined;
}

/** A decoded Fetch v11 response: what kafkajs' `parse` reads (error codes), records the engine's. */
export interface FetchV11Response {
  /** 0, as kafkajs reports it: the broker did not throttle this request... */
  readonly throttleTime: number;
  /** ...but asks the client to wait this long before its next one (kafkajs honours it). */
  readonly clientSideThrottleTime: number;
  readonly errorCode: number;
  readonly responses: readonly {
    readonly topicName: string;
    readonly partitions: readonly FetchV11Partition[];
  }[];
}

/**
 * A Fetch v11 response decoder for the reader by assignment: the partition headers by kafkajs'
 * protocol decoder, the records by the engine's {@link decodeCommittedRecords} (committed
 * records only, keys and values as views of the response, offsets and timestamps as numbers,
 * and where the record batches end, which kafkajs' decoder drops: a batch compaction left
 * without records would otherwise hold a reader at its offsets forever). Compressed batches are
 * decompressed by kafkajs' codecs (gzip built in, the others as the application registered
 * them). Each batch's CRC is checked unless `checkCrcs` is false: a corrupt batch fails the
 * whole response with a `CorruptRecordBatchError` (no partition's records are returned).
 * Each record's headers are decoded when `headers` is true (default false: records have none).
 */
export function fetchV11ResponseDecoder(
  load: KafkajsRequire,
): (data: Buffer, checkCrcs?: boolean, headers?: boolean) => Promise<FetchV11Response> {
  const DecoderClass = load<new (buffer: Buffer) => Decoder>('./src/protocol/decoder');
  const { lookupCodecByAttributes } = load<{
    lookupCodecByAttributes(attributes: number): { decompress(data: Buffer): Promise<Buffer> };
  }>('./src/protocol/message/compression');
  const decompress: RecordsDecompressor = (codec, compressed) =>
    lookupCodecByAttributes(codec).decompress(compressed);

  const decodePartition = async (
    decoder: Decoder,
    topic: string,
    checkCrcs: boolean,
    headers: boolean,
  ): Promise<FetchV11Partition> => {
    const partition = decoder.readInt32();
    const errorCode = decoder.readInt16();
    const highWatermark = decoder.readInt64().toString();
    const lastStableOffset = decoder.readInt64().toString();
    decoder.readInt64(); // log start offset
    const abortedTransactions = decoder.readArray((d) => ({
      producerId: d.readInt64().toString(),
      firstOffset: d.readInt64().toString(),
    }));
    decoder.readInt32(); // preferred read replica
    const size = decoder.readInt32();
    const bytes = size > 0 && decoder.canReadBytes(size) ? decoder.readBytes(size) : undefined;
    const { records, batchesEnd } =
      bytes === undefined
        ? { records: [], batchesEnd: undefined }
        : await decodeCommittedRecords(bytes, abortedTransactions, decompress, {
            topic,
            partition,
            checkCrcs,
            headers,
          });
    return { partition, errorCode, highWatermark, lastStableOffset, records, batchesEnd };
  };

  return async (data, checkCrcs = true, headers = false) => {
    const decoder = new DecoderClass(data);
    const clientSideThrottleTime = decoder.readInt32();
    const errorCode = decoder.readInt16();
    decoder.readInt32(); // session id
    const responses = await decoder.readArrayAsync(async (d) => {
      const topicName = d.readString();
      const partitions = await d.readArrayAsync((p) =>
        decodePartition(p, topicName, checkCrcs, headers),
      );
      return { topicName, partitions };
    });
    return { throttleTime: 0, clientSideThrottleTime, errorCode, responses };
  };
}
