import {
  FailureReason,
  InvalidStateStorePartitionError,
  type QueryResult,
  StateStoreMigratedError,
  StateStoreNotAvailableError,
  StreamsError,
  StreamsNotStartedError,
  UnknownStateStoreError,
  UnsupportedStoreOperationError,
} from '@nest-streams/streams';
import { RemoteQueryError } from '../../errors/remote-query.error';
import type { QueryFailure } from './interactive-query.protocol';

/*
 * Query failures between their two forms: the engine's typed errors (what callers catch) and
 * failures as data (per partition in an IQv2 result, or in a remote answer).
 */

/** The typed error of a partition's failure (failures as data -> the engine's errors). */
export function errorOfPartitionFailure(
  store: string,
  result: QueryResult<unknown>,
  where: string,
): StreamsError {
  const message = `${result.failureMessage ?? 'query failed'} (${where})`;
  switch (result.failureReason) {
    case FailureReason.NOT_PRESENT:
    case FailureReason.NOT_ACTIVE:
      return new StateStoreMigratedError(`${message}: rediscover the owner and retry`);
    case FailureReason.NOT_UP_TO_BOUND:
      return new StateStoreNotAvailableError(`${message}: retry shortly`);
    case FailureReason.DOES_NOT_EXIST:
      return new UnknownStateStoreError(message);
    case FailureReason.UNKNOWN_QUERY_TYPE:
      return new UnsupportedStoreOperationError(store, 'query', message);
    default:
      return new RemoteQueryError('STORE_EXCEPTION', false, message, where);
  }
}

/** The engine's error class for a failed remote request's code, else a `RemoteQueryError`. */
export function errorFromFailure(failure: QueryFailure, endpoint: string): StreamsError {
  const message = `${failure.message} (from ${endpoint})`;
  switch (failure.code) {
    case 'STREAMS_NOT_STARTED':
      return new StreamsNotStartedError(message);
    case 'STORE_NOT_AVAILABLE':
      return new StateStoreNotAvailableError(message);
    case 'STORE_MIGRATED':
      return new StateStoreMigratedError(message);
    case 'INVALID_STORE_PARTITION':
      return new InvalidStateStorePartitionError(message);
    case 'UNKNOWN_STATE_STORE':
      return new UnknownStateStoreError(message);
    default:
      return new RemoteQueryError(failure.code, failure.retriable, message, endpoint);
  }
}

/** A thrown error as failure data (its code and retriable flag when it is a `StreamsError`). */
export function failureOf(error: unknown): QueryFailure {
  if (error instanceof StreamsError) {
    return { code: error.code, retriable: error.retriable, message: error.message };
  }
  return { code: 'QUERY_FAILED', retriable: false, message: String(error) };
}
