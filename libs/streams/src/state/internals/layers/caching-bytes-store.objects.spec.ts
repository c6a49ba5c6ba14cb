import { CachingBytesStore } from './caching-bytes-store';
import { ChangeLoggingBytesStore } from './change-logging-bytes-store';
import { InMemoryBytesStore } from '../in-memory-bytes.store';
import { KeyValueEngineLayer } from './key-value-engine-layer';
import { CACHE_ENTRY_OVERHEAD_BYTES } from '../named-cache';
import { testStoreContext } from '../../../../test-support/store-test-support';

// Reads for update: the cache keeps the typed value with its bytes, so an aggregation's next
// read of the key needs no deserialization.
const b = (text: string): Buffer => Buffer.from(text);

describe('CachingBytesStore reads for update', () => {
  async function open(cacheMaxBytes?: number) {
    const context = testStoreContext({ cacheMaxBytes });
    const memory = new InMemoryBytesStore('store');
    const store = new CachingBytesStore(
      new ChangeLoggingBytesStore(new KeyValueEngineLayer(memory)),
    );
    await store.init(context);
    const decoded: string[] = [];
    const decode = (bytes: Buffer) => {
      decoded.push(bytes.toString());
      return { text: bytes.toString() };
    };
    return { context, store, memory, decode, decoded };
  }

  it('returns the object the last putUpdated wrote, without decoding', async () => {
    const { store, decode, decoded } = await open();
    const written = { text: '1' };
    store.putUpdated(b('k'), b('1'), written);
    expect(store.getForUpdate(b('k'), decode)).toBe(written);
    expect(store.getForUpdate(b('k'), decode)).toBe(written);
    expect(decoded).toEqual([]);
    // Plain reads still answer bytes.
    expect(store.get(b('k'))?.toString()).toBe('1');
  });

  it('decodes a stored value once and keeps it; absent keys decode nothing', async () => {
    const { store, memory, decode, decoded } = await open();
    memory.put(b('k'), b('stored'));
    const first = store.getForUpdate(b('k'), decode);
    expect(first).toEqual({ text: 'stored' });
    expect(store.getForUpdate(b('k'), decode)).toBe(first);
    expect(store.getForUpdate(b('absent'), decode)).toBeUndefined();
    expect(decoded).toEqual(['stored']);
  });

  it('drops the kept object on a plain put, a delete, and forgetObject', async () => {
    const { store, decode, decoded } = await open();
    store.putUpdated(b('k'), b('1'), { text: 'kept' });
    store.put(b('k'), b('2'));
    expect(store.getForUpdate(b('k'), decode)).toEqual({ text: '2' });
    store.putUpdated(b('k'), b('3'), { text: 'kept' });
    store.delete(b('k'));
    expect(store.getForUpdate(b('k'), decode)).toBeUndefined();
    store.putUpdated(b('k'), b('4'), { text: 'mutated by a failed update' });
    store.forgetObject(b('k'));
    expect(store.getForUpdate(b('k'), decode)).toEqual({ text: '4' });
    expect(decoded).toEqual(['2', '4']);
  });

  it('flushes the bytes that were written, whatever became of the object', async () => {
    const { store, memory, context } = await open();
    const aggregate = { text: '1' };
    store.putUpdated(b('k'), b('1'), aggregate);
    aggregate.text = 'mutated after the write';
    await store.flush();
    expect(memory.get(b('k'))?.toString()).toBe('1');
    expect(context.recordCollector.records.map((r) => `${r.key}=${r.value}`)).toEqual(['k=1']);
  });

  it('charges a kept object its serialized size again, and releases it when dropped', async () => {
    const { store, decode } = await open();
    const plain = 2 * 1 + 10 + CACHE_ENTRY_OVERHEAD_BYTES;
    store.put(b('k'), b('0123456789'));
    expect(store.cacheStats().sizeBytes).toBe(plain);
    store.getForUpdate(b('k'), decode);
    expect(store.cacheStats().sizeBytes).toBe(plain + 10);
    store.put(b('k'), b('0123456789'));
    expect(store.cacheStats().sizeBytes).toBe(plain);
  });

  it('decodes without keeping when the cache cannot hold the entry', async () => {
    const { store, memory, decode, decoded } = await open(0);
    memory.put(b('k'), b('stored'));
    expect(store.getForUpdate(b('k'), decode)).toEqual({ text: 'stored' });
    expect(store.getForUpdate(b('k'), decode)).toEqual({ text: 'stored' });
    expect(decoded).toEqual(['stored', 'stored']);
  });
});
