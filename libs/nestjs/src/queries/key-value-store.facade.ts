import {
  type KafkaStreams,
  type KeyValue,
  type KeyValueIterator,
  QueryableStoreTypes,
  type ReadOnlyKeyValueStore,
} from '@nest-streams/streams';
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
  private readonly view: LocalStoreView<ReadOnlyKeyValueStore<K, V>>;

  constructor(
    readonly name: string,
    streams: KafkaStreams,
  ) {
    this.view = new LocalStoreView(streams, name, QueryableStoreTypes.keyValueStore<K, V>());
  }

  get(key: K): V | undefined {
    return this.store().get(key);
  }

  range(from?: K, to?: K): KeyValueIterator<K, V> {
    return this.store().range(from, to);
  }

  reverseRange(from?: K, to?: K): KeyValueIterator<K, V> {
    return this.store().reverseRange(from, to);
  }

  prefixScan<P>(
    prefix: P,
    prefixSerializer: { serialize(value: P): Buffer },
  ): KeyValueIterator<K, V> {
    return this.store().prefixScan(prefix, prefixSerializer);
  }

  all(): KeyValueIterator<K, V> {
    return this.store().all();
  }

  reverseAll(): KeyValueIterator<K, V> {
    return this.store().reverseAll();
  }

  approximateNumEntries(): number {
    return this.store().approximateNumEntries();
  }

  getAsync(key: K): Promise<V | undefined> {
    return this.store().getAsync(key);
  }

  rangeAsync(from?: K, to?: K, reverse?: boolean): Promise<KeyValue<K, V>[]> {
    return this.store().rangeAsync(from, to, reverse);
  }

  allAsync(reverse?: boolean): Promise<KeyValue<K, V>[]> {
    return this.store().allAsync(reverse);
  }

  private store(): ReadOnlyKeyValueStore<K, V> {
    return this.view.current();
  }
}
