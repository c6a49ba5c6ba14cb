import type { SessionEntries, ReadOnlySessionStore } from '../../state/session-store';
import { readingStore, readingStoreAsync } from './store-errors';

/**
 * One read-only session store over this instance's local stores of one name (Kafka Streams'
 * `CompositeReadOnlySessionStore`). A key lives in one partition, so single-key reads return
 * the first store that has sessions for it; key-range reads return each store's sessions in
 * turn. A store closed underneath (its task moved) surfaces as `StateStoreMigratedError`:
 * rediscover the store and retry.
 */
export class CompositeReadOnlySessionStore<K, AGG> implements ReadOnlySessionStore<K, AGG> {
  constructor(
    readonly name: string,
    private readonly stores: () => readonly ReadOnlySessionStore<K, AGG>[],
  ) {}

  fetch(key: K): SessionEntries<K, AGG>;
  fetch(keyFrom: K | undefined, keyTo: K | undefined): SessionEntries<K, AGG>;
  fetch(...args: [K] | [K | undefined, K | undefined]): SessionEntries<K, AGG> {
    if (args.length === 1) {
      const key = args[0];
      return this.first((s) => s.fetch(key));
    }
    const [keyFrom, keyTo] = args;
    return readingStore(this.name, () => this.stores().flatMap((s) => s.fetch(keyFrom, keyTo)));
  }

  fetchSession(key: K, start: number, end: number): AGG | undefined {
    return readingStore(this.name, () => {
      for (const store of this.stores()) {
        const value = store.fetchSession(key, start, end);
        if (value !== undefined) return value;
      }
      return undefined;
    });
  }

  findSessions(
    key: K,
    earliestSessionEndTime: number,
    latestSessionStartTime: number,
  ): SessionEntries<K, AGG> {
    return this.first((s) => s.findSessions(key, earliestSessionEndTime, latestSessionStartTime));
  }

  backwardFindSessions(
    key: K,
    earliestSessionEndTime: number,
    latestSessionStartTime: number,
  ): SessionEntries<K, AGG> {
    return this.first((s) =>
      s.backwardFindSessions(key, earliestSessionEndTime, latestSessionStartTime),
    );
  }

  fetchAsync(key: K, backward?: boolean): Promise<SessionEntries<K, AGG>> {
    return this.firstAsync((s) => s.fetchAsync(key, backward));
  }

  fetchRangeAsync(
    keyFrom: K | undefined,
    keyTo: K | undefined,
    backward?: boolean,
  ): Promise<SessionEntries<K, AGG>> {
    return readingStoreAsync(this.name, async () => {
      const result: SessionEntries<K, AGG> = [];
      for (const store of this.stores()) {
        result.push(...(await store.fetchRangeAsync(keyFrom, keyTo, backward)));
      }
      return result;
    });
  }

  fetchSessionAsync(key: K, start: number, end: number): Promise<AGG | undefined> {
    return readingStoreAsync(this.name, async () => {
      for (const store of this.stores()) {
        const value = await store.fetchSessionAsync(key, start, end);
        if (value !== undefined) return value;
      }
      return undefined;
    });
  }

  findSessionsAsync(
    key: K,
    earliestSessionEndTime: number,
    latestSessionStartTime: number,
    backward?: boolean,
  ): Promise<SessionEntries<K, AGG>> {
    return this.firstAsync((s) =>
      s.findSessionsAsync(key, earliestSessionEndTime, latestSessionStartTime, backward),
    );
  }

  private first(
    read: (store: ReadOnlySessionStore<K, AGG>) => SessionEntries<K, AGG>,
  ): SessionEntries<K, AGG> {
    return readingStore(this.name, () => {
      for (const store of this.stores()) {
        const sessions = read(store);
        if (sessions.length > 0) return sessions;
      }
      return [];
    });
  }

  private firstAsync(
    read: (store: ReadOnlySessionStore<K, AGG>) => Promise<SessionEntries<K, AGG>>,
  ): Promise<SessionEntries<K, AGG>> {
    return readingStoreAsync(this.name, async () => {
      for (const store of this.stores()) {
        const sessions = await read(store);
        if (sessions.length > 0) return sessions;
      }
      return [];
    });
  }
}
