import {
  type KafkaStreams,
  QueryableStoreTypes,
  type ReadOnlyKeyValueStore,
} from '@nest-streams/streams';
import { forwardedMethod } from './internals/forwarded-method';
import { LocalStoreView } from './internals/local-store-view';

/**
 * The read-only key-value store `@InjectStore(name)` injects: every call looks the local
 * stores up again (`KafkaStreams.store()`), so the facade survives rebalances, and reads stale
 * copies only inside a request the routing interceptor answers from a standby.
 *
 * It reads THIS instance's partitions only; use `InteractiveQueryService` for the whole
 * cluster. Errors are the engine's: `StreamsNotStartedError`, `StateStoreNotAvailableError`
 * and `StateStoreMigratedError` are retriable (retry after a backoff; HTTP 503 + Retry-After
 * through `StreamsExceptionFilter`); `UnknownStateStoreError` means the topology has no such
 * store (fix the name); synchronous reads on an engine without them throw
 * `UnsupportedStoreOperationError` (use the `...Async` reads).
 */
export class KeyValueStoreFacade<K, V> implements ReadOnlyKeyValueStore<K, V> {
  private readonly store = (): ReadOnlyKeyValueStore<K, V> => this.view.current();
  private readonly view: LocalStoreView<ReadOnlyKeyValueStore<K, V>>;

  readonly get = forwardedMethod(this.store, 'get');
  readonly range = forwardedMethod(this.store, 'range');
  readonly reverseRange = forwardedMethod(this.store, 'reverseRange');
  readonly prefixScan = forwardedMethod(this.store, 'prefixScan');
  readonly all = forwardedMethod(this.store, 'all');
  readonly reverseAll = forwardedMethod(this.store, 'reverseAll');
  readonly approximateNumEntries = forwardedMethod(this.store, 'approximateNumEntries');
  readonly getAsync = forwardedMethod(this.store, 'getAsync');
  readonly rangeAsync = forwardedMethod(this.store, 'rangeAsync');
  readonly allAsync = forwardedMethod(this.store, 'allAsync');

  constructor(
    readonly name: string,
    streams: KafkaStreams,
  ) {
    this.view = new LocalStoreView(streams, name, QueryableStoreTypes.keyValueStore<K, V>());
  }
}
