import type { ReadOnlyKeyValueStore } from '../state/key-value-store';
import type { ReadOnlySessionStore } from '../state/session-store';
import type { ReadOnlyWindowStore } from '../state/window-store';
import { CompositeReadOnlyKeyValueStore } from './internals/composite-read-only-key-value-store';
import { CompositeReadOnlySessionStore } from './internals/composite-read-only-session-store';
import { CompositeReadOnlyWindowStore } from './internals/composite-read-only-window-store';
import type { ValueAndTimestamp } from '../state/value-and-timestamp';
import { mapCopies, type PartitionedStores } from './internals/store-copies';
import {
  isTimestamped,
  unwrapKeyValueStore,
  unwrapWindowStore,
} from './internals/timestamped-unwrapping';

/** A kind of store a query can ask for, and how to combine the local stores of that kind. */
export interface QueryableStoreType<T> {
  readonly kind: 'key-value' | 'window' | 'session';
  /** Whether `store` is of this kind. */
  accepts(store: unknown): boolean;
  /**
   * One read-only view over the local stores (one per task); `stores` looks them up again on
   * every call (in partition order, with the store's partition count).
   */
  create(name: string, stores: () => PartitionedStores<unknown>): T;
}

const isKeyValue = (s: unknown): boolean =>
  typeof s === 'object' && s !== null && 'approximateNumEntries' in s && 'prefixScan' in s;
const isWindow = (s: unknown): boolean =>
  typeof s === 'object' && s !== null && 'fetchWindowsAsync' in s;
const isSession = (s: unknown): boolean =>
  typeof s === 'object' && s !== null && 'findSessionsAsync' in s;

/**
 * A store kind whose view reads plain values: a timestamped copy is seen through `unwrap`
 * (values without their timestamps, as Kafka Streams' queries of timestamped stores), and
 * `View` combines the copies.
 */
function plainValues<U, S, T>(
  kind: QueryableStoreType<T>['kind'],
  accepts: (store: unknown) => boolean,
  unwrap: (timestamped: U) => S,
  View: new (name: string, stores: () => PartitionedStores<S>) => T,
): QueryableStoreType<T> {
  const plain = (store: unknown): S => (isTimestamped(store) ? unwrap(store as U) : (store as S));
  return {
    kind,
    accepts,
    create: (name, stores) => new View(name, () => mapCopies(stores(), plain)),
  };
}

/** A store kind whose view reads the copies as they are; `View` combines them. */
function asStored<S, T>(
  kind: QueryableStoreType<T>['kind'],
  accepts: (store: unknown) => boolean,
  View: new (name: string, stores: () => PartitionedStores<S>) => T,
): QueryableStoreType<T> {
  return {
    kind,
    accepts,
    create: (name, stores) => new View(name, () => stores() as PartitionedStores<S>),
  };
}

/** The store kinds of interactive queries, as Kafka Streams' `QueryableStoreTypes`. */
export const QueryableStoreTypes = {
  /** Plain values (a timestamped store's values are unwrapped, as in Kafka Streams). */
  keyValueStore<K, V>(): QueryableStoreType<ReadOnlyKeyValueStore<K, V>> {
    return plainValues(
      'key-value',
      isKeyValue,
      unwrapKeyValueStore<K, V>,
      CompositeReadOnlyKeyValueStore<K, V>,
    );
  },
  /** Values with the timestamp of the record that last wrote them (timestamped stores only). */
  timestampedKeyValueStore<K, V>(): QueryableStoreType<
    ReadOnlyKeyValueStore<K, ValueAndTimestamp<V>>
  > {
    return asStored(
      'key-value',
      (s) => isKeyValue(s) && isTimestamped(s),
      CompositeReadOnlyKeyValueStore<K, ValueAndTimestamp<V>>,
    );
  },
  windowStore<K, V>(): QueryableStoreType<ReadOnlyWindowStore<K, V>> {
    return plainValues(
      'window',
      isWindow,
      unwrapWindowStore<K, V>,
      CompositeReadOnlyWindowStore<K, V>,
    );
  },
  /**
   * Session stores (session-windowed aggregations, `Stores.sessionStoreBuilder`): one view over
   * the local stores; single-key reads answer from the store holding the key.
   */
  sessionStore<K, AGG>(): QueryableStoreType<ReadOnlySessionStore<K, AGG>> {
    return asStored('session', isSession, CompositeReadOnlySessionStore<K, AGG>);
  },
} as const;
