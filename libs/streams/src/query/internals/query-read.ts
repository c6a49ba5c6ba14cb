import type { ReadOnlyKeyValueStore } from '../../state/key-value-store';

/**
 * What a store offers interactive queries besides the read-only interface (the metered store
 * and the plain-value views over it): a read that never caches, whether reads are
 * synchronous, and the key's stored bytes.
 */
interface QueryReadable<K, V> {
  queryGet(key: K): V | undefined;
  readonly syncReads: boolean;
  keyBytes(key: K): Buffer;
}

/**
 * Reads `key` for an interactive query: through the store's `queryGet` when it has one (never
 * caches the read, so a query never evicts or flushes the record cache), else `get`.
 */
export function queryRead<K, V>(store: ReadOnlyKeyValueStore<K, V>, key: K): V | undefined {
  const readable = store as Partial<QueryReadable<K, V>>;
  return typeof readable.queryGet === 'function' ? readable.queryGet(key) : store.get(key);
}

/**
 * Whether `store` can answer any key synchronously (its engine reads synchronously), so a
 * query need not go through the engine's asynchronous read. Unknown stores: false.
 */
export function readsSynchronously(store: unknown): boolean {
  return (store as Partial<QueryReadable<unknown, unknown>>).syncReads === true;
}

/**
 * The bytes `store` holds `key` under (its key serde), or `undefined` when the store does not
 * say. Errors of the key serde propagate (a key the store could not hold either).
 */
export function storedKeyBytes<K>(store: unknown, key: K): Buffer | undefined {
  const readable = store as Partial<QueryReadable<K, unknown>>;
  return typeof readable.keyBytes === 'function' ? readable.keyBytes(key) : undefined;
}
