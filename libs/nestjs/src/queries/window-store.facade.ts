import {
  type KafkaStreams,
  QueryableStoreTypes,
  type ReadOnlyWindowStore,
} from '@nest-streams/streams';
import { forwardedMethod } from './internals/forwarded-method';
import { LocalStoreView } from './internals/local-store-view';

/**
 * The read-only window store `@InjectStore(name, 'window')` injects; see
 * `KeyValueStoreFacade` for lookups, stale reads and errors (the same, plus the engine's
 * `InvalidWindowError` for bad time bounds: a 400 through `StreamsExceptionFilter`).
 */
export class WindowStoreFacade<K, V> implements ReadOnlyWindowStore<K, V> {
  private readonly store = (): ReadOnlyWindowStore<K, V> => this.view.current();
  private readonly view: LocalStoreView<ReadOnlyWindowStore<K, V>>;

  readonly fetch = forwardedMethod(this.store, 'fetch');
  readonly backwardFetch = forwardedMethod(this.store, 'backwardFetch');
  readonly fetchRange = forwardedMethod(this.store, 'fetchRange');
  readonly fetchAll = forwardedMethod(this.store, 'fetchAll');
  readonly all = forwardedMethod(this.store, 'all');
  readonly backwardAll = forwardedMethod(this.store, 'backwardAll');
  readonly fetchAsync = forwardedMethod(this.store, 'fetchAsync');
  readonly fetchWindowsAsync = forwardedMethod(this.store, 'fetchWindowsAsync');
  readonly fetchRangeAsync = forwardedMethod(this.store, 'fetchRangeAsync');

  constructor(
    readonly name: string,
    streams: KafkaStreams,
  ) {
    this.view = new LocalStoreView(streams, name, QueryableStoreTypes.windowStore<K, V>());
  }
}
