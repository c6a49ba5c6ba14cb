import {
  type KafkaStreams,
  type KeyValue,
  type KeyValueIterator,
  QueryableStoreTypes,
  type ReadOnlyWindowStore,
  type Windowed,
  type WindowStoreIterator,
} from '@nest-streams/streams';
import { LocalStoreView } from './internals/local-store-view';

/**
 * The read-only window store `@InjectStore(name, 'window')` injects; see
 * `KeyValueStoreFacade` for lookups, stale reads and errors (the same, plus the engine's
 * `InvalidWindowError` for bad time bounds: a 400 through `StreamsExceptionFilter`).
 */
export class WindowStoreFacade<K, V> implements ReadOnlyWindowStore<K, V> {
  private readonly view: LocalStoreView<ReadOnlyWindowStore<K, V>>;

  constructor(
    readonly name: string,
    streams: KafkaStreams,
  ) {
    this.view = new LocalStoreView(streams, name, QueryableStoreTypes.windowStore<K, V>());
  }

  fetch(key: K, windowStart: number): V | undefined;
  fetch(key: K, timeFrom: number, timeTo: number): WindowStoreIterator<V>;
  fetch(key: K, timeFrom: number, timeTo?: number): V | undefined | WindowStoreIterator<V> {
    const store = this.store();
    return timeTo === undefined ? store.fetch(key, timeFrom) : store.fetch(key, timeFrom, timeTo);
  }

  backwardFetch(key: K, timeFrom: number, timeTo: number): WindowStoreIterator<V> {
    return this.store().backwardFetch(key, timeFrom, timeTo);
  }

  fetchRange(
    keyFrom: K | undefined,
    keyTo: K | undefined,
    timeFrom: number,
    timeTo: number,
  ): KeyValueIterator<Windowed<K>, V> {
    return this.store().fetchRange(keyFrom, keyTo, timeFrom, timeTo);
  }

  fetchAll(timeFrom: number, timeTo: number): KeyValueIterator<Windowed<K>, V> {
    return this.store().fetchAll(timeFrom, timeTo);
  }

  all(): KeyValueIterator<Windowed<K>, V> {
    return this.store().all();
  }

  backwardAll(): KeyValueIterator<Windowed<K>, V> {
    return this.store().backwardAll();
  }

  fetchAsync(key: K, windowStart: number): Promise<V | undefined> {
    return this.store().fetchAsync(key, windowStart);
  }

  fetchWindowsAsync(
    key: K,
    timeFrom: number,
    timeTo: number,
    backward?: boolean,
  ): Promise<KeyValue<number, V>[]> {
    return this.store().fetchWindowsAsync(key, timeFrom, timeTo, backward);
  }

  fetchRangeAsync(
    keyFrom: K | undefined,
    keyTo: K | undefined,
    timeFrom: number,
    timeTo: number,
    backward?: boolean,
  ): Promise<KeyValue<Windowed<K>, V>[]> {
    return this.store().fetchRangeAsync(keyFrom, keyTo, timeFrom, timeTo, backward);
  }

  private store(): ReadOnlyWindowStore<K, V> {
    return this.view.current();
  }
}
