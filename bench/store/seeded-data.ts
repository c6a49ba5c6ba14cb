/**
 * Deterministic benchmark data: the same keys, values and orders for every engine and run.
 */

/** mulberry32: a small, fast, seeded PRNG returning floats in [0, 1). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A Fisher-Yates shuffle of `0 .. n-1`. */
export function shuffledIndexes(n: number, random: () => number): Uint32Array {
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    order[i] = i;
  }
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    const swap = order[i];
    order[i] = order[j];
    order[j] = swap;
  }
  return order;
}

/** The data set of one run. */
export interface BenchData {
  /** Key `i` is `user-` + `i` zero-padded to 10 digits (UTF-8, 15 bytes): sorted by index. */
  readonly keys: readonly Buffer[];
  /** Value of key `i` (a pool of random values, `valueSize` bytes each). */
  value(index: number): Buffer;
  /** Insertion order. */
  readonly writeOrder: Uint32Array;
  /** Read order (a different shuffle). */
  readonly readOrder: Uint32Array;
}

const VALUE_POOL = 4096;

/** Builds `count` keys and a pool of random values of `valueSize` bytes from `seed`. */
export function buildBenchData(count: number, valueSize: number, seed: number): BenchData {
  const random = seededRandom(seed);
  const keys = Array.from({ length: count }, (_, i) =>
    Buffer.from(`user-${String(i).padStart(10, '0')}`),
  );
  const pool = Array.from({ length: VALUE_POOL }, () => {
    const value = Buffer.allocUnsafe(valueSize);
    for (let i = 0; i < valueSize; i++) {
      value[i] = Math.floor(random() * 256);
    }
    return value;
  });
  return {
    keys,
    value: (index) => pool[index % VALUE_POOL],
    writeOrder: shuffledIndexes(count, random),
    readOrder: shuffledIndexes(count, random),
  };
}
