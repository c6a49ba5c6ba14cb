import { gunzipSync } from 'node:zlib';
import { CorruptRecordBatchError } from '../../errors/corrupt-record-batch.error';
import { decodeCommittedRecords, type RecordsDecompressor } from './committed-records-decoder';
import { crc32c } from './crc32c';
import { KAFKAJS_RECORD_BATCHES } from '../../../test-support/kafkajs-record-batches';
import { committedRecords } from './read-committed-filter';

// Record batches are encoded by kafkajs' own encoder (with its CRCs); control batches and
// log-append-time batches, which kafkajs never writes, by setting their attribute bits and
// sealing the batch again (a new CRC), as the broker does when it writes them.
const { Long, RecordBatch, Record, Decoder, decodeBatch } = KAFKAJS_RECORD_BATCHES;
const GZIP = 1;
const CRC = 17;
const ATTRIBUTES = 21;
const SOURCE = { topic: 'app-store-changelog', partition: 3 };

/** Writes the CRC-32C of a batch edited after kafkajs encoded it (a broker-written batch). */
function seal(batch: Buffer): Buffer {
  batch.writeUInt32BE(crc32c(batch, ATTRIBUTES), CRC);
  return batch;
}
const BASE_TIMESTAMP = 1_700_000_000_000;

interface BatchSpec {
  readonly firstOffset: number;
  readonly keys: readonly (string | null)[];
  readonly producerId?: number;
  readonly transactional?: boolean;
  readonly compression?: number;
  readonly lastOffsetDelta?: number;
  readonly values?: readonly (string | null)[];
}

async function batch(spec: BatchSpec): Promise<Buffer> {
  const { buffer } = await RecordBatch({
    firstOffset: Long.fromValue(spec.firstOffset),
    firstTimestamp: BASE_TIMESTAMP,
    maxTimestamp: BASE_TIMESTAMP + 999,
    lastOffsetDelta: spec.lastOffsetDelta ?? spec.keys.length - 1,
    transactional: spec.transactional ?? false,
    producerId: Long.fromValue(spec.producerId ?? -1),
    compression: spec.compression ?? 0,
    records: spec.keys.map((key, i) =>
      Record({
        offsetDelta: i,
        timestampDelta: i * 10,
        key: key === null ? null : Buffer.from(key),
        value: spec.values?.[i] === null ? null : Buffer.from(spec.values?.[i] ?? `v-${key ?? i}`),
        headers: { trace: Buffer.from(`h${i}`), multi: [Buffer.from('x'), Buffer.from('y')] },
      }),
    ),
  });
  return buffer;
}

/** A transaction marker of `producerId` at `offset`: a control batch of one record. */
async function marker(offset: number, producerId: number, commit: boolean): Promise<Buffer> {
  const { buffer } = await RecordBatch({
    firstOffset: Long.fromValue(offset),
    firstTimestamp: BASE_TIMESTAMP,
    maxTimestamp: BASE_TIMESTAMP,
    transactional: true,
    producerId: Long.fromValue(producerId),
    records: [Record({ key: Buffer.from([0, 0, 0, commit ? 1 : 0]), value: Buffer.alloc(6) })],
  });
  buffer.writeInt16BE(buffer.readInt16BE(ATTRIBUTES) | 0x20, ATTRIBUTES);
  return seal(buffer);
}

const gunzip: RecordsDecompressor = async (codec, data) => {
  if (codec !== GZIP) throw new Error(`codec ${codec} is not registered`);
  return gunzipSync(data);
};

/** What kafkajs' batch decoder and the engine's per-record filter make of the same bytes. */
async function reference(
  data: Buffer,
  aborted: { producerId: string; firstOffset: string }[],
): Promise<{ offset: number; key: Buffer | null; value: Buffer | null; timestamp: number }[]> {
  const decoder = new Decoder(data) as { canReadBytes(n: number): boolean };
  const records = [];
  while (decoder.canReadBytes(61)) {
    const b = await decodeBatch(decoder);
    for (const r of b.records) {
      records.push({
        ...r,
        inTransaction: b.inTransaction,
        isControlRecord: b.isControlBatch,
        isAbortMarker: b.isControlBatch && r.key !== null && r.key.readInt16BE(2) === 0,
        producerId: b.producerId,
      });
    }
  }
  return committedRecords(records, aborted).map((r) => ({
    key: r.key,
    value: r.value,
    timestamp: Number(r.timestamp),
    offset: Number(r.offset),
  }));
}

const keysOf = (records: { key: Buffer | null }[]) => records.map((r) => r.key?.toString() ?? null);

