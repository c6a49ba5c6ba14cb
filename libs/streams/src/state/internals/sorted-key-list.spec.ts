import { SortedKeyList } from './sorted-key-list';

/** A small deterministic PRNG (mulberry32) so failures reproduce. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('SortedKeyList', () => {
  it('keeps keys sorted through random inserts and removes (across chunk splits)', () => {
    const next = random(7);
    const list = new SortedKeyList();
    const reference = new Set<string>();
    for (let step = 0; step < 20_000; step++) {
      const key = String.fromCharCode(Math.floor(next() * 256), Math.floor(next() * 256));
      if (next() < 0.7) {
        if (!reference.has(key)) {
          reference.add(key);
          list.insert(key);
        }
      } else {
        expect(list.remove(key)).toBe(reference.delete(key));
      }
    }
    const sorted = [...reference].sort();
    expect(list.size).toBe(sorted.length);
    expect([...list.ascending()]).toEqual(sorted);
    expect([...list.descending()]).toEqual([...sorted].reverse());
  });

  it('is built from sorted keys into half chunks that later inserts and removes keep sorted', () => {
    const keys = Array.from({ length: 1_500 }, (_, i) => `k${String(i * 2).padStart(5, '0')}`);
    const list = SortedKeyList.fromSorted(keys);
    expect(list.size).toBe(1_500);
    expect([...list.ascending()]).toEqual(keys);
    expect([...list.descending('k00010', 'k00016')]).toEqual([
      'k00016',
      'k00014',
      'k00012',
      'k00010',
    ]);
    list.insert('k00001');
    list.insert('k99999');
    expect(list.remove('k00000')).toBe(true);
    expect([...list.ascending(undefined, 'k00002')]).toEqual(['k00001', 'k00002']);
    expect([...list.descending()][0]).toBe('k99999');
    expect(list.size).toBe(1_501);
    expect([...SortedKeyList.fromSorted([]).ascending()]).toEqual([]);
  });

  it('seeks inclusive, exclusive and descending bounds', () => {
    const list = new SortedKeyList();
    for (const key of ['b', 'd', 'f', 'h']) {
      list.insert(key);
    }
    expect([...list.ascending('c', 'g')]).toEqual(['d', 'f']);
    expect([...list.ascending('d', 'f')]).toEqual(['d', 'f']);
    expect([...list.ascending('d', undefined, true)]).toEqual(['f', 'h']);
    expect([...list.descending('c', 'g')]).toEqual(['f', 'd']);
    expect([...list.descending('d', 'f')]).toEqual(['f', 'd']);
    expect([...list.descending(undefined, 'a')]).toEqual([]);
    expect([...list.ascending('i')]).toEqual([]);
  });

  it('orders latin1 byte strings by unsigned byte value', () => {
    const list = new SortedKeyList();
    for (const bytes of [[0x80], [0x7f], [0xff], [0x00], [0x7f, 0x00], []]) {
      list.insert(Buffer.from(bytes).toString('latin1'));
    }
    const inHex = [...list.ascending()].map((key) => Buffer.from(key, 'latin1').toString('hex'));
    expect(inHex).toEqual(['', '00', '7f', '7f00', '80', 'ff']);
  });

  it('never repeats or skips surviving keys when the list changes during iteration', () => {
    const list = new SortedKeyList();
    const keys = Array.from({ length: 3000 }, (_, i) => `k${String(i).padStart(5, '0')}`);
    keys.forEach((key) => list.insert(key));
    const seen: string[] = [];
    for (const key of list.ascending()) {
      seen.push(key);
      if (seen.length % 10 === 0) {
        list.remove(key); // the current key
        list.insert(`${key}x`); // a key right after it: seen, since it is ahead
      }
    }
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.filter((key) => !key.endsWith('x'))).toEqual(keys);

    const down: string[] = [];
    for (const key of list.descending()) {
      down.push(key);
      list.remove(key);
    }
    expect(down).toEqual([...down].sort().reverse());
    expect(list.size).toBe(0);
  });
});
