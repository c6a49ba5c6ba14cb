import type { SessionEntries, ReadOnlySessionStore } from '../../state/session-store';
import { readingStore, readingStoreAsync } from './store-errors';
import { CompositeReadOnlyStore } from './composite-read-only-store';

/**
 * One read-only session store over this instance's local copies of one store (Kafka Streams'
 * `CompositeReadOnlySessionStore`). A key lives in one partition: single-key reads read the
 * copy of the key's partition (no sessions is an answer only that copy gives; see
 * `readKeyPartition`); key-range reads return each copy's sessions in turn. A store closed
 * underneath (its task moved) surfaces as `StateStoreMigratedError`: rediscover the store and
 * retry.
 */
export class CompositeReadOnlySessionStore<K, AGG>
  extends CompositeReadOnlyStore<ReadOnlySessionStore<K, AGG>>
  implements ReadOnlySessionStore<K, AGG>
{
  fetch(key: K): SessionEntries<K, AGG>;
  fetch(keyFrom: K | undefined, keyTo: K | undefined): SessionEntries<K, AGG>;
  fetch(...args: [K] | [K | undefined, K | undefined]): SessionEntries<K, AGG> {
    if (args.length === 1) {
      const key = args[0];
      return this.readEntries(key, (s) => s.fetch(key));
    }
    const [keyFrom, keyTo] = args;
    return readingStore(this.name, () => this.stores().flatMap((s) => s.fetch(keyFrom, keyTo)));
  }

  fetchSession(key: K, start: number, end: number): AGG | undefined {
    return this.readValue(key, (store) => store.fetchSession(key, start, end));
  }

  findSessions(
    key: K,
    earliestSessionEndTime: number,
    latestSessionStartTime: number,
  ): SessionEntries<K, AGG> {
    return this.readEntries(key, (s) =>
      s.findSessions(key, earliestSessionEndTime, latestSessionStartTime),
    );
  }

  backwardFindSessions(
    key: K,
    earliestSessionEndTime: number,
    latestSessionStartTime: number,
  ): SessionEntries<K, AGG> {
    return this.readEntries(key, (s) =>
      s.backwardFindSessions(key, earliestSessionEndTime, latestSessionStartTime),
    );
  }

  fetchAsync(key: K, backward?: boolean): Promise<SessionEntries<K, AGG>> {
    return this.readEntriesAsync(key, (s) => s.fetchAsync(key, backward));
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
    return this.readValueAsync(key, (store) => store.fetchSessionAsync(key, start, end));
  }

  findSessionsAsync(
    key: K,
    earliestSessionEndTime: number,
    latestSessionStartTime: number,
    backward?: boolean,
  ): Promise<SessionEntries<K, AGG>> {
    return this.readEntriesAsync(key, (s) =>
      s.findSessionsAsync(key, earliestSessionEndTime, latestSessionStartTime, backward),
    );
  }
}