describe('decodeCommittedRecords', () => {
  it('returns keys, values, offsets and timestamps as numbers, skips headers, and leaves a cut batch for the next fetch', async () => {
    const big = 5_000_000_000; // past 2^32
    const first = await batch({
      firstOffset: big,
      keys: ['a', null, 'c'],
      values: ['1', '2', null],
    });
    const second = await batch({ firstOffset: big + 3, keys: ['d'] });
    const third = await batch({ firstOffset: big + 4, keys: ['e', 'f'] });
    const data = Buffer.concat([first, second, third.subarray(0, third.length - 5)]);

    const { records, batchesEnd } = await decodeCommittedRecords(data, [], gunzip, SOURCE);

    expect(records).toEqual([
      { key: Buffer.from('a'), value: Buffer.from('1'), offset: big, timestamp: BASE_TIMESTAMP },
      { key: null, value: Buffer.from('2'), offset: big + 1, timestamp: BASE_TIMESTAMP + 10 },
      { key: Buffer.from('c'), value: null, offset: big + 2, timestamp: BASE_TIMESTAMP + 20 },
      {
        key: Buffer.from('d'),
        value: Buffer.from('v-d'),
        offset: big + 3,
        timestamp: BASE_TIMESTAMP,
      },
    ]);
    expect(batchesEnd).toBe(big + 4);
    expect(records[0].key!.buffer).toBe(data.buffer); // a view of the fetched bytes, no copy
    expect(await decodeCommittedRecords(data.subarray(0, 40), [], gunzip, SOURCE)).toEqual({
      records: [],
      batchesEnd: undefined,
    });
  });

  it('leaves out the aborted transactions of interleaved producers and every marker, as Java and the per-record filter do', async () => {
    // Producers 1, 2 and 3 interleave; 1's first transaction aborts, 2's commits, 3's aborts;
    // then 1 commits a second transaction and 3 writes outside any transaction.
    const data = Buffer.concat(
      await Promise.all([
        batch({ firstOffset: 0, keys: ['p1-a', 'p1-b'], producerId: 1, transactional: true }),
        batch({ firstOffset: 2, keys: ['p2-a'], producerId: 2, transactional: true }),
        batch({ firstOffset: 3, keys: ['p3-a', 'p3-b'], producerId: 3, transactional: true }),
        batch({ firstOffset: 5, keys: ['p1-c'], producerId: 1, transactional: true }),
        marker(6, 2, true),
        batch({ firstOffset: 7, keys: ['p3-c'], producerId: 3, transactional: true }),
        marker(8, 1, false),
        batch({ firstOffset: 9, keys: ['p1-d'], producerId: 1, transactional: true }),
        marker(10, 3, false),
        marker(11, 1, true),
        batch({ firstOffset: 12, keys: ['p3-plain'], producerId: 3 }),
      ]),
    );
    // Listed out of order, as a broker may list them.
    const aborted = [
      { producerId: '3', firstOffset: '3' },
      { producerId: '1', firstOffset: '0' },
    ];

    const { records, batchesEnd } = await decodeCommittedRecords(data, aborted, gunzip, SOURCE);

    expect(keysOf(records)).toEqual(['p2-a', 'p1-d', 'p3-plain']);
    expect(records).toEqual(await reference(data, aborted));
    expect(batchesEnd).toBe(13);
    // With no aborted transaction listed, every data record is committed; markers still go.
    expect(keysOf((await decodeCommittedRecords(data, [], gunzip, SOURCE)).records)).toEqual([
      'p1-a',
      'p1-b',
      'p2-a',
      'p3-a',
      'p3-b',
      'p1-c',
      'p3-c',
      'p1-d',
      'p3-plain',
    ]);
  });

  it('decompresses a batch with the codec the client has, and fails with the client error for one it lacks', async () => {
    const data = await batch({ firstOffset: 40, keys: ['z1', 'z2', 'z3'], compression: GZIP });

    const { records, batchesEnd } = await decodeCommittedRecords(data, [], gunzip, SOURCE);

    expect(records).toEqual(await reference(data, []));
    expect(keysOf(records)).toEqual(['z1', 'z2', 'z3']);
    expect(batchesEnd).toBe(43);
    const snappy = Buffer.from(data);
    snappy.writeInt16BE((snappy.readInt16BE(ATTRIBUTES) & ~0x07) | 2, ATTRIBUTES);
    seal(snappy);
    await expect(decodeCommittedRecords(snappy, [], gunzip, SOURCE)).rejects.toThrow(
      'codec 2 is not registered',
    );
  });

  it("gives every record the batch's max timestamp when the topic uses the log's append time", async () => {
    const data = await batch({ firstOffset: 0, keys: ['a', 'b'] });
    data.writeInt16BE(data.readInt16BE(ATTRIBUTES) | 0x08, ATTRIBUTES);
    seal(data);

    const { records } = await decodeCommittedRecords(data, [], gunzip, SOURCE);

    expect(records.map((r) => r.timestamp)).toEqual([BASE_TIMESTAMP + 999, BASE_TIMESTAMP + 999]);
  });

  it('moves past a batch compaction emptied, and refuses an older message format and a record longer than its batch', async () => {
    const emptied = await batch({ firstOffset: 12, keys: [], lastOffsetDelta: 4 });
    expect(await decodeCommittedRecords(emptied, [], gunzip, SOURCE)).toEqual({
      records: [],
      batchesEnd: 17,
    });

    const old = await batch({ firstOffset: 0, keys: ['a'] });
    old.writeInt8(1, 16);
    await expect(decodeCommittedRecords(old, [], gunzip, SOURCE)).rejects.toThrow(
      'fetched records use message format 1; only record batches (2) are read',
    );

    const corrupt = await batch({ firstOffset: 0, keys: ['a'] });
    corrupt.writeUInt8(0x7e, 61); // the record's length varint: 63 bytes, past the batch
    seal(corrupt); // as its producer wrote it: the CRC matches
    await expect(decodeCommittedRecords(corrupt, [], gunzip, SOURCE)).rejects.toThrow(RangeError);
  });
});

