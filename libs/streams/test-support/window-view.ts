import type { StoreLayer } from '../src/state/internals/layers/store-layer';
import {
  toWindowEntry,
  windowStoreRange,
  WindowKeySchema,
  type WindowBytesEntry,
  type WindowRangeQuery,
} from '../src/state/internals/segments/window-key-schema';
import { keySchemaView } from './key-schema-view';

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
  const view = keySchemaView(store, toWindowEntry);
  const storeKey = (key: Buffer, start: number) => WindowKeySchema.toStoreKeyBinary(key, start, 0);
  return {
    put: (key, value, start) => view.write(storeKey(key, start), value),
    fetch: (key, start) => store.get(storeKey(key, start)),
    fetchAsync: (key, start) => store.getAsync(storeKey(key, start)),
    range: (query) => view.read(windowStoreRange(query)),
    rangeAsync: (query) => view.readAsync(windowStoreRange(query)),
  };
}
