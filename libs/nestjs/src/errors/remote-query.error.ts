import { StreamsError } from '@nest-streams/streams';

/**
 * Another instance answered a query with an error, or could not be asked. `code` and
 * `retriable` are the remote error's (or `QUERY_OWNER_UNREACHABLE` / `QUERY_TIMEOUT`, both
 * retriable, when the instance could not be reached in time), `endpoint` the instance asked.
 * What to do: when `retriable`, retry after a backoff (the owner may be restarting or the
 * cluster rebalancing); otherwise fix what the message names.
 */
export class RemoteQueryError extends StreamsError {
  constructor(
    readonly code: string,
    readonly retriable: boolean,
    message: string,
    readonly endpoint: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
