import {
  type KafkaStreams,
  QueryableStoreTypes,
  type ReadOnlySessionStore,
} from '@nest-streams/streams';
import { forwardedMethod } from './internals/forwarded-method';
import { LocalStoreView } from './internals/local-store-view';

/**
 * The read-only session store `@InjectStore(name, 'session')` injects (the engine's
 * `ReadOnlySessionStore`); see `KeyValueStoreFacade` for lookups, stale reads and errors.
 */
export class SessionStoreFacade<K, AGG> implements ReadOnlySessionStore<K, AGG> {
  private readonly store = (): ReadOnlySessionStore<K, AGG> => this.view.current();
  private readonly view: LocalStoreView<ReadOnlySessionStore<K, AGG>>;

  readonly fetch = forwardedMethod(this.store, 'fetch');
  readonly fetchSession = forwardedMethod(this.store, 'fetchSession');
  readonly findSessions = forwardedMethod(this.store, 'findSessions');
  readonly backwardFindSessions = forwardedMethod(this.store, 'backwardFindSessions');
  readonly fetchAsync = forwardedMethod(this.store, 'fetchAsync');
  readonly fetchRangeAsync = forwardedMethod(this.store, 'fetchRangeAsync');
  readonly fetchSessionAsync = forwardedMethod(this.store, 'fetchSessionAsync');
  readonly findSessionsAsync = forwardedMethod(this.store, 'findSessionsAsync');

  constructor(
    readonly name: string,
    streams: KafkaStreams,
  ) {
    this.view = new LocalStoreView(streams, name, QueryableStoreTypes.sessionStore<K, AGG>());
  }
}
