import { KeyQueryMetadata } from '../key-query-metadata';
import type { Position } from '../position';
import { FailureReason, type StateQueryRequest, type StateQueryResult } from '../state-query';
import { executeStateQuery } from './state-query-executor';

/** A global store as an IQv2 query reads it: the whole store, once queryable, and its position. */
export interface GlobalQueryableCopy {
  /** The store; `undefined` while it cannot be read (restoring, client not running). */
  readonly store: unknown;
  /** How far the store's topic was read. */
  position(): Position;
}

/**
 * Answers an interactive query v2 request on a global store: this instance's whole copy
 * answers in `globalResult` (Kafka Streams' place for a global store's answer), with
 * partition -1, whatever partitions the request names; `partitionResults` is empty. A copy
 * that cannot be read yet answers NOT_PRESENT (retry shortly). Failures are data, never thrown.
 */
export async function executeGlobalStateQuery<K>(
  request: StateQueryRequest<K>,
  copy: GlobalQueryableCopy,
  notQueryableReason: string,
): Promise<StateQueryResult<unknown>> {
  const partition = KeyQueryMetadata.UNKNOWN_PARTITION;
  const { store } = copy;
  const copies =
    store === undefined
      ? []
      : [{ taskId: 'global', partition, active: true, lag: 0, store, position: copy.position }];
  const answer = await executeStateQuery({ ...request, partitions: [partition] }, true, copies);
  const [result] = answer.partitionResults;
  const globalResult =
    result.failureReason === FailureReason.NOT_PRESENT
      ? {
          ...result,
          failureMessage: `global store '${request.storeName}' is not queryable here yet (${notQueryableReason}): retry shortly`,
        }
      : result;
  return { partitionResults: [], globalResult, position: answer.position };
}
