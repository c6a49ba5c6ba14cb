import type { BytesStore } from '../bytes-store';

/** The reads and writes the read-modify-write calls are made of. */
type GetAndPut = Pick<BytesStore, 'get' | 'put'>;

/**
 * `putIfAbsent` through a store's own `get` and `put`: writes `value` only when `key` has none,
 * and returns the value it had. Errors are those of `get` and `put`.
 */
export function putIfAbsentThrough(
  store: GetAndPut,
  key: Buffer,
  value: Buffer,
): Buffer | undefined {
  const existing = store.get(key);
  if (existing === undefined) {
    store.put(key, value);
  }
  return existing;
}

/**
 * `delete` through a store's own `get` and `put`: writes a tombstone only when `key` has a
 * value, and returns that value. Errors are those of `get` and `put`.
 */
export function deleteThrough(store: GetAndPut, key: Buffer): Buffer | undefined {
  const existing = store.get(key);
  if (existing !== undefined) {
    store.put(key, null);
  }
  return existing;
}
