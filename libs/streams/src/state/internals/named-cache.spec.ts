import { NamedCache, type CacheBudget, type FlushedEntry } from './named-cache';
import { prng } from '../../../test-support/store-test-support';

const budget: CacheBudget = { charge: () => undefined, afterWrite: () => undefined };
const b = (text: string): Buffer => Buffer.from(text, 'latin1');

describe('NamedCache', () => {
  it('evicts the least recently used entry, flushing the dirty ones first', () => {
    const flushed: string[][] = [];
    const cache = new NamedCache('0_0-store', budget, (entries: FlushedEntry[]) =>
      flushed.push(entries.map((e) => e.key.toString())),
    );
    cache.putClean('a', b('a'), b('1'));
    cache.putDirty('b', b('b'), b('2'), 10);
    cache.putClean('c', b('c'), null);
    cache.get('a'); // a is now the most recently used
    cache.evictOne(); // b, dirty: every dirty entry is flushed first
    expect(flushed).toEqual([['b']]);
    expect(cache.peek('b')).toBeUndefined();
    cache.evictOne();
    expect(cache.peek('c')).toBeUndefined();
    expect(cache.size).toBe(1);
    cache.evictOne();
    cache.evictOne(); // empty: nothing to do
    expect(cache.size).toBe(0);
    expect(cache.evictions).toBe(3);
    // Entries added after the cache ran empty are evicted in order too.
    cache.putClean('d', b('d'), b('4'));
    cache.putClean('e', b('e'), b('5'));
    cache.evictOne();
    expect(cache.peek('d')).toBeUndefined();
    expect(cache.peek('e')).toBeDefined();
  });

  it('evicts in exact LRU order through random touches, writes, evictions and clears', () => {
    const random = prng(20261130);
    const cache = new NamedCache('0_1-store', budget, () => undefined);
    const model: string[] = []; // least recently used first
    const touch = (k: string): void => {
      const at = model.indexOf(k);
      if (at >= 0) model.splice(at, 1);
      model.push(k);
    };
    for (let op = 0; op < 20_000; op++) {
      const k = `k${Math.floor(random() * 300)}`;
      const r = random();
      if (r < 0.35) {
        if (cache.get(k) !== undefined) touch(k);
      } else if (r < 0.6) {
        cache.putDirty(k, b(k), b(String(op)), op);
        touch(k);
      } else if (r < 0.8) {
        if (cache.peek(k) === undefined) {
          cache.putClean(k, b(k), null);
          touch(k);
        }
      } else if (r < 0.9995) {
        const eldest = model.shift();
        cache.evictOne();
        if (eldest !== undefined) expect(cache.peek(eldest)).toBeUndefined();
      } else {
        cache.clear();
        model.length = 0;
      }
      expect(cache.size).toBe(model.length);
    }
    // Whatever is left goes in LRU order.
    for (const k of [...model]) {
      expect(cache.peek(k)).toBeDefined();
      cache.evictOne();
      expect(cache.peek(k)).toBeUndefined();
    }
  });
});
