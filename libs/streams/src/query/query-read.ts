import type { ReadOnlyKeyValueStore } from '../state/key-value-store';

/** A store that offers a read for interactive queries besides `get` (the metered store). */
interface QueryReadable<K, V> {
  queryGet(key: K): V | undefined;
}

/**
 * Reads `key` for an interactive query: through the store's `queryGet` when it has one (never
 * caches the read, so a query never evicts or flushes the record cache), else `get`.
 */
export function queryRead<K, V>(store: ReadOnlyKeyValueStore<K, V>, key: K): V | undefined {
  const readable = store as Partial<QueryReadable<K, V>>;
  return typeof readable.queryGet === 'function' ? readable.queryGet(key) : store.get(key);
}
