// kafkajs' own record batch encoder and decoder (internals loaded from its installation): the
// reference that the engine's wire format, and its fixes to kafkajs, are held against in specs.
import { locateKafkajs } from '../src/client/kafkajs/kafkajs-internals';

const kafkajs = locateKafkajs();

/** kafkajs' record batch modules, under the names kafkajs gives them. */
export const KAFKAJS_RECORD_BATCHES = {
  /** kafkajs' 64-bit integers. */
  Long: kafkajs.load<{ fromValue(v: number | string): unknown }>('./src/utils/long'),
  /** The v2 record batch encoder. */
  RecordBatch: kafkajs.load<{
    RecordBatch: (batch: object) => Promise<{ buffer: Buffer }>;
  }>('./src/protocol/recordBatch/v0').RecordBatch,
  /** The record encoder (a record of a v2 batch). */
  Record: kafkajs.load<(record: object) => unknown>('./src/protocol/recordBatch/record/v0'),
  /** The protocol decoder class, over a response's bytes. */
  Decoder: kafkajs.load<new (buffer: Buffer) => unknown>('./src/protocol/decoder'),
  /** The v2 record batch decoder: the next batch of a decoder's bytes. */
  decodeBatch: kafkajs.load<
    (decoder: unknown) => Promise<{
      readonly producerId: string;
      readonly inTransaction: boolean;
      readonly isControlBatch: boolean;
      readonly records: {
        offset: string;
        key: Buffer | null;
        value: Buffer | null;
        timestamp: string;
        headers: Record<string, unknown>;
      }[];
    }>
  >('./src/protocol/recordBatch/v0/decoder'),
};

/**
 * A batch as kafkajs encodes it: one record per key from `firstOffset` (value `v-<key>`, all at
 * 1_700_000_000_000), `lastOffsetDelta` as given (past the last record: a batch compaction
 * emptied at its end).
 */
export function kafkajsKeyedBatch(
  firstOffset: number,
  lastOffsetDelta: number,
  keys: readonly string[],
  maxTimestamp = 1_700_000_000_000,
): Promise<{ buffer: Buffer }> {
  const { Long, RecordBatch, Record } = KAFKAJS_RECORD_BATCHES;
  return RecordBatch({
    firstOffset: Long.fromValue(firstOffset),
    firstTimestamp: 1_700_000_000_000,
    maxTimestamp,
    lastOffsetDelta,
    records: keys.map((key, i) =>
      Record({ offsetDelta: i, key: Buffer.from(key), value: Buffer.from(`v-${key}`) }),
    ),
  });
}
