import type { AbortedTransaction } from '../read-committed-filter';
import type { KafkajsTransactionalMessage } from './filter-aborted-messages';
import type { KafkajsRequire } from './kafkajs-internals';
import {
  forEachWholeBatch,
  MAGIC_OFFSET,
  RECORD_BATCH_MAGIC,
  type DecodedRecordBatch,
  type KafkajsProtocolDecoder as Decoder,
} from './record-batches';

/** A fetched record as kafkajs decodes it. */
export interface FetchedMessage extends KafkajsTransactionalMessage {
  readonly key: Buffer | null;
  readonly timestamp: string;
  readonly value: Buffer | null;
}

/** One partition of a Fetch v11 response, with where its last complete record batch ends. */
export interface FetchV11Partition {
  readonly partition: number;
  readonly errorCode: number;
  readonly highWatermark: string;
  readonly lastStableOffset: string;
  readonly abortedTransactions: readonly AbortedTransaction[];
  readonly messages: readonly FetchedMessage[];
  /**
   * One past the last offset of the last complete record batch returned (its base offset +
   * last offset delta + 1), also for a batch with no record left (log compaction keeps a
   * producer's last batch empty); `undefined` when no batch came whole.
   */
  readonly batchesEnd: string | undefined;
}

/** A decoded Fetch v11 response, the shape kafkajs' own decode gives plus `batchesEnd`. */
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
 * A Fetch v11 response decoder that keeps what kafkajs' decoder drops: where the record
 * batches end. kafkajs flattens the batches into their records, so a batch that compaction
 * left without records (kept for its producer's state) disappears, and a reader at its offsets
 * can never move past it; Java's fetcher moves to the batch's end. Records are decoded by
 * kafkajs' own batch decoder (with its codecs); a trailing partial batch is left out, as
 * kafkajs does.
 */
export function fetchV11ResponseDecoder(
  load: KafkajsRequire,
): (data: Buffer) => Promise<FetchV11Response> {
  const DecoderClass = load<new (buffer: Buffer) => Decoder>('./src/protocol/decoder');
  const decodeBatch = load<(decoder: Decoder) => Promise<DecodedRecordBatch<FetchedMessage>>>(
    './src/protocol/recordBatch/v0/decoder',
  );

  const decodeRecords = async (
    decoder: Decoder,
  ): Promise<{ messages: FetchedMessage[]; batchesEnd: string | undefined }> => {
    const size = decoder.readInt32();
    if (size <= 0 || !decoder.canReadBytes(size)) return { messages: [], batchesEnd: undefined };
    const buffer = decoder.readBytes(size);
    const magic = buffer.length > MAGIC_OFFSET ? buffer.readInt8(MAGIC_OFFSET) : undefined;
    if (magic !== RECORD_BATCH_MAGIC) {
      throw new Error(
        `fetched records use message format ${magic}; only record batches (2) are read`,
      );
    }
    const batches = new DecoderClass(buffer);
    const messages: FetchedMessage[] = [];
    let batchesEnd: bigint | undefined;
    await forEachWholeBatch(batches, decodeBatch, (batch) => {
      for (const record of batch.records) messages.push(record);
      batchesEnd = BigInt(batch.firstOffset) + BigInt(batch.lastOffsetDelta) + 1n;
    });
    return { messages, batchesEnd: batchesEnd?.toString() };
  };

  const decodePartition = async (decoder: Decoder): Promise<FetchV11Partition> => {
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
    const { messages, batchesEnd } = await decodeRecords(decoder);
    return {
      partition,
      errorCode,
      highWatermark,
      lastStableOffset,
      abortedTransactions,
      messages,
      batchesEnd,
    };
  };

  return async (data) => {
    const decoder = new DecoderClass(data);
    const clientSideThrottleTime = decoder.readInt32();
    const errorCode = decoder.readInt16();
    decoder.readInt32(); // session id
    const responses = await decoder.readArrayAsync(async (d) => ({
      topicName: d.readString(),
      partitions: await d.readArrayAsync(decodePartition),
    }));
    return { throttleTime: 0, clientSideThrottleTime, errorCode, responses };
  };
}
