import { crc32c, crc32cByteLoads } from './crc32c';
import { locateKafkajs } from '../kafkajs/kafkajs-internals';

// kafkajs' own CRC-32C (a byte-at-a-time table, what it seals the batches it produces with).
const kafkajsCrc32c = locateKafkajs().load<(buffer: Buffer) => number>(
  './src/protocol/recordBatch/crc32C',
);

/** Pseudo-random bytes (a fixed seed). */
function noise(length: number): Buffer {
  const data = Buffer.alloc(length);
  let seed = 0x9e3779b9;
  for (let i = 0; i < data.length; i++) {
    seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0;
    data[i] = seed >>> 24;
  }
  return data;
}

describe.each([
  ['crc32c', crc32c],
  ['crc32cByteLoads', crc32cByteLoads],
])('%s', (_, crc) => {
  it('gives the check values of RFC 3720 (B.4) and of the CRC catalogue', () => {
    const ascending = Buffer.from(Array.from({ length: 32 }, (_, i) => i));
    expect(crc(Buffer.alloc(32))).toBe(0x8a9136aa);
    expect(crc(Buffer.alloc(32, 0xff))).toBe(0x62a8ab43);
    expect(crc(ascending)).toBe(0x46dd794e);
    expect(crc(Buffer.from(ascending).reverse())).toBe(0x113fdb5c);
    expect(crc(Buffer.from('123456789'))).toBe(0xe3069283);
    expect(crc(Buffer.alloc(0))).toBe(0);
    // Longer than the word loads' threshold: 4 KiB of zeros, and the check string 100 times.
    expect(crc(Buffer.alloc(4096))).toBe(kafkajsCrc32c(Buffer.alloc(4096)));
    expect(crc(Buffer.from('123456789'.repeat(100)))).toBe(
      kafkajsCrc32c(Buffer.from('123456789'.repeat(100))),
    );
  });

  it("agrees with kafkajs' CRC-32C on every alignment of a range and of its memory", () => {
    const lengths = [
      ...Array.from({ length: 40 }, (_, i) => i),
      63,
      64,
      65,
      79,
      80,
      81,
      127,
      1_000,
      10_033,
    ];
    for (let shift = 0; shift < 4; shift++) {
      const data = noise(20_000).subarray(shift); // a view whose memory starts `shift` bytes in
      for (let start = 0; start < 9; start++) {
        for (const length of lengths) {
          const end = start + length;
          expect(crc(data, start, end)).toBe(kafkajsCrc32c(data.subarray(start, end)));
        }
      }
      expect(crc(data, 3)).toBe(kafkajsCrc32c(data.subarray(3)));
      expect(crc(data)).toBe(kafkajsCrc32c(data));
    }
  });
});
