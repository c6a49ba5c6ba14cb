import type { StoreLayer } from '../src/state/internals/store-layer';
import {
  toWindowEntry,
  windowStoreRange,
  WindowKeySchema,
  type WindowBytesEntry,
  type WindowRangeQuery,
} from '../src/state/internals/window-key-schema';

/** A window store's bytes, as its facade reads and writes them (for engine-level specs). */
export interface WindowView {
  /** Writes `[key][start][seqnum 0]`; the store key when applied, `undefined` when expired. */
  put(key: Buffer, value: Buffer | null, start: number): Buffer | undefined;
  fetch(key: Buffer, start: number): Buffer | undefined;
  fetchAsync(key: Buffer, start: number): Promise<Buffer | undefined>;
  range(query: WindowRangeQuery): WindowBytesEntry[];
  rangeAsync(query: WindowRangeQuery): Promise<WindowBytesEntry[]>;
}

/** A window stack (engine or layer) under the window key schema: store keys in, windows out. */
export function windowView(store: StoreLayer): WindowView {
  const storeKey = (key: Buffer, start: number) => WindowKeySchema.toStoreKeyBinary(key, start, 0);
  return {
    put: (key, value, start) => {
      const written = storeKey(key, start);
      return store.write([{ key: written, value }])[0] ? written : undefined;
    },
    fetch: (key, start) => store.get(storeKey(key, start)),
    fetchAsync: (key, start) => store.getAsync(storeKey(key, start)),
    range: (query) => {
      const range = windowStoreRange(query);
      return range === undefined
        ? []
        : [...store.read(range)].map((e) => toWindowEntry(e.key, e.value));
    },
    rangeAsync: async (query) => {
      const range = windowStoreRange(query);
      if (range === undefined) return [];
      return (await store.readAsync(range)).map((e) => toWindowEntry(e.key, e.value));
    },
  };
}
