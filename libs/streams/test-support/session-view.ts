import type { StoreLayer } from '../src/state/internals/layers/store-layer';
import {
  SessionKeySchema,
  sessionStoreRange,
  toSessionEntry,
  type SessionBytesEntry,
  type SessionQuery,
} from '../src/state/internals/segments/session-key-schema';
import { keySchemaView } from './key-schema-view';

/** A session store's bytes, as its facade reads and writes them (for engine-level specs). */
export interface SessionView {
  /** Writes `[key][end][start]`; the store key when applied, `undefined` when expired. */
  put(key: Buffer, start: number, end: number, value: Buffer | null): Buffer | undefined;
  remove(key: Buffer, start: number, end: number): Buffer | undefined;
  fetchSession(key: Buffer, start: number, end: number): Buffer | undefined;
  fetchSessionAsync(key: Buffer, start: number, end: number): Promise<Buffer | undefined>;
  findSessions(query: SessionQuery): SessionBytesEntry[];
  findSessionsAsync(query: SessionQuery): Promise<SessionBytesEntry[]>;
}

/** A session stack (engine or layer) under the session key schema: store keys in, sessions out. */
export function sessionView(store: StoreLayer): SessionView {
  const view = keySchemaView(store, toSessionEntry);
  const put = (key: Buffer, start: number, end: number, value: Buffer | null) =>
    view.write(SessionKeySchema.toBinary(key, start, end), value);
  return {
    put,
    remove: (key, start, end) => put(key, start, end, null),
    fetchSession: (key, start, end) => store.get(SessionKeySchema.toBinary(key, start, end)),
    fetchSessionAsync: (key, start, end) =>
      store.getAsync(SessionKeySchema.toBinary(key, start, end)),
    findSessions: (query) => view.read(sessionStoreRange(query)),
    findSessionsAsync: (query) => view.readAsync(sessionStoreRange(query)),
  };
}