describe('decodeCommittedRecords: CRC-32C check', () => {
  /** A whole batch before the one tampered with, and the one tampered with (offsets 103-105). */
  async function fetchOf(compression = 0): Promise<{ data: Buffer; second: number }> {
    const first = await batch({ firstOffset: 100, keys: ['a', 'b', 'c'] });
    const second = await batch({ firstOffset: 103, keys: ['d', 'e', 'f'], compression });
    return { data: Buffer.concat([first, second]), second: first.length };
  }

  /** The error decoding `data` fails with (the test fails when it does not fail). */
  async function failure(data: Buffer, decompress = gunzip): Promise<CorruptRecordBatchError> {
    const error: unknown = await decodeCommittedRecords(data, [], decompress, SOURCE).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(CorruptRecordBatchError);
    return error as CorruptRecordBatchError;
  }

  it('accepts the batches kafkajs encodes, with the check on by default', async () => {
    const { data } = await fetchOf();
    const { records } = await decodeCommittedRecords(data, [], gunzip, SOURCE);
    expect(keysOf(records)).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
    expect(records).toEqual(await reference(data, []));
  });

  it.each([
    ['a byte of a record value', (batch: Buffer) => batch.indexOf('v-e')],
    ['the attributes (the log-append-time flag)', () => ATTRIBUTES + 1],
    ['the last byte of the batch', (batch: Buffer) => batch.length - 1],
  ])(
    'refuses a batch with %s changed, naming the partition, its base offset and both CRCs, and returns nothing of the fetch',
    async (_, at) => {
      const { data, second } = await fetchOf();
      const stored = data.readUInt32BE(second + CRC);
      const flipped = second + at(data.subarray(second));
      data[flipped] ^= 0x08;

      const error = await failure(data);

      expect(error).toMatchObject({
        code: 'CORRUPT_RECORD_BATCH',
        retriable: true,
        topic: SOURCE.topic,
        partition: SOURCE.partition,
        baseOffset: 103,
        expectedCrc: stored,
        computedCrc: crc32c(data, second + ATTRIBUTES),
      });
      expect(error.computedCrc).not.toBe(stored);
      expect(error.message).toBe(
        `the record batch at offset 103 of app-store-changelog-3 is corrupt: its header's CRC-32C is 0x${stored.toString(16).padStart(8, '0')}, its bytes give 0x${error.computedCrc.toString(16).padStart(8, '0')}`,
      );
    },
  );

  it('checks a compressed batch over its compressed bytes, before decompressing it', async () => {
    const { data, second } = await fetchOf(GZIP);
    const decompressed: number[] = [];
    const spy: RecordsDecompressor = (codec, bytes) => {
      decompressed.push(codec);
      return gunzip(codec, bytes);
    };
    expect(keysOf((await decodeCommittedRecords(data, [], spy, SOURCE)).records)).toEqual([
      'a',
      'b',
      'c',
      'd',
      'e',
      'f',
    ]);
    expect(decompressed).toEqual([GZIP]);

    data[second + 61 + 20] ^= 0x01; // inside the gzip stream
    decompressed.length = 0;
    expect(await failure(data, spy)).toMatchObject({ baseOffset: 103 });
    expect(decompressed).toEqual([]);
    // Unchecked, the corrupt bytes reach the decompressor.
    await expect(
      decodeCommittedRecords(data, [], spy, { ...SOURCE, checkCrcs: false }),
    ).rejects.not.toBeInstanceOf(CorruptRecordBatchError);
    expect(decompressed).toEqual([GZIP]);
  });

  it('lets a corrupt batch through with checkCrcs false, as Java with check.crcs=false', async () => {
    const { data, second } = await fetchOf();
    data[second + data.subarray(second).indexOf('v-e') + 2] = 'x'.charCodeAt(0);

    const { records } = await decodeCommittedRecords(data, [], gunzip, {
      ...SOURCE,
      checkCrcs: false,
    });

    expect(records.map((r) => r.value?.toString())).toEqual([
      'v-a',
      'v-b',
      'v-c',
      'v-d',
      'v-x',
      'v-f',
    ]);
  });
});
