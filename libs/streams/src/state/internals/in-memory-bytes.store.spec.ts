import { describeBytesStoreContract } from '../../../test-support/bytes-store.contract';
import { InMemoryBytesStore } from './in-memory-bytes.store';

describeBytesStoreContract('InMemoryBytesStore', (name) => new InMemoryBytesStore(name));

describe('InMemoryBytesStore', () => {
  it('sees writes made during an iteration ahead of the cursor, weakly consistently', async () => {
    const store = new InMemoryBytesStore('weak');
    await store.open();
    store.put(Buffer.from('a'), Buffer.from('1'));
    store.put(Buffer.from('c'), Buffer.from('3'));
    const seen: string[] = [];
    for (const { key } of store.all()) {
      seen.push(key.toString());
      if (key.toString() === 'a') {
        store.put(Buffer.from('b'), Buffer.from('2'));
        store.put(Buffer.from('c'), null);
        store.put(Buffer.from('d'), Buffer.from('4'));
      }
    }
    expect(seen).toEqual(['a', 'b', 'd']);
  });

  it('drops its data on close (it is rebuilt from the changelog, as in Kafka Streams)', async () => {
    const store = new InMemoryBytesStore('volatile');
    await store.open();
    store.put(Buffer.from('a'), Buffer.from('1'));
    await store.close();
    await store.open();
    expect(store.approximateNumEntries()).toBe(0);
  });
});
