import { SyncReadUnavailableError } from '../../../errors/sync-read-unavailable.error';
import { CachingBytesStore } from './caching-bytes-store';
import { ChangeLoggingBytesStore } from './change-logging-bytes-store';
import { InMemoryBytesStore } from '../in-memory-bytes.store';
import { KeyValueEngineLayer } from './key-value-engine-layer';
import { AsyncOnlyBytesStore, testStoreContext } from '../../../../test-support/store-test-support';

const b = (text: string): Buffer => Buffer.from(text);
const str = (value: Buffer | null | undefined): string | null | undefined =>
  value === undefined ? undefined : value === null ? null : value.toString();

describe('CachingBytesStore', () => {
  async function open(options: { cacheMaxBytes?: number; asyncOnly?: boolean } = {}) {
    const context = testStoreContext({ cacheMaxBytes: options.cacheMaxBytes });
    const memory = new InMemoryBytesStore('store');
    const engine = options.asyncOnly ? new AsyncOnlyBytesStore(memory) : memory;
    const store = new CachingBytesStore(
      new ChangeLoggingBytesStore(new KeyValueEngineLayer(engine)),
    );
    await store.init(context);
    const flushed: string[] = [];
    store.setFlushListener((key, value, old, ts) => {
      flushed.push(`${key}:${str(old)}->${str(value)}@${ts}`);
    }, true);
    return { context, store, memory, engine, collector: context.recordCollector, flushed };
  }

  it('collapses same-key writes; only the flush reaches the store and the changelog', async () => {
    const { context, store, memory, collector, flushed } = await open();
    for (let i = 1; i <= 3; i++) {
      context.timestamp = i;
      store.put(b('k'), b(String(i)));
    }
    expect(str(store.get(b('k')))).toBe('3');
    expect(memory.get(b('k'))).toBeUndefined();
    expect(collector.records).toHaveLength(0);

    await store.flush();
    expect(str(memory.get(b('k')))).toBe('3');
    expect(collector.records.map((r) => `${r.key}=${r.value}@${r.timestamp}`)).toEqual(['k=3@3']);
    expect(flushed).toEqual(['k:null->3@3']);
  });

  it('hands old and new values to the flush listener', async () => {
    const { store, flushed } = await open();
    store.put(b('k'), b('1'));
    await store.flush();
    store.put(b('k'), b('2'));
    store.put(b('k'), b('3'));
    await store.flush();
    expect(flushed).toEqual(['k:null->1@0', 'k:1->3@0']);
  });

  it('serves reads from the cache first and counts hits and misses', async () => {
    const { store, memory } = await open();
    memory.put(b('a'), b('1'));
    expect(str(store.get(b('a')))).toBe('1'); // miss, then cached
    memory.put(b('a'), b('changed behind the cache'));
    expect(str(store.get(b('a')))).toBe('1'); // hit
    expect(store.cacheStats()).toMatchObject({ hits: 1, misses: 1, entries: 1 });
  });

  it('turns deletes into dirty tombstones and logs them on flush', async () => {
    const { store, memory, collector } = await open();
    memory.put(b('a'), b('1'));
    expect(str(store.delete(b('a')))).toBe('1');
    expect(store.get(b('a'))).toBeUndefined();
    expect(str(memory.get(b('a')))).toBe('1');
    await store.flush();
    expect(memory.get(b('a'))).toBeUndefined();
    expect(collector.records.map((r) => [String(r.key), r.value])).toEqual([['a', null]]);
  });

  it('drops a delete of a key the store never held when it forwards flushes, as Kafka Streams does', async () => {
    const { store, memory, collector, flushed } = await open();
    store.put(b('ghost'), null);
    store.put(b('k'), b('1'));
    store.put(b('gone'), b('2'));
    store.delete(b('gone'));
    await store.flush();
    expect(flushed).toEqual(['k:null->1@0']);
    expect(collector.records.map((r) => String(r.key))).toEqual(['k']);
    expect(memory.get(b('ghost'))).toBeUndefined();
  });

  it('merges dirty entries into ranges, hiding dirty deletes', async () => {
    const { store, memory } = await open();
    for (const k of ['a', 'c', 'e']) memory.put(b(k), b(`${k}0`));
    store.put(b('b'), b('b1'));
    store.put(b('c'), b('c1'));
    store.put(b('e'), null);
    store.put(b('f'), b('f1'));
    const text = (it: Iterable<{ key: Buffer; value: Buffer }>) =>
      [...it].map((e) => `${e.key}=${e.value}`);
    expect(text(store.all())).toEqual(['a=a0', 'b=b1', 'c=c1', 'f=f1']);
    expect(text(store.reverseAll())).toEqual(['f=f1', 'c=c1', 'b=b1', 'a=a0']);
    expect(text(store.range(b('b'), b('e')))).toEqual(['b=b1', 'c=c1']);
    expect(text(store.reverseRange(b('b'), b('e')))).toEqual(['c=c1', 'b=b1']);
    expect(text(await store.rangeAsync(b('a'), b('c')))).toEqual(['a=a0', 'b=b1', 'c=c1']);
    store.put(b('fz'), b('x'));
    expect(text(store.prefixScan(b('f')))).toEqual(['f=f1', 'fz=x']);
    expect(text(await store.prefixScanAsync(b('f')))).toEqual(['f=f1', 'fz=x']);
  });

  it('flushes all dirty entries, in order, when evicting a dirty one', async () => {
    // Room for about two entries.
    const { store, memory, collector } = await open({ cacheMaxBytes: 230 });
    store.put(b('a'), b('1'));
    store.put(b('b'), b('2'));
    expect(collector.records).toHaveLength(0);
    store.put(b('c'), b('3')); // evicts a: flushes every dirty entry, in write order
    expect(collector.records.map((r) => String(r.key))).toEqual(['a', 'b', 'c']);
    expect(str(memory.get(b('a')))).toBe('1');
    expect(str(store.get(b('a')))).toBe('1'); // read back from the store
  });

  it('serves interactive queries without caching the read, so a query never flushes', async () => {
    // Room for about two entries, both dirty: a caching read of a third key would evict one
    // and flush both (changelog writes, forwards) from inside the query.
    const { store, memory, collector, flushed } = await open({ cacheMaxBytes: 230 });
    memory.put(b('x'), b('stored'));
    store.put(b('a'), b('1'));
    store.put(b('b'), b('2'));
    expect(str(store.getWithoutCaching(b('x')))).toBe('stored');
    expect(str(store.getWithoutCaching(b('a')))).toBe('1'); // the cached, unflushed value
    expect(store.getWithoutCaching(b('missing'))).toBeUndefined();
    expect(collector.records).toHaveLength(0);
    expect(flushed).toEqual([]);
    expect(store.cacheStats().entries).toBe(2);
    // The processing read of the same key is cached, and here evicts and flushes.
    expect(str(store.get(b('x')))).toBe('stored');
    expect(collector.records.map((r) => String(r.key))).toEqual(['a', 'b']);
  });

  it('writes through at once with a zero-byte cache', async () => {
    const { store, collector, flushed } = await open({ cacheMaxBytes: 0 });
    store.put(b('a'), b('1'));
    store.put(b('a'), b('2'));
    expect(collector.records.map((r) => `${r.key}=${r.value}`)).toEqual(['a=1', 'a=2']);
    expect(flushed).toEqual(['a:null->1@0', 'a:1->2@0']);
  });

  it('shares one byte budget between stores through namespaces', async () => {
    const context = testStoreContext();
    const one = new CachingBytesStore(new KeyValueEngineLayer(new InMemoryBytesStore('one')));
    const two = new CachingBytesStore(new KeyValueEngineLayer(new InMemoryBytesStore('two')));
    await one.init(context);
    await two.init(context);
    one.put(b('a'), b('1'));
    two.put(b('a'), b('1'));
    expect(context.cache.stats()).toMatchObject({ namespaces: 2, entries: 2 });
    await one.close();
    expect(context.cache.stats()).toMatchObject({ namespaces: 1, entries: 1 });
  });

  describe('engines without synchronous reads', () => {
    it('prefetches a batch with one multi-get, then reads synchronously', async () => {
      const { store, memory, engine } = await open({ asyncOnly: true });
      memory.put(b('a'), b('1'));
      await store.prefetch([b('a'), b('b'), b('a')]);
      expect((engine as AsyncOnlyBytesStore).getManyAsyncCalls).toBe(1);
      expect(str(store.get(b('a')))).toBe('1');
      expect(store.get(b('b'))).toBeUndefined();
      expect(() => store.get(b('never'))).toThrow(SyncReadUnavailableError);
    });

    it('keeps prefetched keys readable after the cache evicted them', async () => {
      const { store, memory } = await open({ asyncOnly: true, cacheMaxBytes: 120 });
      memory.put(b('a'), b('1'));
      memory.put(b('b'), b('2'));
      await store.prefetch([b('a'), b('b')]);
      store.put(b('c'), b('3'));
      store.put(b('b'), b('22'));
      expect(str(store.get(b('a')))).toBe('1');
      expect(str(store.get(b('b')))).toBe('22');
      expect(str(store.get(b('c')))).toBe('3');
    });

    it("keeps a slice's reads while the next slice's prefetch is in flight; writes made meanwhile win", async () => {
      const { store, memory } = await open({ asyncOnly: true, cacheMaxBytes: 120 });
      memory.put(b('a'), b('1'));
      memory.put(b('b'), b('2'));
      memory.put(b('c'), b('3'));
      await store.prefetch([b('a'), b('b')]); // the slice being processed
      const next = store.prefetch([b('b'), b('c')]); // the next slice's, on the pool meanwhile
      store.put(b('x'), b('9')); // evicts (a small cache): a is read from the slice's set
      store.put(b('b'), b('22'));
      expect(str(store.get(b('a')))).toBe('1');
      expect(str(store.get(b('b')))).toBe('22');
      await next;
      expect(str(store.get(b('b')))).toBe('22'); // not the value read before the write
      expect(str(store.get(b('c')))).toBe('3');
      await store.prefetch([b('c')]); // a third prefetch drops the first slice's set
      expect(() => store.get(b('a'))).toThrow(SyncReadUnavailableError);
    });

    it('deletes blind a key it never loaded', async () => {
      const { store, memory, collector } = await open({ asyncOnly: true });
      memory.put(b('a'), b('1'));
      expect(store.delete(b('a'))).toBeUndefined();
      await store.flush();
      expect(memory.get(b('a'))).toBeUndefined();
      expect(collector.records.map((r) => r.value)).toEqual([null]);
    });

    it('serves getAsync from the cache, then the engine', async () => {
      const { store, memory } = await open({ asyncOnly: true });
      memory.put(b('a'), b('1'));
      store.put(b('b'), b('2'));
      expect(str(await store.getAsync(b('a')))).toBe('1');
      expect(str(await store.getAsync(b('b')))).toBe('2');
      expect((await store.getManyAsync([b('a'), b('b'), b('z')])).map(str)).toEqual([
        '1',
        '2',
        undefined,
      ]);
    });
  });

  it('flushes on close and then refuses use', async () => {
    const { store, memory } = await open();
    store.put(b('a'), b('1'));
    await store.close();
    await memory.open(); // the in-memory engine dropped its data on close...
    expect(() => store.get(b('a'))).toThrow(/not initialized/);
  });
});
