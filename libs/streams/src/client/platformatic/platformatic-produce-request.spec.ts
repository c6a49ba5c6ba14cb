import {
  NumericMap,
  produceV3,
  produceV9,
  produceV11,
  type MessageRecord,
} from '@platformatic/kafka';
import { encodeRecordBatch, type BatchRecord } from '../wire-format/record-batch-encoder';
import {
  commonProduceVersion,
  writeProduceRequest,
  type EncodedTopic,
  type ProduceVersion,
} from './platformatic-produce-request';

/** Hex bytes, a comment after `#` on each line. */
const bytes = (hex: string) => Buffer.from(hex.replace(/#.*$/gm, '').replace(/\s+/g, ''), 'hex');

describe('writeProduceRequest', () => {
  const topics: EncodedTopic[] = [
    { topic: 'ab', partitions: [{ partition: 1, batch: Buffer.from([0xaa, 0xbb, 0xcc]) }] },
  ];

  it('writes v3 to v8 with int16 strings, int32 arrays and int32-sized records', () => {
    expect(writeProduceRequest(3, null, -1, 5000, topics).buffer).toEqual(
      bytes(`
        ffff                  # transactional id: null
        ffff                  # acks -1
        00001388              # timeout 5000
        00000001 0002 6162    # one topic, "ab"
        00000001 00000001     # one partition, 1
        00000003 aabbcc       # records: 3 bytes`),
    );
    expect(writeProduceRequest(8, 'tx', -1, 1, topics).buffer).toEqual(
      bytes('0002 7478 ffff 00000001 00000001 0002 6162 00000001 00000001 00000003 aabbcc'),
    );
  });

  it('writes v9 and newer compact, with tagged fields after each topic, partition and the body', () => {
    expect(writeProduceRequest(11, 'tx', -1, 5000, topics).buffer).toEqual(
      bytes(`
        03 7478               # transactional id "tx" (length + 1)
        ffff 00001388         # acks -1, timeout 5000
        02 03 6162            # one topic (count + 1), "ab"
        02 00000001           # one partition, 1
        04 aabbcc 00          # records: 3 bytes (length + 1); the partition's tagged fields
        00                    # the topic's tagged fields
        00                    # the body's tagged fields`),
    );
    expect(writeProduceRequest(9, null, -1, 5000, []).buffer).toEqual(
      bytes('00 ffff 00001388 01 00'),
    );
  });

  describe("gives platformatic's own request bytes for the engine's record batches", () => {
    const records: BatchRecord[] = [
      { key: Buffer.from('k1'), value: Buffer.from('v1'), timestamp: 1_700_000_000_000 },
      { key: null, value: Buffer.from('no key'), timestamp: 1_700_000_000_005 },
      {
        key: Buffer.from('k3'),
        value: null,
        timestamp: 1_700_000_000_005,
        headers: { h1: Buffer.from('text'), h2: Buffer.from([0, 255]) },
      },
    ];
    const message = (topic: string, partition: number, r: BatchRecord): MessageRecord => ({
      topic,
      partition,
      key: (r.key ?? undefined) as Buffer | undefined,
      value: r.value as Buffer,
      timestamp: BigInt(r.timestamp as number),
      headers: r.headers
        ? new Map(Object.entries(r.headers).map(([n, v]) => [Buffer.from(n), v as Buffer]))
        : new Map(),
    });
    const cases: [ProduceVersion, typeof produceV11.createRequest][] = [
      [3, produceV3.createRequest],
      [9, produceV9.createRequest],
      [11, produceV11.createRequest],
    ];

    for (const [version, platformatic] of cases) {
      it(`v${version}, idempotent and transactional`, () => {
        for (const transactionalId of [undefined, 'app-1-0_1']) {
          const producerId = 4711n;
          const producerEpoch = 3;
          // Partitions ascending within a topic: platformatic groups them by number.
          const layout: [string, number, BatchRecord[], number][] = [
            ['changelog', 0, records, 17],
            ['changelog', 4, records.slice(0, 2), 0],
            ['out', 2, records.slice(2), 1_000_000],
          ];
          const sequences = new NumericMap();
          for (const [topic, partition, , sequence] of layout) {
            sequences.set(`${topic}:${partition}`, sequence);
          }
          const expected = platformatic(
            -1,
            30_000,
            layout.flatMap(([topic, partition, rs]) => rs.map((r) => message(topic, partition, r))),
            { producerId, producerEpoch, sequences, transactionalId, compression: 'none' },
          ).buffer;

          const encoded = new Map<string, EncodedTopic & { partitions: unknown[] }>();
          for (const [topic, partition, rs, baseSequence] of layout) {
            let entry = encoded.get(topic);
            if (!entry) encoded.set(topic, (entry = { topic, partitions: [] }));
            entry.partitions.push({
              partition,
              batch: encodeRecordBatch(rs, {
                producerId,
                producerEpoch,
                baseSequence,
                transactional: transactionalId !== undefined,
              }),
            });
          }
          const ours = writeProduceRequest(version, transactionalId ?? null, -1, 30_000, [
            ...encoded.values(),
          ]).buffer;
          expect(ours.toString('hex')).toBe(expected.toString('hex'));
        }
      });
    }
  });
});

describe('commonProduceVersion', () => {
  it('takes the newest version both speak, from v3 to v11', () => {
    expect(commonProduceVersion(3, 12)).toBe(11);
    expect(commonProduceVersion(0, 9)).toBe(9);
    expect(commonProduceVersion(3, 3)).toBe(3);
    expect(commonProduceVersion(0, 2)).toBeUndefined();
    expect(commonProduceVersion(12, 13)).toBeUndefined();
  });
});
