const MASK = (1n << 64n) - 1n;
const C1 = 0x87c37b91114253d5n;
const C2 = 0x4cf5ad432745937fn;
const N1 = 0x52dce729n;
const N2 = 0x38495ab5n;
/** Kafka Streams' `Murmur3.DEFAULT_SEED`. */
const SEED = 104729n;

function rotl(x: bigint, r: bigint): bigint {
  return ((x << r) | (x >> (64n - r))) & MASK;
}

function mul(a: bigint, b: bigint): bigint {
  return (a * b) & MASK;
}

function fmix64(h: bigint): bigint {
  h ^= h >> 33n;
  h = mul(h, 0xff51afd7ed558ccdn);
  h ^= h >> 33n;
  h = mul(h, 0xc4ceb9fe1a85ec53n);
  h ^= h >> 33n;
  return h;
}

/** Little-endian 64-bit word of `data` from `at`, `count` bytes (the rest zero). */
function word(data: Buffer, at: number, count: number): bigint {
  let k = 0n;
  for (let i = count - 1; i >= 0; i--) k = (k << 8n) | BigInt(data[at + i]);
  return k;
}

/**
 * MurmurHash3 x64 128 of `data` with Kafka Streams' seed (`Murmur3.hash128`), as the
 * foreign-key join hashes a row's serialized value to recognize the response to its latest
 * subscription: 16 bytes, the two 64-bit halves big-endian (as Kafka writes them).
 */
export function murmur3Hash128(data: Buffer): Buffer {
  let h1 = SEED;
  let h2 = SEED;
  const blocks = data.length >> 4;
  for (let i = 0; i < blocks; i++) {
    let k1 = word(data, i << 4, 8);
    let k2 = word(data, (i << 4) + 8, 8);
    k1 = mul(rotl(mul(k1, C1), 31n), C2);
    h1 ^= k1;
    h1 = (mul((rotl(h1, 27n) + h2) & MASK, 5n) + N1) & MASK;
    k2 = mul(rotl(mul(k2, C2), 33n), C1);
    h2 ^= k2;
    h2 = (mul((rotl(h2, 31n) + h1) & MASK, 5n) + N2) & MASK;
  }
  const tail = blocks << 4;
  const rest = data.length - tail;
  if (rest > 8) {
    const k2 = mul(rotl(mul(word(data, tail + 8, rest - 8), C2), 33n), C1);
    h2 ^= k2;
  }
  if (rest > 0) {
    const k1 = mul(rotl(mul(word(data, tail, Math.min(rest, 8)), C1), 31n), C2);
    h1 ^= k1;
  }
  const length = BigInt(data.length);
  h1 ^= length;
  h2 ^= length;
  h1 = (h1 + h2) & MASK;
  h2 = (h2 + h1) & MASK;
  h1 = fmix64(h1);
  h2 = fmix64(h2);
  h1 = (h1 + h2) & MASK;
  h2 = (h2 + h1) & MASK;
  const out = Buffer.allocUnsafe(16);
  out.writeBigUInt64BE(h1, 0);
  out.writeBigUInt64BE(h2, 8);
  return out;
}
