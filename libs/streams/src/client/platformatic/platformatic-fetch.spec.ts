import { gzipSync } from 'node:zlib';
import {
  createRecordsBatch,
  Reader,
  UnsupportedCompressionError,
  Writer,
  type CreateRecordsBatchOptions,
} from '@platformatic/kafka';
import { CorruptRecordBatchError } from '../../errors/corrupt-record-batch.error';
import { commonFetchVersion, parseRawFetchResponse } from './platformatic-fetch';
import { decodeRawPartition, platformaticDecompress } from './platformatic-records';

const TOPIC_ID = '8f1d4bd6-0bb6-4a52-9a6b-2f3c8e9a0d11';

/** A record batch as platformatic's producer writes it, at `baseOffset` (not under its CRC). */
function batch(
  baseOffset: number,
  values: string[],
  options: Partial<CreateRecordsBatchOptions> = {},
): Buffer {
  const bytes = Buffer.from(
    createRecordsBatch(
      values.map((value, i) => ({
        topic: 'changelog',
        key: Buffer.from(`k-${value}`),
        value: Buffer.from(value),
        timestamp: 1_700_000_000_000n + BigInt(i),
      })),
      options,
    ).buffer,
  );
  bytes.writeBigInt64BE(BigInt(baseOffset), 0);
  return bytes;
}

interface PartitionData {
  partition: number;
  errorCode: number;
  aborted: { producerId: bigint; firstOffset: bigint }[] | null;
  records: Buffer | null;
  /** A current_leader tagged field (tag 1), as a v16+ broker sends with NOT_LEADER_OR_FOLLOWER. */
  currentLeader?: [number, number];
}

/** A Fetch v17 response body (after the response header) with one topic. */
function response(partitions: PartitionData[], errorCode = 0): Reader {
  const writer = Writer.create()
    .appendInt32(0) // throttle time
    .appendInt16(errorCode)
    .appendInt32(0) // session id
    .appendArray(
      [TOPIC_ID],
      (w, topicId) =>
        w.appendUUID(topicId).appendArray(
          partitions,
          (p, data) => {
            p.appendInt32(data.partition)
              .appendInt16(data.errorCode)
              .appendInt64(20n) // high watermark
              .appendInt64(18n) // last stable offset
              .appendInt64(0n) // log start offset
              .appendArray(data.aborted, (a, t) =>
                a.appendInt64(t.producerId).appendInt64(t.firstOffset),
              )
              .appendInt32(-1); // preferred read replica
            if (data.records === null) p.appendUnsignedVarInt(0);
            else p.appendUnsignedVarInt(data.records.length + 1).append(data.records);
            if (data.currentLeader === undefined) p.appendTaggedFields();
            else {
              p.appendUnsignedVarInt(1).appendUnsignedVarInt(1).appendUnsignedVarInt(8);
              p.appendInt32(data.currentLeader[0]).appendInt32(data.currentLeader[1]);
            }
          },
          true,
          false,
        ),
      true,
      true,
    )
    .appendTaggedFields();
  return Reader.from(writer);
}

describe('platformatic Fetch v13-v17 response', () => {
  it('reads each partition: its error, offsets, aborted transactions and its records bytes as sent, past tagged fields', () => {
    const records = Buffer.concat([batch(10, ['a', 'b']), batch(12, ['c'])]);
    const parsed = parseRawFetchResponse(
      0,
      1,
      17,
      response([
        {
          partition: 3,
          errorCode: 0,
          aborted: [{ producerId: 7n, firstOffset: 11n }],
          records,
        },
        { partition: 4, errorCode: 6, aborted: null, records: null, currentLeader: [2, 9] },
      ]),
    );
    expect(parsed).toEqual({
      errorCode: 0,
      responses: [
        {
          topicId: TOPIC_ID,
          partitions: [
            {
              partition: 3,
              errorCode: 0,
              highWatermark: 20,
              lastStableOffset: 18,
              abortedTransactions: [{ producerId: '7', firstOffset: 11 }],
              records,
            },
            {
              partition: 4,
              errorCode: 6,
              highWatermark: 20,
              lastStableOffset: 18,
              abortedTransactions: [],
              records: undefined,
            },
          ],
        },
      ],
    });
  });

  it('decodes committed records only: the batches of an aborted transaction of the response list are left out, compressed batches read', async () => {
    const records = Buffer.concat([
      batch(10, ['a', 'b']),
      batch(12, ['aborted-1', 'aborted-2'], {
        transactionalId: 'tx',
        producerId: 7n,
        producerEpoch: 0,
      }),
      batch(14, ['c', 'd'], { compression: 'gzip' }),
    ]);
    const [raw] = parseRawFetchResponse(
      0,
      1,
      17,
      response([
        {
          partition: 3,
          errorCode: 0,
          aborted: [{ producerId: 7n, firstOffset: 12n }],
          records,
        },
      ]),
    ).responses[0].partitions;

    const decoded = await decodeRawPartition('changelog', raw, true);
    expect(
      decoded.records.map((r) => `${r.offset}:${r.key?.toString()}=${r.value?.toString()}`),
    ).toEqual(['10:k-a=a', '11:k-b=b', '14:k-c=c', '15:k-d=d']);
    expect(decoded).toMatchObject({ batchesEnd: 16, highWatermark: 20, lastStableOffset: 18 });
  });

  it('fails on a batch whose CRC-32C does not match its bytes, naming it; unchecked when asked', async () => {
    const bad = batch(12, ['c']);
    bad[bad.length - 1] ^= 0x01;
    const [raw] = parseRawFetchResponse(
      0,
      1,
      17,
      response([
        {
          partition: 3,
          errorCode: 0,
          aborted: null,
          records: Buffer.concat([batch(10, ['a', 'b']), bad]),
        },
      ]),
    ).responses[0].partitions;

    const failure = await decodeRawPartition('changelog', raw, true).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(CorruptRecordBatchError);
    expect(failure).toMatchObject({ topic: 'changelog', partition: 3, baseOffset: 12 });
    const unchecked = await decodeRawPartition('changelog', raw, false);
    expect(unchecked.records.map((r) => r.offset)).toEqual([10, 11, 12]);
  });

  it("decompresses with platformatic's codecs, and refuses an unknown one with its error", async () => {
    const gzip = gzipSync(Buffer.from('records'));
    expect((await platformaticDecompress(1, gzip)).toString()).toBe('records');
    await expect(platformaticDecompress(6, gzip)).rejects.toThrow(UnsupportedCompressionError);
  });

  it('speaks the newest Fetch version both sides have, from 13 (topic ids) to 17', () => {
    expect(commonFetchVersion(4, 18)).toBe(17);
    expect(commonFetchVersion(4, 15)).toBe(15);
    expect(commonFetchVersion(4, 12)).toBeUndefined();
    expect(commonFetchVersion(18, 20)).toBeUndefined();
  });
});
