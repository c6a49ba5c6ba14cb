import { StreamsError } from '@nest-streams/streams';

/**
 * The instance a request or query was sent to did not answer: connection refused or reset,
 * or no answer within the timeout. Retriable: the instance may be restarting, or the cluster
 * rebalancing. What to do: retry after a backoff; with stale reads allowed, the routing
 * interceptor falls back to a standby itself.
 */
export class OwnerUnreachableError extends StreamsError.coded('OWNER_UNREACHABLE', true) {
  constructor(
    readonly target: string,
    reason: string,
    options?: { cause?: unknown },
  ) {
    super(`instance ${target} is unreachable: ${reason}`, options);
  }
}
