/** kafkajs' protocol decoder (`src/protocol/decoder.js`), the calls fetched records need. */
export interface KafkajsProtocolDecoder {
  readInt16(): number;
  readInt32(): number;
  readInt64(): { toString(): string };
  readString(): string;
  readBytes(size: number): Buffer;
  canReadBytes(size: number): boolean;
  readArray<T>(reader: (decoder: KafkajsProtocolDecoder) => T): T[];
  readArrayAsync<T>(reader: (decoder: KafkajsProtocolDecoder) => Promise<T>): Promise<T[]>;
}

/** A record batch as kafkajs' batch decoder returns it (the fields the engine reads). */
export interface DecodedRecordBatch<R = unknown> {
  readonly firstOffset: string;
  readonly lastOffsetDelta: number;
  readonly maxTimestamp: string;
  readonly records: readonly R[];
  readonly [field: string]: unknown;
}

export { MAGIC_OFFSET, RECORD_BATCH_MAGIC } from '../wire-format/committed-records-decoder';
const RECORD_BATCH_OVERHEAD = 49;

/**
 * Calls `onBatch` for each whole record batch of a fetched partition's records, in order,
 * decoded by kafkajs' batch decoder; stops at a partial batch at the end (a fetch's byte limit
 * may cut the last one), as kafkajs does.
 */
export async function forEachWholeBatch<D extends { canReadBytes(size: number): boolean }, R>(
  batches: D,
  decodeBatch: (batches: D) => Promise<DecodedRecordBatch<R>>,
  onBatch: (batch: DecodedRecordBatch<R>) => void,
): Promise<void> {
  while (batches.canReadBytes(RECORD_BATCH_OVERHEAD)) {
    let batch: DecodedRecordBatch<R>;
    try {
      batch = await decodeBatch(batches);
    } catch (error) {
      if ((error as { name?: string }).name === 'KafkaJSPartialMessageError') return;
      throw error;
    }
    onBatch(batch);
  }
}
