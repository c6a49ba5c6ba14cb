import {
  groupMovedOnError,
  isGroupMovedOnErrorName,
  type GroupMovedOnError,
} from '../group-error-names';

/**
 * The engine's typed error for a platformatic error whose protocol error (its own `apiId`, or
 * one of its nested `errors`/`cause`) says the group moved on; `undefined` otherwise.
 */
export function platformaticGroupError(
  groupId: string,
  memberId: string,
  error: unknown,
  { groupInstanceId }: { readonly groupInstanceId?: string } = {},
): GroupMovedOnError | undefined {
  const seen: unknown[] = [error];
  for (let i = 0; i < seen.length && i < 32; i++) {
    const e = seen[i] as { apiId?: string; errors?: unknown; cause?: unknown } | null;
    if (!e || typeof e !== 'object') continue;
    if (isGroupMovedOnErrorName(e.apiId))
      return groupMovedOnError(e.apiId, groupId, memberId, error, groupInstanceId);
    if (Array.isArray(e.errors)) seen.push(...(e.errors as unknown[]));
    else if (e.errors && typeof e.errors === 'object') seen.push(...Object.values(e.errors));
    if (e.cause) seen.push(e.cause);
  }
  return undefined;
}
