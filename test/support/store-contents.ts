import {
  QueryableStoreTypes,
  StoreQueryParameters,
  type KafkaStreams,
} from '@nest-streams/streams';

/**
 * Every entry of a key-value store across this client's active copies, read through the
 * public query API (`store()`): call it while the client is RUNNING.
 */
export function storeContents<V>(streams: KafkaStreams, storeName: string): Map<string, V> {
  const store = streams.store(
    StoreQueryParameters.fromNameAndType(storeName, QueryableStoreTypes.keyValueStore<string, V>()),
  );
  const result = new Map<string, V>();
  for (const { key, value } of store.all()) result.set(key, value);
  return result;
}
