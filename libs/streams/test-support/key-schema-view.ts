import type { KeyValueBytes } from '../src/state/bytes-store';
import type { StoreLayer, StoreRange } from '../src/state/internals/layers/store-layer';

/**
 * What the session and window views share: a write that reports the store key it applied, and
 * reads of a key schema's range (`undefined`: nothing can match) mapped to the schema's entries.
 */
export interface KeySchemaView<E> {
  /** Writes `value` at `storeKey`; the store key when applied, `undefined` when expired. */
  write(storeKey: Buffer, value: Buffer | null): Buffer | undefined;
  read(range: StoreRange | undefined): E[];
  readAsync(range: StoreRange | undefined): Promise<E[]>;
}

/** The {@link KeySchemaView} of `store`, whose entries `toEntry` decodes. */
export function keySchemaView<E>(
  store: StoreLayer,
  toEntry: (key: Buffer, value: Buffer) => E,
): KeySchemaView<E> {
  const decode = (entries: Iterable<KeyValueBytes>): E[] =>
    [...entries].map((e) => toEntry(e.key, e.value));
  return {
    write: (storeKey, value) => (store.write([{ key: storeKey, value }])[0] ? storeKey : undefined),
    read: (range) => (range === undefined ? [] : decode(store.read(range))),
    readAsync: async (range) => (range === undefined ? [] : decode(await store.readAsync(range))),
  };
}
