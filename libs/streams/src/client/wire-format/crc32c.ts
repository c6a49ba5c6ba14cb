// CRC-32C (Castagnoli), the checksum of Kafka's record batches (message format 2), in
// TypeScript: slice-by-16 over sixteen 256-entry tables (16 KiB), reading the bytes four at a
// time through an Int32Array view on little-endian platforms (x86-64, arm64). On the 2-core
// benchmark machine it runs at about 1.8 GB/s over 10 KB batches (1 GB/s reading byte by byte;
// the addon's SSE4.2 instruction would do 6.6 GB/s): checking every batch a restore reads
// (390,000 records/s of about 100 bytes) costs about 2.5 % of one core.

/** The reflected Castagnoli polynomial (0x1EDC6F41 bit-reversed). */
const POLYNOMIAL = 0x82f63b78;

/** Sixteen tables, one after another: table k at [k * 256, k * 256 + 256). */
const TABLES = buildTables(16);

/** Whether an Int32Array reads the bytes of a word least significant first. */
const LITTLE_ENDIAN = new Uint8Array(Uint32Array.of(1).buffer)[0] === 1;

/** Ranges shorter than this are read byte by byte (no view is worth creating). */
const WORD_LOADS_FROM = 64;

function buildTables(count: number): Int32Array {
  const tables = new Int32Array(count * 256);
  for (let n = 0; n < 256; n++) {
    let crc = n;
    for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? (crc >>> 1) ^ POLYNOMIAL : crc >>> 1;
    tables[n] = crc;
  }
  for (let n = 0; n < 256; n++) {
    let crc = tables[n];
    for (let k = 1; k < count; k++) {
      crc = tables[crc & 0xff] ^ (crc >>> 8);
      tables[k * 256 + n] = crc;
    }
  }
  return tables;
}

/**
 * The CRC-32C of `data[start, end)`, as an unsigned 32-bit number (what a record batch header
 * stores at byte 17, read with `readUInt32BE`).
 */
export function crc32c(data: Uint8Array, start = 0, end = data.length): number {
  if (!LITTLE_ENDIAN || end - start < WORD_LOADS_FROM) return crc32cByteLoads(data, start, end);
  // Byte by byte up to a 4-byte boundary of the underlying memory, then 16 bytes at a time.
  const head = (4 - ((data.byteOffset + start) & 3)) & 3;
  let crc = byteByByte(-1, data, start, start + head);
  const at = start + head;
  const blocks = (end - at) >>> 4;
  crc = sliceWords(crc, new Int32Array(data.buffer, data.byteOffset + at, blocks * 4));
  return ~byteByByte(crc, data, at + blocks * 16, end) >>> 0;
}

/**
 * {@link crc32c} reading byte by byte, 16 bytes a step: what a big-endian platform runs
 * (exported for its test).
 */
export function crc32cByteLoads(data: Uint8Array, start = 0, end = data.length): number {
  const t = TABLES;
  let crc = -1;
  let at = start;
  const whole = start + ((end - start) & ~15);
  while (at < whole) {
    crc ^= data[at] | (data[at + 1] << 8) | (data[at + 2] << 16) | (data[at + 3] << 24);
    const w1 = data[at + 4] | (data[at + 5] << 8) | (data[at + 6] << 16) | (data[at + 7] << 24);
    const w2 = data[at + 8] | (data[at + 9] << 8) | (data[at + 10] << 16) | (data[at + 11] << 24);
    const w3 = data[at + 12] | (data[at + 13] << 8) | (data[at + 14] << 16) | (data[at + 15] << 24);
    crc = step(t, crc, w1, w2, w3);
    at += 16;
  }
  return ~byteByByte(crc, data, at, end) >>> 0;
}

/** Folds whole 16-byte blocks, read as little-endian words, into `crc`. */
function sliceWords(crc: number, words: Int32Array): number {
  const t = TABLES;
  for (let i = 0; i < words.length; i += 4) {
    crc = step(t, crc ^ words[i], words[i + 1], words[i + 2], words[i + 3]);
  }
  return crc;
}

/** One slice-by-16 step: the CRC after 16 bytes, given as four little-endian words. */
function step(t: Int32Array, w0: number, w1: number, w2: number, w3: number): number {
  return (
    t[3840 + (w0 & 0xff)] ^
    t[3584 + ((w0 >>> 8) & 0xff)] ^
    t[3328 + ((w0 >>> 16) & 0xff)] ^
    t[3072 + (w0 >>> 24)] ^
    t[2816 + (w1 & 0xff)] ^
    t[2560 + ((w1 >>> 8) & 0xff)] ^
    t[2304 + ((w1 >>> 16) & 0xff)] ^
    t[2048 + (w1 >>> 24)] ^
    t[1792 + (w2 & 0xff)] ^
    t[1536 + ((w2 >>> 8) & 0xff)] ^
    t[1280 + ((w2 >>> 16) & 0xff)] ^
    t[1024 + (w2 >>> 24)] ^
    t[768 + (w3 & 0xff)] ^
    t[512 + ((w3 >>> 8) & 0xff)] ^
    t[256 + ((w3 >>> 16) & 0xff)] ^
    t[w3 >>> 24]
  );
}

/** Folds `data[at, end)` into `crc` one byte at a time. */
function byteByByte(crc: number, data: Uint8Array, at: number, end: number): number {
  const t = TABLES;
  while (at < end) crc = t[(crc ^ data[at++]) & 0xff] ^ (crc >>> 8);
  return crc;
}
