import type { KafkajsRequire } from './kafkajs-internals';
import {
  forEachWholeBatch,
  MAGIC_OFFSET,
  RECORD_BATCH_MAGIC,
  type DecodedRecordBatch,
  type KafkajsProtocolDecoder as Decoder,
} from './record-batches';

/**
 * kafkajs 2.2.4's `src/protocol/requests/fetch/v4/decodeMessages.js` (the records of a Fetch
 * v4 to v11 partition), which flattens record batches into their records: a batch compaction
 * left without records (kept for its producer's state) vanished, and a consumer at its offsets
 * stayed there, fetching it again forever (Java's consumer moves to the batch's end). The
 * replacement returns the same records and, for such a batch, one control record at the
 * batch's last offset with no key and no value: kafkajs drops control records from what it
 * hands the application, but moves the position past them, as past a transaction marker.
 */
export function decodeMessagesModule(load: KafkajsRequire) {
  // Loaded at the first decode, not before: the batch decoder loads the record decoder, which
  // must be the replacement kafkajs' fixes pre-seed after building this module.
  let parts:
    | {
        DecoderClass: new (buffer: Buffer) => Decoder;
        decodeBatch: (decoder: Decoder) => Promise<DecodedRecordBatch>;
        decodeMessageSet: (decoder: Decoder, size: number) => Promise<unknown[]>;
      }
    | undefined;
  const kafkajs = () =>
    (parts ??= {
      DecoderClass: load('./src/protocol/decoder'),
      decodeBatch: load('./src/protocol/recordBatch/v0/decoder'),
      decodeMessageSet: load('./src/protocol/messageSet/decoder'),
    });
  return async function decodeMessages(decoder: Decoder): Promise<unknown[]> {
    const { DecoderClass, decodeBatch, decodeMessageSet } = kafkajs();
    const size = decoder.readInt32();
    if (size <= 0 || !decoder.canReadBytes(size)) return [];
    const buffer = decoder.readBytes(size);
    const batches = new DecoderClass(buffer);
    if (buffer.readInt8(MAGIC_OFFSET) !== RECORD_BATCH_MAGIC)
      return decodeMessageSet(batches, size);
    const records: unknown[] = [];
    await forEachWholeBatch(batches, decodeBatch, (batch) => {
      if (batch.records.length > 0) {
        for (const record of batch.records) records.push(record);
        return;
      }
      const { records: _none, ...context } = batch;
      records.push({
        magicByte: RECORD_BATCH_MAGIC,
        attributes: 0,
        timestamp: batch.maxTimestamp,
        offset: (BigInt(batch.firstOffset) + BigInt(batch.lastOffsetDelta)).toString(),
        key: null,
        value: null,
        headers: {},
        isControlRecord: true,
        batchContext: { ...context, magicByte: RECORD_BATCH_MAGIC },
      });
    });
    return records;
  };
}
