import { Inject, Injectable } from '@nestjs/common';
import {
  KafkaStreams,
  QueryableStoreTypes,
  type ServedCopy,
  type SessionEntries,
  StoreQueryParameters,
} from '@nest-streams/streams';

/** A key's sessions, and the copy that answered (active, or a standby and its lag). */
export interface SessionRead<K, AGG> {
  readonly entries: SessionEntries<K, AGG>;
  readonly served: ServedCopy | undefined;
}

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

  async fetch<K, AGG>(
    store: string,
    key: K,
    partition: number,
    staleStores: boolean,
  ): Promise<SessionRead<K, AGG>> {
    let served: ServedCopy | undefined;
    let parameters = StoreQueryParameters.fromNameAndType(
      store,
      QueryableStoreTypes.sessionStore<K, AGG>(),
    )
      .withPartition(partition)
      .withServedListener((copy) => (served = copy));
    if (staleStores) parameters = parameters.enableStaleStores();
    const entries = await this.streams.store(parameters).fetchAsync(key);
    return { entries, served };
  }
}
