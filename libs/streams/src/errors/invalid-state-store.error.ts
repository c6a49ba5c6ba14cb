import { StreamsError } from './streams.error';

/**
 * The base of every "this store cannot answer here, now" error of interactive queries (Kafka
 * Streams' `InvalidStateStoreException`). Subclasses say why and whether to retry: see
 * `retriable` and each class.
 */
export abstract class InvalidStateStoreError extends StreamsError {}

/**
 * The client has not started (state CREATED) or has stopped. What to do: call `start()` and
 * retry once it is RUNNING; retriable.
 */
export class StreamsNotStartedError extends InvalidStateStoreError.coded(
  'STREAMS_NOT_STARTED',
  true,
) {}

/**
 * The store is not queryable here right now: the client is rebalancing, or the task is
 * restoring. What to do: retry after a short backoff (HTTP: 503 with Retry-After).
 */
export class StateStoreNotAvailableError extends InvalidStateStoreError.coded(
  'STORE_NOT_AVAILABLE',
  true,
) {}

/**
 * The store (or the partition asked for) moved to another instance. What to do: rediscover
 * the owner with `queryMetadataForKey` and retry there.
 */
export class StateStoreMigratedError extends InvalidStateStoreError.coded('STORE_MIGRATED', true) {}

/**
 * The partition asked for (`withPartition`) does not exist for this store. What to do: fix
 * the partition; never retriable.
 */
export class InvalidStateStorePartitionError extends InvalidStateStoreError.coded(
  'INVALID_STORE_PARTITION',
  false,
) {}
