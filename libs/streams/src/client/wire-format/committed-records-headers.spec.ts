import { decodeCommittedRecords, type RecordsSource } from './committed-records-decoder';
import { KAFKAJS_RECORD_BATCHES } from '../../../test-support/kafkajs-record-batches';
import { encodeRecordBatch, type BatchRecord } from './record-batch-encoder';

// Batches are written by the engine's encoder (which writes headers with no value, unlike
// kafkajs'); the reference for the headers' shape is kafkajs' batch decoder, what the kafkajs
// consumer hands processors.
const { Decoder, decodeBatch } = KAFKAJS_RECORD_BATCHES;
const NOW = 1_750_000_000_000;
const noDecompression = (): Promise<Buffer> => Promise.reject(new Error('not compressed'));
const WITH_HEADERS: RecordsSource = { topic: 'input', partition: 0, headers: true };
const WITHOUT_HEADERS: RecordsSource = { topic: 'input', partition: 0 };

const RECORDS: readonly BatchRecord[] = [
  { key: 'none', value: 'v0' },
  { key: 'one', value: 'v1', headers: { trace: 'abc' } },
  {
    key: 'repeated',
    value: 'v2',
    headers: { multi: ['x', null, Buffer.from([0xff, 0x00])], single: Buffer.from([1, 2]) },
  },
  { key: 'null-and-empty', value: 'v3', headers: { absent: null, empty: '' } },
  { key: 'utf8', value: null, headers: { 'naïve-é 日本': 'çà', '': 'unnamed' } },
];

const batch = () => encodeRecordBatch(RECORDS, {}, NOW);

describe('decodeCommittedRecords: headers', () => {
  it("decodes each record's headers when asked: repeated names as arrays, null values, UTF-8 names", async () => {
    const data = batch();
    const { records } = await decodeCommittedRecords(data, [], noDecompression, WITH_HEADERS);

    expect(records.map((r) => r.headers)).toStrictEqual([
      {},
      { trace: Buffer.from('abc') },
      {
        multi: [Buffer.from('x'), null, Buffer.from([0xff, 0x00])],
        single: Buffer.from([1, 2]),
      },
      { absent: null, empty: Buffer.alloc(0) },
      { 'naïve-é 日本': Buffer.from('çà'), '': Buffer.from('unnamed') },
    ]);
    expect(Object.keys(records[2].headers!)).toEqual(['multi', 'single']); // record order
    expect((records[1].headers!.trace as Buffer).buffer).toBe(data.buffer); // a view, no copy
    expect(records.map((r) => [r.key?.toString(), r.offset, r.timestamp])).toEqual(
      RECORDS.map((r, i) => [r.key, i, NOW]),
    );
  });

  it('gives the headers kafkajs hands its consumers for the same bytes', async () => {
    const data = batch();
    const { records } = await decodeCommittedRecords(data, [], noDecompression, WITH_HEADERS);
    const reference = await decodeBatch(new Decoder(data));

    expect(records.map((r) => r.headers)).toEqual(reference.records.map((r) => r.headers));
  });

  it("keeps headers named like Object.prototype's properties as own values", async () => {
    const data = encodeRecordBatch(
      [{ key: null, value: 'v', headers: { toString: 'a', constructor: ['b', 'c'] } }],
      {},
      NOW,
    );
    // `__proto__` cannot be an object literal's own key: a record written with it by hand.
    const proto = encodeRecordBatch([{ key: null, value: 'v', headers: { __proto__x: 'p' } }]);
    const at = proto.indexOf('__proto__x');
    const renamed = Buffer.concat([
      proto.subarray(0, at - 1),
      Buffer.from([18]), // zigzag 9
      Buffer.from('__proto__'),
      proto.subarray(at + 10),
    ]);
    renamed.writeInt32BE(renamed.length - 12, 8);
    renamed[61] -= 2; // the record's length, one byte shorter (zigzag)

    const [named] = (await decodeCommittedRecords(data, [], noDecompression, WITH_HEADERS)).records;
    const [protoNamed] = (
      await decodeCommittedRecords(renamed, [], noDecompression, {
        ...WITH_HEADERS,
        checkCrcs: false,
      })
    ).records;

    // Compared as entries: an own `constructor` defeats a deep equality of the objects.
    expect(Object.getPrototypeOf(named.headers)).toBe(Object.prototype);
    expect(Object.entries(named.headers!)).toEqual([
      ['toString', Buffer.from('a')],
      ['constructor', [Buffer.from('b'), Buffer.from('c')]],
    ]);
    expect(Object.getPrototypeOf(protoNamed.headers)).toBe(Object.prototype);
    expect(Object.entries(protoNamed.headers!)).toEqual([['__proto__', Buffer.from('p')]]);
  });

  it('gives records no headers when not asked (the default), whatever they carry', async () => {
    const { records } = await decodeCommittedRecords(batch(), [], noDecompression, {
      ...WITH_HEADERS,
      headers: false,
    });
    const byDefault = await decodeCommittedRecords(batch(), [], noDecompression, WITHOUT_HEADERS);

    expect(records).toStrictEqual(
      RECORDS.map((r, i) => ({
        key: Buffer.from(r.key as string),
        value: r.value === null ? null : Buffer.from(r.value as string),
        timestamp: NOW,
        offset: i,
      })),
    );
    expect(byDefault.records).toStrictEqual(records);
    expect(records.some((r) => 'headers' in r)).toBe(false);
  });

  it('refuses headers that run past their record', async () => {
    const data = encodeRecordBatch(
      [
        { key: null, value: 'v', headers: { a: 'b' } },
        { key: null, value: 'w', headers: { c: 'd' } },
      ],
      {},
      NOW,
    );
    // The first record: length, attributes, timestamp and offset deltas, key (-1), value 'v',
    // then its header count (zigzag 1), made 2: the second header would be the next record.
    const count = 61 + 1 + 1 + 1 + 1 + 1 + 2;
    expect(data[count]).toBe(2);
    data[count] = 4;

    const unchecked = { ...WITH_HEADERS, checkCrcs: false };
    await expect(decodeCommittedRecords(data, [], noDecompression, unchecked)).rejects.toThrow(
      new RangeError('a record ends past its batch'),
    );
    // Not decoded, the headers are skipped by the record's length.
    const { records } = await decodeCommittedRecords(data, [], noDecompression, {
      ...unchecked,
      headers: false,
    });
    expect(records.map((r) => r.value?.toString())).toEqual(['v', 'w']);
  });
});
