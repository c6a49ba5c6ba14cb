import { Serdes } from '../../../serde/serdes';
import type { Serde } from '../../../serde/serde';
import { Stores } from '../../stores';
import { testStoreContext } from '../../../../test-support/store-test-support';

/** A serde that records every serialization (value, topic) and delegates to `inner`. */
function counting<T>(inner: Serde<T>): { serde: Serde<T>; calls: [T, string | undefined][] } {
  const calls: [T, string | undefined][] = [];
  return {
    calls,
    serde: {
      serialize: (value, topic) => {
        calls.push([value, topic]);
        return inner.serialize(value, topic);
      },
      deserialize: (bytes, topic) => inner.deserialize(bytes, topic),
    },
  };
}

/**
 * An in-memory store `name` of longs, its keys serialized by a counting `keySerde`, cached or
 * not, initialized for application `app`; `calls` are the key serializations.
 */
async function storeCountingKeys<K>(name: string, keySerde: Serde<K>, caching: boolean) {
  const keys = counting(keySerde);
  const builder = Stores.keyValueStoreBuilder(
    Stores.inMemoryKeyValueStore(name),
    keys.serde,
    Serdes.Long(),
  );
  const store = (caching ? builder.withCachingEnabled() : builder).build();
  await store.init(testStoreContext({ applicationId: 'app' }));
  return { store, calls: keys.calls };
}

describe('MeteredStore key bytes', () => {
  it('serializes a string key once for consecutive reads and writes of it, and again after another key', async () => {
    const { store, calls } = await storeCountingKeys('counts', Serdes.String(), true);
    store.put('a', 1);
    store.put('a', Number(store.get('a') ?? 0) + 1);
    store.put('b', 5);
    store.put('a', Number(store.get('a') ?? 0) + 1);
    expect(store.get('a')).toBe(3);
    expect(store.get('b')).toBe(5);
    expect(calls).toEqual([
      ['a', 'app-counts-changelog'],
      ['b', 'app-counts-changelog'],
      ['a', 'app-counts-changelog'],
      ['b', 'app-counts-changelog'],
    ]);
  });

  it('serializes a Buffer key every time (its bytes may change between calls)', async () => {
    const { store, calls } = await storeCountingKeys('raw', Serdes.Bytes(), false);
    const key = Buffer.from('k1');
    store.put(key, 1);
    key.write('k2');
    store.put(key, 2);
    expect(calls).toHaveLength(2);
    expect(store.get(Buffer.from('k1'))).toBe(1);
    expect(store.get(Buffer.from('k2'))).toBe(2);
  });
});
