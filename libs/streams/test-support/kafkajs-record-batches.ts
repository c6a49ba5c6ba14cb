// kafkajs' own record batch encoder and decoder (internals loaded from its installation): the
// reference that the engine's wire format, and its fixes to kafkajs, are held against in specs.
import { locateKafkajs } from '../src/client/kafkajs/kafkajs-internals';

const kafkajs = locateKafkajs();

/** kafkajs' `Long` (its 64-bit integers). */
export const KafkajsLong = kafkajs.load<{ fromValue(v: number | string): unknown }>(
  './src/utils/long',
);

/** kafkajs' v2 record batch encoder. */
export const { RecordBatch: kafkajsRecordBatch } = kafkajs.load<{
  RecordBatch: (batch: object) => Promise<{ buffer: Buffer }>;
}>('./src/protocol/recordBatch/v0');

/** kafkajs' record encoder (a record of a v2 batch). */
export const kafkajsRecord = kafkajs.load<(record: object) => unknown>(
  './src/protocol/recordBatch/record/v0',
);

/** kafkajs' protocol decoder class, over a response's bytes. */
export const KafkajsDecoder =
  kafkajs.load<new (buffer: Buffer) => unknown>('./src/protocol/decoder');

/** kafkajs' v2 record batch decoder: the next batch of a decoder's bytes. */
export const decodeKafkajsBatch = kafkajs.load<
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
>('./src/protocol/recordBatch/v0/decoder');

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
  return kafkajsRecordBatch({
    firstOffset: KafkajsLong.fromValue(firstOffset),
    firstTimestamp: 1_700_000_000_000,
    maxTimestamp,
    lastOffsetDelta,
    records: keys.map((key, i) =>
      kafkajsRecord({ offsetDelta: i, key: Buffer.from(key), value: Buffer.from(`v-${key}`) }),
    ),
  });
}
