import { Inject, Injectable } from '@nestjs/common';
import {
  KafkaStreams,
  QueryableStoreTypes,
  type SessionEntries,
  StoreQueryParameters,
} from '@nest-streams/streams';

/**
 * Reads a key's sessions from this instance's copy of one partition of a session store
 * (`KafkaStreams.store()` with `withPartition`, active only unless `staleStores`): the session
 * fetch of instance-to-instance queries, which the engine's query API v2 does not cover.
 *
 * Errors: the engine's `InvalidStateStoreError`s (`StateStoreMigratedError` when the
 * partition is not here, `StateStoreNotAvailableError` while rebalancing: retriable;
 * `UnknownStateStoreError`: fix the name).
 */
@Injectable()
export class LocalSessionReader {
  constructor(@Inject(KafkaStreams) private readonly streams: KafkaStreams) {}

  fetch<K, AGG>(
    store: string,
    key: K,
    partition: number,
    staleStores: boolean,
  ): Promise<SessionEntries<K, AGG>> {
    let parameters = StoreQueryParameters.fromNameAndType(
      store,
      QueryableStoreTypes.sessionStore<K, AGG>(),
    ).withPartition(partition);
    if (staleStores) parameters = parameters.enableStaleStores();
    return this.streams.store(parameters).fetchAsync(key);
  }
}
