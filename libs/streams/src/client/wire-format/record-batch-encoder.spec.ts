import { decodeCommittedRecords } from './committed-records-decoder';
import { KAFKAJS_RECORD_BATCHES } from '../../../test-support/kafkajs-record-batches';
import { encodeRecordBatch, type BatchRecord } from './record-batch-encoder';

// The reference is kafkajs' own batch and record encoders (what the produce request sent
// before this encoder): the bytes must be identical. The decoder (with its CRC check) must read
// back exactly what went in.
const { Long, RecordBatch, Record, Decoder, decodeBatch } = KAFKAJS_RECORD_BATCHES;
const NOW = 1_750_000_000_000;
const noDecompression = (): Promise<Buffer> => Promise.reject(new Error('not compressed'));
const SOURCE = { topic: 'app-store-changelog', partition: 0 };

interface Identity {
  producerId: bigint;
  producerEpoch: number;
  baseSequence: number;
  transactional: boolean;
}

/** The batch as kafkajs encodes it, with the timestamps the produce request computed. */
async function kafkajsBatch(records: readonly BatchRecord[], id: Identity): Promise<Buffer> {
  const stamps = records.map((r) => (r.timestamp == null ? NOW : Number(r.timestamp)));
  const given = records.filter((r) => r.timestamp != null).map((r) => Number(r.timestamp));
  const first = given.length > 0 ? Math.min(...given) : NOW;
  const { buffer } = await RecordBatch({
    firstTimestamp: first,
    maxTimestamp: given.length > 0 ? Math.max(...given) : NOW,
    lastOffsetDelta: records.length - 1,
    transactional: id.transactional,
    producerId: Long.fromValue(id.producerId.toString()),
    producerEpoch: id.producerEpoch,
    firstSequence: id.baseSequence,
    records: records.map((r, i) =>
      Record({
        offsetDelta: i,
        timestampDelta: stamps[i] - first,
        key: r.key,
        value: r.value,
        headers: r.headers,
      }),
    ),
  });
  return buffer;
}

const plain: Identity = {
  producerId: -1n,
  producerEpoch: 0,
  baseSequence: 0,
  transactional: false,
};
const transactional: Identity = {
  producerId: 4_000_000_123n,
  producerEpoch: 7,
  baseSequence: 1_234,
  transactional: true,
};

const cases: [string, BatchRecord[], Identity][] = [
  ['one record', [{ key: Buffer.from('k'), value: Buffer.from('v'), timestamp: NOW }], plain],
  [
    'null keys, tombstones, empty bytes',
    [
      { key: null, value: Buffer.from('no key'), timestamp: NOW },
      { key: Buffer.from('gone'), value: null, timestamp: NOW + 1 },
      { key: Buffer.alloc(0), value: Buffer.alloc(0), timestamp: NOW + 2 },
    ],
    plain,
  ],
  [
    'headers, repeated names, string and UTF-8 values',
    [
      {
        key: Buffer.from('k1'),
        value: Buffer.from('v1'),
        headers: { trace: Buffer.from('abc'), 'naïve-é': 'çà', multi: ['x', Buffer.from('y')] },
        timestamp: NOW,
      },
      { key: 'string key ✓', value: 'string value', timestamp: NOW },
    ],
    transactional,
  ],
  [
    'timestamps out of order, far apart and as strings',
    [
      { key: Buffer.from('a'), value: Buffer.from('1'), timestamp: String(NOW + 90_000_000) },
      { key: Buffer.from('b'), value: Buffer.from('2'), timestamp: NOW - 5 },
      { key: Buffer.from('c'), value: Buffer.from('3'), timestamp: String(NOW) },
    ],
    transactional,
  ],
  [
    'sizes across varint boundaries (63, 64, 8191, 8192, 300000 bytes)',
    [63, 64, 8191, 8192, 300_000].map((n, i) => ({
      key: Buffer.alloc(n % 200, 7),
      value: Buffer.alloc(n, i),
      timestamp: NOW + i * 1_000_000,
    })),
    plain,
  ],
  [
    '1,000 records (offset deltas past one varint byte)',
    Array.from({ length: 1000 }, (_, i) => ({
      key: Buffer.from(`user-${i % 37}`),
      value: Buffer.from(JSON.stringify({ count: i, sum: i * 3 })),
      headers: i % 3 === 0 ? { h: `v${i}` } : undefined,
      timestamp: NOW + i,
    })),
    { ...transactional, transactional: false },
  ],
];

describe('encodeRecordBatch', () => {
  it.each(cases)('%s: the same bytes as kafkajs encodes', async (_name, records, identity) => {
    const ours = encodeRecordBatch(records, identity, NOW);
    expect(ours.equals(await kafkajsBatch(records, identity))).toBe(true);
  });

  it.each(cases)('%s: the decoder reads back every record', async (_name, records, identity) => {
    const encoded = encodeRecordBatch(records, identity, NOW);
    // As the broker assigns it: base offset 500.
    encoded.writeBigInt64BE(500n, 0);
    const { records: decoded, batchesEnd } = await decodeCommittedRecords(
      encoded,
      [],
      noDecompression,
      SOURCE,
    );
    expect(batchesEnd).toBe(500 + records.length);
    expect(decoded).toHaveLength(records.length);
    decoded.forEach((d, i) => {
      const r = records[i];
      const bytes = (v: Buffer | string | null | undefined) =>
        v == null ? 'null' : Buffer.from(v as Buffer).toString('hex');
      expect(d.offset).toBe(500 + i);
      expect(d.key === null ? 'null' : d.key.toString('hex')).toBe(bytes(r.key));
      expect(d.value === null ? 'null' : d.value.toString('hex')).toBe(bytes(r.value));
      expect(d.timestamp).toBe(r.timestamp == null ? NOW : Number(r.timestamp));
    });
  });

  it('encodes records without timestamps at the encoding time', async () => {
    const records = [{ key: Buffer.from('k'), value: Buffer.from('v') }];
    const ours = encodeRecordBatch(records, plain, NOW);
    expect(ours.equals(await kafkajsBatch(records, plain))).toBe(true);
    const { records: decoded } = await decodeCommittedRecords(ours, [], noDecompression, SOURCE);
    expect(decoded[0].timestamp).toBe(NOW);
  });

  it('encodes a header without a value as length -1 (kafkajs cannot encode one)', async () => {
    const encoded = encodeRecordBatch(
      [{ key: null, value: Buffer.from('v'), headers: { empty: null, set: 'x' } }],
      plain,
      NOW,
    );
    // The changelog decoder leaves headers out; kafkajs' batch decoder reads them.
    const { records } = await decodeBatch(new Decoder(encoded));
    expect(records[0].headers).toEqual({ empty: null, set: Buffer.from('x') });
  });

  it('encodes no record as kafkajs does (last offset delta -1)', async () => {
    const ours = encodeRecordBatch([], plain, NOW);
    expect(ours.readInt32BE(23)).toBe(-1);
    expect(ours.equals(await kafkajsBatch([], plain))).toBe(true);
  });

  it('refuses a timestamp that is not an integer', () => {
    expect(() => encodeRecordBatch([{ key: null, value: null, timestamp: 'soon' }], plain)).toThrow(
      /record 0: timestamp soon is not an integer/,
    );
  });
});
