import type { SessionEntries, ReadOnlySessionStore } from '../../state/session-store';
import { readKeyPartition, readKeyPartitionAsync } from './key-partition-read';
import { served, type PartitionedStores } from './store-copies';
import { readingStore, readingStoreAsync } from './store-errors';

const isValue = <V>(value: V | undefined): boolean => value !== undefined;
const nonEmpty = <T>(sessions: readonly T[]): boolean => sessions.length > 0;

/**
 * One read-only session store over this instance's local copies of one store (Kafka Streams'
 * `CompositeReadOnlySessionStore`). A key lives in one partition: single-key reads read the
 * copy of the key's partition (no sessions is an answer only that copy gives; see
 * `readKeyPartition`); key-range reads return each copy's sessions in turn. A store closed
 * underneath (its task moved) surfaces as `StateStoreMigratedError`: rediscover the store and
 * retry.
 */
export class CompositeReadOnlySessionStore<K, AGG> implements ReadOnlySessionStore<K, AGG> {
  constructor(
    readonly name: string,
    private readonly storeSet: () => PartitionedStores<ReadOnlySessionStore<K, AGG>>,
  ) {}

  fetch(key: K): SessionEntries<K, AGG>;
  fetch(keyFrom: K | undefined, keyTo: K | undefined): SessionEntries<K, AGG>;
  fetch(...args: [K] | [K | undefined, K | undefined]): SessionEntries<K, AGG> {
    if (args.length === 1) {
      const key = args[0];
      return this.first(key, (s) => s.fetch(key));
    }
    const [keyFrom, keyTo] = args;
    return readingStore(this.name, () => this.stores().flatMap((s) => s.fetch(keyFrom, keyTo)));
  }

  fetchSession(key: K, start: number, end: number): AGG | undefined {
    return readingStore(this.name, () =>
      readKeyPartition(this.name, this.storeSet(), key, {
        read: (store) => store.fetchSession(key, start, end),
        found: isValue,
      }),
    );
  }

  findSessions(
    key: K,
    earliestSessionEndTime: number,
    latestSessionStartTime: number,
  ): SessionEntries<K, AGG> {
    return this.first(key, (s) =>
      s.findSessions(key, earliestSessionEndTime, latestSessionStartTime),
    );
  }

  backwardFindSessions(
    key: K,
    earliestSessionEndTime: number,
    latestSessionStartTime: number,
  ): SessionEntries<K, AGG> {
    return this.first(key, (s) =>
      s.backwardFindSessions(key, earliestSessionEndTime, latestSessionStartTime),
    );
  }

  fetchAsync(key: K, backward?: boolean): Promise<SessionEntries<K, AGG>> {
    return this.firstAsync(key, (s) => s.fetchAsync(key, backward));
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
    return readingStoreAsync(this.name, () =>
      readKeyPartitionAsync(this.name, this.storeSet(), key, {
        read: (store) => store.fetchSessionAsync(key, start, end),
        found: isValue,
      }),
    );
  }

  findSessionsAsync(
    key: K,
    earliestSessionEndTime: number,
    latestSessionStartTime: number,
    backward?: boolean,
  ): Promise<SessionEntries<K, AGG>> {
    return this.firstAsync(key, (s) =>
      s.findSessionsAsync(key, earliestSessionEndTime, latestSessionStartTime, backward),
    );
  }

  private first(
    key: K,
    read: (store: ReadOnlySessionStore<K, AGG>) => SessionEntries<K, AGG>,
  ): SessionEntries<K, AGG> {
    return readingStore(this.name, () =>
      readKeyPartition(this.name, this.storeSet(), key, { read, found: nonEmpty }),
    );
  }

  private firstAsync(
    key: K,
    read: (store: ReadOnlySessionStore<K, AGG>) => Promise<SessionEntries<K, AGG>>,
  ): Promise<SessionEntries<K, AGG>> {
    return readingStoreAsync(this.name, () =>
      readKeyPartitionAsync(this.name, this.storeSet(), key, { read, found: nonEmpty }),
    );
  }

  /** Every local copy's store; each is reported as serving the read. */
  private stores(): ReadOnlySessionStore<K, AGG>[] {
    const set = this.storeSet();
    for (const copy of set.stores) served(this.name, set, copy);
    return set.stores.map((c) => c.store);
  }
}
