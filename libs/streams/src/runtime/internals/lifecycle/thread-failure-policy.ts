import { isClusterUnreachableError } from '../../../client/cluster-unreachable';
import { findFencedInstanceIdError } from '../../../client/group-error-names';
import { StreamThreadExceptionResponse } from '../../kafka-streams-state';

/** What the client does about a failed stream thread. */
export type ThreadFailureAction =
  /** Replace the thread after `delayMs` (its tasks close dirty; a new member rejoins). */
  | { readonly kind: 'replace'; readonly delayMs: number; readonly reason: string }
  /** Ask every instance to stop (SHUTDOWN_APPLICATION), then stop this client. */
  | { readonly kind: 'shutdown-application'; readonly reason: string }
  /** Stop this client (state ERROR). */
  | { readonly kind: 'shutdown-client'; readonly reason: string };

/** What the decision depends on. */
export interface ThreadFailureContext {
  /** Whether the client is RUNNING or REBALANCING (only then can a thread be replaced). */
  readonly active: boolean;
  /** When the cluster first became unreachable in the current outage, if it did. */
  readonly unreachableSince: number | undefined;
  readonly now: number;
  /** `task.timeout.ms`: how long an unreachable cluster is waited for. */
  readonly taskTimeoutMs: number;
  /** The user's uncaught-exception handler. */
  readonly handler: (error: Error) => StreamThreadExceptionResponse;
}

/**
 * Kafka Streams' policy for a failed stream thread. An unreachable cluster (broker down or
 * restarting) replaces the thread after a second until `task.timeout.ms` has passed since the
 * outage began, without asking the handler; any other error, or an outage past the timeout,
 * goes to the uncaught-exception handler, whose answer is applied (`REPLACE_THREAD` only while
 * the client is active; a handler that throws counts as `SHUTDOWN_CLIENT`). A
 * `FencedInstanceIdError` (another process took this static member's `groupInstanceId`) stops
 * the client without asking the handler: a new thread would join with the same id and fence
 * the other process in turn, and `SHUTDOWN_APPLICATION` would stop the instance that rightly
 * holds the id.
 *
 * Returns the action and the outage start to keep (reset it when the client is RUNNING again).
 */
export function threadFailureAction(
  error: Error,
  context: ThreadFailureContext,
): { action: ThreadFailureAction; unreachableSince: number | undefined } {
  let unreachableSince = context.unreachableSince;
  const fenced = findFencedInstanceIdError(error);
  if (fenced) {
    return {
      action: { kind: 'shutdown-client', reason: `${fenced.message} (FENCED_INSTANCE_ID)` },
      unreachableSince,
    };
  }
  let timedOut = '';
  if (context.active && isClusterUnreachableError(error)) {
    unreachableSince ??= context.now;
    if (context.now - unreachableSince <= context.taskTimeoutMs) {
      return {
        action: {
          kind: 'replace',
          delayMs: 1000,
          reason: `stream thread lost the cluster (${error.message}); replacing it: tasks closed dirty, rejoining`,
        },
        unreachableSince,
      };
    }
    timedOut = `the cluster has been unreachable for more than task.timeout.ms (${context.taskTimeoutMs} ms); `;
  }
  let response: StreamThreadExceptionResponse;
  try {
    response = context.handler(error);
  } catch {
    response = StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
  }
  const reason = `${timedOut}uncaught processing error (${response}): ${error.message}`;
  if (response === StreamThreadExceptionResponse.SHUTDOWN_APPLICATION && context.active) {
    return { action: { kind: 'shutdown-application', reason }, unreachableSince };
  }
  if (response === StreamThreadExceptionResponse.REPLACE_THREAD && context.active) {
    return { action: { kind: 'replace', delayMs: 0, reason }, unreachableSince };
  }
  return { action: { kind: 'shutdown-client', reason }, unreachableSince };
}
