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

/** The store kinds of interactive queries, as Kafka Streams' `QueryableStoreTypes`. */
export const QueryableStoreTypes = {
  /** Plain values (a timestamped store's values are unwrapped, as in Kafka Streams). */
  keyValueStore<K, V>(): QueryableStoreType<ReadOnlyKeyValueStore<K, V>> {
    return {
      kind: 'key-value',
      accepts: isKeyValue,
      create: (name, stores) =>
        new CompositeReadOnlyKeyValueStore<K, V>(name, () =>
          mapCopies(stores(), (store) =>
            isTimestamped(store)
              ? unwrapKeyValueStore(store as ReadOnlyKeyValueStore<K, ValueAndTimestamp<V>>)
              : (store as ReadOnlyKeyValueStore<K, V>),
          ),
        ),
    };
  },
  /** Values with the timestamp of the record that last wrote them (timestamped stores only). */
  timestampedKeyValueStore<K, V>(): QueryableStoreType<
    ReadOnlyKeyValueStore<K, ValueAndTimestamp<V>>
  > {
    return {
      kind: 'key-value',
      accepts: (s) => isKeyValue(s) && isTimestamped(s),
      create: (name, stores) =>
        new CompositeReadOnlyKeyValueStore<K, ValueAndTimestamp<V>>(
          name,
          () => stores() as PartitionedStores<ReadOnlyKeyValueStore<K, ValueAndTimestamp<V>>>,
        ),
    };
  },
  windowStore<K, V>(): QueryableStoreType<ReadOnlyWindowStore<K, V>> {
    return {
      kind: 'window',
      accepts: isWindow,
      create: (name, stores) =>
        new CompositeReadOnlyWindowStore<K, V>(name, () =>
          mapCopies(stores(), (s) =>
            isTimestamped(s)
              ? unwrapWindowStore(s as ReadOnlyWindowStore<K, ValueAndTimestamp<V>>)
              : (s as ReadOnlyWindowStore<K, V>),
          ),
        ),
    };
  },
  /**
   * Session stores (session-windowed aggregations, `Stores.sessionStoreBuilder`): one view over
   * the local stores; single-key reads answer from the store holding the key.
   */
  sessionStore<K, AGG>(): QueryableStoreType<ReadOnlySessionStore<K, AGG>> {
    return {
      kind: 'session',
      accepts: isSession,
      create: (name, stores) =>
        new CompositeReadOnlySessionStore<K, AGG>(
          name,
          () => stores() as PartitionedStores<ReadOnlySessionStore<K, AGG>>,
        ),
    };
  },
} as const;
