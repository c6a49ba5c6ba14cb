import { locateKafkajs } from './kafkajs-internals';
import { decodeRecordV0, type KafkajsDecoder, type RecordBatchContext } from './record-v0-decoder';

const kafkajs = locateKafkajs();
type RecordEncoder = (record: {
  offsetDelta?: number;
  timestampDelta?: number | bigint;
  key: Buffer | null;
  value: Buffer | null;
  headers?: Record<string, Buffer | null | (Buffer | null)[]>;
}) => { buffer: Buffer };
const encodeRecord = kafkajs.load<RecordEncoder>('./src/protocol/recordBatch/record/v0');
const Decoder = kafkajs.load<new (buffer: Buffer) => KafkajsDecoder>('./src/protocol/decoder');
// Under Jest, kafkajs' own require gets its original module (the fixes pre-seed Node's cache).
const original = kafkajs.load<typeof decodeRecordV0>(
  './src/protocol/recordBatch/record/v0/decoder',
);

/** A decoder over one record's body, as kafkajs' batch decoder hands it over. */
function bodyOf(record: Parameters<RecordEncoder>[0]): () => KafkajsDecoder {
  const encoded = new Decoder(encodeRecord(record).buffer);
  const body = encoded.readVarIntBytes()!;
  return () => new Decoder(body);
}

function context(overrides: Partial<RecordBatchContext> = {}): RecordBatchContext {
  return {
    firstOffset: '1000',
    firstTimestamp: '1700000000000',
    magicByte: 2,
    isControlBatch: false,
    timestampType: 0,
    maxTimestamp: '1700000009999',
    ...overrides,
  };
}

describe('decodeRecordV0 (kafkajs replacement)', () => {
  const cases: [string, Parameters<RecordEncoder>[0], RecordBatchContext][] = [
    [
      'a plain record',
      { offsetDelta: 3, timestampDelta: 42, key: Buffer.from('k'), value: Buffer.from('v') },
      context(),
    ],
    [
      'null key and value',
      { offsetDelta: 0, timestampDelta: 0, key: null, value: null },
      context(),
    ],
    [
      'a negative timestamp delta',
      { offsetDelta: 7, timestampDelta: -1234567, key: Buffer.from('k'), value: Buffer.alloc(0) },
      context(),
    ],
    [
      'a large timestamp delta (more than 7 varlong bytes)',
      {
        offsetDelta: 1,
        timestampDelta: 2n ** 52n + 5n,
        key: Buffer.from('k'),
        value: Buffer.from('v'),
      },
      context(),
    ],
    [
      'a large negative timestamp delta',
      {
        offsetDelta: 1,
        timestampDelta: -(2n ** 55n),
        key: Buffer.from('k'),
        value: Buffer.from('v'),
      },
      context(),
    ],
    [
      'offsets beyond 2^53',
      { offsetDelta: 99, timestampDelta: 1, key: Buffer.from('k'), value: Buffer.from('v') },
      context({ firstOffset: '9007199254740990' }),
    ],
    [
      'a timestamp base beyond 2^53',
      { offsetDelta: 2, timestampDelta: 3, key: Buffer.from('k'), value: Buffer.from('v') },
      context({ firstTimestamp: '9223372036854775000' }),
    ],
    [
      'a log-append-time batch',
      { offsetDelta: 2, timestampDelta: 5, key: Buffer.from('k'), value: Buffer.from('v') },
      context({ timestampType: 1 }),
    ],
    [
      'a control record',
      {
        offsetDelta: 0,
        timestampDelta: 0,
        key: Buffer.from([0, 0, 0, 1]),
        value: Buffer.from([0, 0, 0, 0, 0, 0]),
      },
      context({ isControlBatch: true }),
    ],
    [
      'headers, repeated keys and an empty value',
      {
        offsetDelta: 4,
        timestampDelta: 9,
        key: Buffer.from('k'),
        value: Buffer.from('v'),
        headers: {
          a: Buffer.from('1'),
          b: [Buffer.from('2'), Buffer.from('3'), Buffer.alloc(0)],
        },
      },
      context(),
    ],
  ];

  it.each(cases)('decodes %s exactly as kafkajs 2.2.4 does', (_, record, batch) => {
    const body = bodyOf(record);
    const ours = body();
    const theirs = body();
    expect(decodeRecordV0(ours, batch)).toEqual(original(theirs, batch));
    expect(ours.offset).toBe(theirs.offset);
  });

  it('decodes every record of a batch against the same base, with one parse of it', () => {
    const batch = context({ firstOffset: '500', firstTimestamp: '1000' });
    const decoded = [0, 1, 2].map((i) =>
      decodeRecordV0(
        bodyOf({ offsetDelta: i, timestampDelta: i * 10, key: null, value: null })(),
        batch,
      ),
    );
    expect(decoded.map((r) => [r.offset, r.timestamp])).toEqual([
      ['500', '1000'],
      ['501', '1010'],
      ['502', '1020'],
    ]);
  });

  it.each(['toString', '__proto__'])(
    'makes a header named %s its value (kafkajs made it an array starting with what Object.prototype holds)',
    (name) => {
      const body = bodyOf({ key: null, value: null, headers: { [name]: Buffer.from('x') } });
      const headers = decodeRecordV0(body(), context()).headers;
      expect(Object.getOwnPropertyDescriptor(headers, name)?.value).toEqual(Buffer.from('x'));
      expect(Object.getPrototypeOf(headers)).toBe(Object.prototype);
      const theirs = original(body(), context()).headers;
      expect(Array.isArray(Object.getOwnPropertyDescriptor(theirs, name)?.value)).toBe(true);
    },
  );
});
