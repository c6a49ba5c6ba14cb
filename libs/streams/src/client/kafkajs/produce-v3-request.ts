import { encodeRecordBatch, type BatchRecord } from '../wire-format/record-batch-encoder';
import type { KafkajsRequire } from './kafkajs-internals';

/** kafkajs' protocol encoder (`src/protocol/encoder.js`), the calls this request makes. */
interface Encoder {
  writeString(value: string | null): Encoder;
  writeInt16(value: number): Encoder;
  writeInt32(value: number): Encoder;
  writeArray(values: readonly Encoder[]): Encoder;
  writeEncoder(value: Encoder): Encoder;
  writeBuffer(value: Buffer): Encoder;
  size(): number;
}

/** A message of a produce request, as kafkajs hands it over. */
interface ProduceMessage {
  readonly key?: unknown;
  readonly value?: unknown;
  readonly headers?: unknown;
  readonly timestamp?: number | string | null;
}

interface PartitionData {
  readonly partition: number;
  readonly messages: readonly ProduceMessage[];
  readonly firstSequence?: number;
}

interface TopicData {
  readonly topic: string;
  readonly partitions: readonly PartitionData[];
}

/** The producer identity a transactional or idempotent batch carries. */
interface ProducerIdentity {
  readonly transactionalId: string | null;
  readonly producerId: unknown;
  readonly producerEpoch: number;
}

/** The arguments of kafkajs' produce request v3 (and of v4/v5, which wrap it). */
export interface ProduceV3Arguments {
  readonly acks: number;
  readonly timeout: number;
  readonly transactionalId?: string | null;
  readonly producerId?: unknown;
  readonly producerEpoch?: number;
  readonly compression?: number;
  readonly topicData: readonly TopicData[];
}

/** What a kafkajs protocol request module returns. */
export interface ProduceV3Request {
  readonly apiKey: number;
  readonly apiVersion: 3;
  readonly apiName: 'Produce';
  expectResponse(): boolean;
  encode(): Promise<Encoder>;
}

/**
 * kafkajs 2.2.4's `src/protocol/requests/produce/v3/request.js` (Produce v3, the base of v4
 * and v5). An uncompressed batch is encoded by the engine's {@link encodeRecordBatch} into one
 * buffer sized up front (kafkajs built an encoder, a zero-filled buffer and a copy per record,
 * the largest item of the producer's profile); a compressed one by kafkajs' encoders, with the
 * batch's first and last timestamps found in one pass and compared as numbers (the original
 * sorted every timestamp, as strings). The encoded bytes are the original's.
 */
export function produceV3RequestModule(
  kafkajsRequire: KafkajsRequire,
): (args: ProduceV3Arguments) => ProduceV3Request {
  const Long = kafkajsRequire<{ fromInt(value: number): unknown }>('./src/utils/long');
  const EncoderClass =
    kafkajsRequire<new (initialSize?: number) => Encoder>('./src/protocol/encoder');
  const { Produce: apiKey } = kafkajsRequire<{ Produce: number }>(
    './src/protocol/requests/apiKeys',
  );
  const { Types } = kafkajsRequire<{ Types: { None: number } }>(
    './src/protocol/message/compression',
  );
  const Record = kafkajsRequire<(record: object) => unknown>(
    './src/protocol/recordBatch/record/v0',
  );
  const { RecordBatch } = kafkajsRequire<{ RecordBatch: (batch: object) => Promise<Encoder> }>(
    './src/protocol/recordBatch/v0',
  );

  const encodePartition = async (
    compression: number,
    { partition, messages, firstSequence }: PartitionData,
    { transactionalId, producerId, producerEpoch }: ProducerIdentity,
  ): Promise<Encoder> => {
    if (compression === Types.None) {
      const batch = encodeRecordBatch(messages as readonly BatchRecord[], {
        producerId: BigInt(String(producerId)),
        producerEpoch,
        baseSequence: firstSequence ?? 0,
        transactional: !!transactionalId,
      });
      return new EncoderClass(batch.length + 8)
        .writeInt32(partition)
        .writeInt32(batch.length)
        .writeBuffer(batch);
    }
    const dateNow = Date.now();
    let firstTimestamp: number | undefined;
    let maxTimestamp: number | undefined;
    for (const message of messages) {
      if (message.timestamp == null) continue;
      const timestamp = Number(message.timestamp);
      if (firstTimestamp === undefined || timestamp < firstTimestamp) firstTimestamp = timestamp;
      if (maxTimestamp === undefined || timestamp > maxTimestamp) maxTimestamp = timestamp;
    }
    const first = firstTimestamp ?? dateNow;
    const records = messages.map((message, i) =>
      Record({
        key: message.key,
        value: message.value,
        headers: message.headers,
        offsetDelta: i,
        timestampDelta: (message.timestamp ? Number(message.timestamp) : dateNow) - first,
      }),
    );
    const recordBatch = await RecordBatch({
      compression,
      records,
      firstTimestamp: first,
      maxTimestamp: maxTimestamp ?? dateNow,
      producerId,
      producerEpoch,
      firstSequence,
      transactional: !!transactionalId,
      lastOffsetDelta: records.length - 1,
    });
    return new EncoderClass()
      .writeInt32(partition)
      .writeInt32(recordBatch.size())
      .writeEncoder(recordBatch);
  };

  return ({
    acks,
    timeout,
    transactionalId = null,
    producerId = Long.fromInt(-1),
    producerEpoch = 0,
    compression = Types.None,
    topicData,
  }) => ({
    apiKey,
    apiVersion: 3,
    apiName: 'Produce',
    expectResponse: () => acks !== 0,
    encode: async () => {
      const identity = { transactionalId, producerId, producerEpoch };
      const encodedTopics: Encoder[] = [];
      for (const { topic, partitions } of topicData) {
        const encodedPartitions: Encoder[] = [];
        for (const data of partitions) {
          encodedPartitions.push(await encodePartition(compression, data, identity));
        }
        encodedTopics.push(new EncoderClass().writeString(topic).writeArray(encodedPartitions));
      }
      return new EncoderClass()
        .writeString(transactionalId)
        .writeInt16(acks)
        .writeInt32(timeout)
        .writeArray(encodedTopics);
    },
  });
}
