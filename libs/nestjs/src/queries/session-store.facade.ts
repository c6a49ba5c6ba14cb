import {
  type KafkaStreams,
  QueryableStoreTypes,
  type ReadOnlySessionStore,
  type SessionEntries,
} from '@nest-streams/streams';
import { LocalStoreView } from './internals/local-store-view';

/**
 * The read-only session store `@InjectStore(name, 'session')` injects (the engine's
 * `ReadOnlySessionStore`); see `KeyValueStoreFacade` for lookups, stale reads and errors.
 */
export class SessionStoreFacade<K, AGG> implements ReadOnlySessionStore<K, AGG> {
  private readonly view: LocalStoreView<ReadOnlySessionStore<K, AGG>>;

  constructor(
    readonly name: string,
    streams: KafkaStreams,
  ) {
    this.view = new LocalStoreView(streams, name, QueryableStoreTypes.sessionStore<K, AGG>());
  }

  fetch(key: K): SessionEntries<K, AGG>;
  fetch(keyFrom: K | undefined, keyTo: K | undefined): SessionEntries<K, AGG>;
  fetch(...args: [K] | [K | undefined, K | undefined]): SessionEntries<K, AGG> {
    const store = this.store();
    return args.length === 1 ? store.fetch(args[0]) : store.fetch(args[0], args[1]);
  }

  fetchSession(key: K, start: number, end: number): AGG | undefined {
    return this.store().fetchSession(key, start, end);
  }

  findSessions(
    key: K,
    earliestSessionEndTime: number,
    latestSessionStartTime: number,
  ): SessionEntries<K, AGG> {
    return this.store().findSessions(key, earliestSessionEndTime, latestSessionStartTime);
  }

  backwardFindSessions(
    key: K,
    earliestSessionEndTime: number,
    latestSessionStartTime: number,
  ): SessionEntries<K, AGG> {
    return this.store().backwardFindSessions(key, earliestSessionEndTime, latestSessionStartTime);
  }

  fetchAsync(key: K, backward?: boolean): Promise<SessionEntries<K, AGG>> {
    return this.store().fetchAsync(key, backward);
  }

  fetchRangeAsync(
    keyFrom: K | undefined,
    keyTo: K | undefined,
    backward?: boolean,
  ): Promise<SessionEntries<K, AGG>> {
    return this.store().fetchRangeAsync(keyFrom, keyTo, backward);
  }

  fetchSessionAsync(key: K, start: number, end: number): Promise<AGG | undefined> {
    return this.store().fetchSessionAsync(key, start, end);
  }

  findSessionsAsync(
    key: K,
    earliestSessionEndTime: number,
    latestSessionStartTime: number,
    backward?: boolean,
  ): Promise<SessionEntries<K, AGG>> {
    return this.store().findSessionsAsync(
      key,
      earliestSessionEndTime,
      latestSessionStartTime,
      backward,
    );
  }

  private store(): ReadOnlySessionStore<K, AGG> {
    return this.view.current();
  }
}
