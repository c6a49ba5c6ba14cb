import {
  StateStoreNotAvailableError,
  StreamsNotStartedError,
} from '../../errors/invalid-state-store.error';
import { UnknownStateStoreError } from '../../errors/unknown-state-store.error';
import { QueryableStoreTypes } from '../queryable-store-type';
import { StoreQueryParameters } from '../store-query-parameters';
import { LocalStoreProvider, type LocalStoreSource } from './local-store-provider';

/** A client with one global store, `global`, restored once `store` is set. */
function provider(state: string, store: unknown) {
  const source: LocalStoreSource = {
    state: () => state,
    subtopologyOf: () => undefined,
    partitionCount: () => undefined,
    localStores: () => [],
    globalStore: (name) => (name === 'global' ? { store } : undefined),
  };
  return new LocalStoreProvider(source);
}

const keyValue = (partition?: number) => {
  const params = StoreQueryParameters.fromNameAndType(
    'global',
    QueryableStoreTypes.keyValueStore<string, string>(),
  );
  return partition === undefined ? params : params.withPartition(partition);
};

describe('LocalStoreProvider with a global store', () => {
  // What the key-value kind accepts: a store with these two methods.
  const store = { approximateNumEntries: () => 0, prefixScan: () => [] };

  it('answers it whole, as one active copy of one partition, for any partition asked', () => {
    for (const params of [keyValue(), keyValue(3)]) {
      expect(provider('RUNNING', store).storeSet(params)).toEqual({
        partitionCount: 1,
        stores: [{ partition: 0, store, active: true, lag: 0 }],
        onServed: undefined,
      });
    }
    expect(provider('REBALANCING', store).stores(keyValue())).toEqual([store]);
  });

  it('is not available while it restores, nor before start or once stopped', () => {
    expect(() => provider('REBALANCING', undefined).stores(keyValue())).toThrow(
      StateStoreNotAvailableError,
    );
    expect(() => provider('CREATED', store).stores(keyValue())).toThrow(StreamsNotStartedError);
    expect(() => provider('NOT_RUNNING', store).stores(keyValue())).toThrow(
      StateStoreNotAvailableError,
    );
  });

  it('refuses a query of another kind, and still knows no other store', () => {
    const window = StoreQueryParameters.fromNameAndType(
      'global',
      QueryableStoreTypes.windowStore<string, string>(),
    );
    expect(() => provider('RUNNING', store).stores(window)).toThrow(UnknownStateStoreError);
    const other = StoreQueryParameters.fromNameAndType(
      'other',
      QueryableStoreTypes.keyValueStore<string, string>(),
    );
    expect(() => provider('RUNNING', store).stores(other)).toThrow(UnknownStateStoreError);
  });
});
