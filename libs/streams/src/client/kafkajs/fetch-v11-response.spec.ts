import { CorruptRecordBatchError } from '../../errors/corrupt-record-batch.error';
import { toFetchedPartition } from '../fetched-partition';
import { fetchV11ResponseDecoder, type FetchV11Partition } from './fetch-v11-response';
import { locateKafkajs } from './kafkajs-internals';
import { kafkajsKeyedBatch } from '../../../test-support/kafkajs-record-batches';

const kafkajs = locateKafkajs();
interface Encoder {
  buffer: Buffer;
  writeInt16(v: number): Encoder;
  writeInt32(v: number): Encoder;
  writeInt64(v: number | string): Encoder;
  writeString(v: string): Encoder;
  writeBuffer(v: Buffer): Encoder;
}
const EncoderClass = kafkajs.load<new () => Encoder>('./src/protocol/encoder');
const kafkajsDecode = kafkajs.load<{
  decode(data: Buffer): Promise<{ responses: { partitions: { messages: unknown[] }[] }[] }>;
}>('./src/protocol/requests/fetch/v11/response').decode;
const decode = fetchV11ResponseDecoder(kafkajs.load);

/** A Fetch v11 response with one partition holding `records` (the raw batch bytes). */
function response(records: Buffer, lastStableOffset: number): Buffer {
  const e = new EncoderClass()
    .writeInt32(7) // throttle time
    .writeInt16(0)
    .writeInt32(0) // session id
    .writeInt32(1)
    .writeString('changelog')
    .writeInt32(1)
    .writeInt32(3) // partition
    .writeInt16(0)
    .writeInt64(lastStableOffset) // high watermark
    .writeInt64(lastStableOffset)
    .writeInt64(0) // log start offset
    .writeInt32(0) // no aborted transaction
    .writeInt32(-1) // preferred read replica
    .writeInt32(records.length)
    .writeBuffer(records);
  return e.buffer;
}

describe('fetchV11ResponseDecoder', () => {
  it('decodes the records kafkajs decodes, offsets and timestamps as numbers, and keeps where the batches end, past a batch compaction emptied', async () => {
    const full = (await kafkajsKeyedBatch(10, 1, ['a', 'b'])).buffer;
    const emptied = (await kafkajsKeyedBatch(12, 4, [])).buffer; // offsets 12-16, every record compacted away
    const next = (await kafkajsKeyedBatch(17, 0, ['c'])).buffer;
    const data = response(Buffer.concat([full, emptied, next.subarray(0, next.length - 3)]), 18);

    const ours = await decode(data);
    const theirs = await kafkajsDecode(data);
    const partition = ours.responses[0].partitions[0];
    const kafkajsMessages = theirs.responses[0].partitions[0].messages as {
      key: Buffer;
      value: Buffer;
      offset: string;
      timestamp: string;
    }[];
    expect(partition.records).toEqual(
      kafkajsMessages.map((m) => ({
        key: m.key,
        value: m.value,
        offset: Number(m.offset),
        timestamp: Number(m.timestamp),
      })),
    );
    expect(partition.records.map((m) => m.offset)).toEqual([10, 11]);
    expect(partition).toMatchObject({ partition: 3, highWatermark: '18', batchesEnd: 17 });
    expect(ours).toMatchObject({ throttleTime: 0, clientSideThrottleTime: 7, errorCode: 0 });
  });

  it('moves a reader past a batch compaction emptied, and nowhere when no batch came whole', async () => {
    const emptied = (await kafkajsKeyedBatch(12, 4, [])).buffer;
    const onlyEmptied = (await decode(response(emptied, 20))).responses[0].partitions[0];
    expect(
      toFetchedPartition({ topic: 'changelog', partition: 3, offset: 12 }, onlyEmptied),
    ).toMatchObject({
      records: [],
      nextOffset: 17,
    });

    const partial = (await kafkajsKeyedBatch(12, 0, ['x'])).buffer;
    const cut = (await decode(response(partial.subarray(0, partial.length - 2), 20))).responses[0]
      .partitions[0] as FetchV11Partition;
    expect(cut.batchesEnd).toBeUndefined();
    expect(
      toFetchedPartition({ topic: 'changelog', partition: 3, offset: 12 }, cut).nextOffset,
    ).toBe(12);
  });

  it('fails the whole response on a corrupt batch, naming its topic, partition and offset; unchecked when asked', async () => {
    const good = (await kafkajsKeyedBatch(10, 1, ['a', 'b'])).buffer;
    const bad = (await kafkajsKeyedBatch(12, 0, ['c'])).buffer;
    bad[bad.length - 1] ^= 0x01;
    const data = response(Buffer.concat([good, bad]), 13);

    await expect(decode(data)).rejects.toThrow(CorruptRecordBatchError);
    await expect(decode(data)).rejects.toMatchObject({
      topic: 'changelog',
      partition: 3,
      baseOffset: 12,
    });
    const unchecked = (await decode(data, false)).responses[0].partitions[0];
    expect(unchecked.records.map((r) => r.offset)).toEqual([10, 11, 12]);
  });
});
