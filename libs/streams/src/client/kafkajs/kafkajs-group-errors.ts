import {
  commitRefusal,
  groupMovedOnError,
  isGroupMovedOnErrorName,
  type GroupMovedOnError,
} from '../group-error-names';

/**
 * The engine's typed error for a kafkajs error (or one of its causes: kafkajs' retrier wraps
 * errors in `KafkaJSNonRetriableError`) that says the group moved on: REBALANCE_IN_PROGRESS,
 * ILLEGAL_GENERATION, FENCED_INSTANCE_ID, UNKNOWN_MEMBER_ID. The kafkajs error is its `cause`.
 * `undefined` for any other error.
 */
export function kafkajsGroupError(
  groupId: string,
  memberId: string,
  error: unknown,
): GroupMovedOnError | undefined {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 8; depth++) {
    const type = (e as { type?: string }).type;
    if (isGroupMovedOnErrorName(type)) return groupMovedOnError(type, groupId, memberId, error);
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * A kafkajs offset-commit error as the port throws it: a `CommitFailedError` (the typed group
 * error as its cause) when the group moved on, else the kafkajs error itself. (kafkajs sends no
 * static instance id, so no `FencedInstanceIdError` comes from it.)
 */
export function kafkajsCommitError(groupId: string, memberId: string, error: unknown): unknown {
  const groupError = kafkajsGroupError(groupId, memberId, error);
  return groupError ? commitRefusal(groupId, groupError) : error;
}
