import type { StateStore } from '@nest-streams/streams';

/** The kinds of state stores. */
export type StoreKind = 'key-value' | 'window' | 'session';

/** The driver's getter of each kind, for messages. */
export const GETTERS: Record<StoreKind, string> = {
  'key-value': 'getKeyValueStore (or getTimestampedKeyValueStore)',
  window: 'getWindowStore',
  session: 'getSessionStore',
};

/** A store's kind, from the reads it offers (as the engine's queryable store types tell). */
export function kindOf(store: StateStore): StoreKind {
  if ('findSessionsAsync' in store) return 'session';
  if ('fetchWindowsAsync' in store) return 'window';
  return 'key-value';
}
