import type { KeyValue, ReadOnlyKeyValueStore } from '../../state/key-value-store';
import type { ReadOnlySessionStore } from '../../state/session-store';
import type { ReadOnlyWindowStore } from '../../state/window-store';
import type { LocalStore } from './local-store-provider';
import { satisfies, mergePositions, type Position } from '../position';
import { queryRead, readsSynchronously } from './query-read';
import type { StoreQuery } from '../queries';
import { isTimestamped, unwrapKeyValueStore, unwrapWindowStore } from './timestamped-unwrapping';
import {
  FailureReason,
  type QueryResult,
  type StateQueryRequest,
  type StateQueryResult,
} from '../state-query';

/** A local copy as the executor sees it: the store, and its position when active. */
export interface QueryableCopy extends LocalStore {
  position(): Position;
}

const isKeyValue = (s: unknown): s is ReadOnlyKeyValueStore<unknown, unknown> =>
  typeof s === 'object' && s !== null && 'rangeAsync' in s && 'approximateNumEntries' in s;
const isWindow = (s: unknown): s is ReadOnlyWindowStore<unknown, unknown> =>
  typeof s === 'object' && s !== null && 'fetchWindowsAsync' in s;
const isSession = (s: unknown): s is ReadOnlySessionStore<unknown, unknown> =>
  typeof s === 'object' && s !== null && 'findSessionsAsync' in s;

/**
 * Answers an interactive query v2 request from this instance's local copies: per partition, a
 * result or a failure as data (never an exception), with the copy's position, honouring
 * `requireActive` and the position bound.
 */
export async function executeStateQuery<K>(
  request: StateQueryRequest<K>,
  storeExists: boolean,
  copies: readonly QueryableCopy[],
): Promise<StateQueryResult<unknown>> {
  const fail = (
    partition: number,
    reason: FailureReason,
    message: string,
    active = false,
  ): QueryResult<unknown> => ({
    partition,
    success: false,
    failureReason: reason,
    failureMessage: message,
    position: {},
    active,
  });
  if (!storeExists) {
    const partitions = request.partitions ?? [-1];
    return {
      partitionResults: partitions.map((p) =>
        fail(
          p,
          FailureReason.DOES_NOT_EXIST,
          `the topology has no state store named '${request.storeName}'`,
        ),
      ),
      position: {},
    };
  }
  const partitions =
    request.partitions ?? [...new Set(copies.map((c) => c.partition))].sort((a, b) => a - b);
  const results: QueryResult<unknown>[] = [];
  for (const partition of partitions) {
    const here = copies.filter((c) => c.partition === partition);
    const copy = here.find((c) => c.active) ?? here[0];
    if (!copy) {
      results.push(
        fail(
          partition,
          FailureReason.NOT_PRESENT,
          `partition ${partition} of '${request.storeName}' is not hosted here`,
        ),
      );
      continue;
    }
    if (request.requireActive && !copy.active) {
      results.push(
        fail(
          partition,
          FailureReason.NOT_ACTIVE,
          `only a standby copy of partition ${partition} is here`,
        ),
      );
      continue;
    }
    const position = copy.active ? copy.position() : {};
    if (!satisfies(position, request.positionBound)) {
      results.push(
        fail(
          partition,
          FailureReason.NOT_UP_TO_BOUND,
          `partition ${partition} has not processed up to the requested position yet`,
          copy.active,
        ),
      );
      continue;
    }
    try {
      const result = await run(request.query, copy.store);
      if (result === UNKNOWN) {
        results.push(
          fail(
            partition,
            FailureReason.UNKNOWN_QUERY_TYPE,
            `a ${request.query.type} query cannot run on store '${request.storeName}'`,
            copy.active,
          ),
        );
      } else {
        results.push({
          partition,
          success: true,
          result,
          position,
          active: copy.active,
          lag: copy.lag,
        });
      }
    } catch (error) {
      results.push(
        fail(
          partition,
          FailureReason.STORE_EXCEPTION,
          error instanceof Error ? error.message : String(error),
          copy.active,
        ),
      );
    }
  }
  return {
    partitionResults: results,
    position: mergePositions(results.filter((r) => r.success).map((r) => r.position)),
  };
}

const UNKNOWN = Symbol('unknown query type');

async function run<K>(query: StoreQuery<K>, raw: unknown): Promise<unknown> {
  // Plain values, as Kafka Streams' KeyQuery/RangeQuery answer over timestamped stores.
  const store = !isTimestamped(raw)
    ? raw
    : isWindow(raw)
      ? unwrapWindowStore(raw as ReadOnlyWindowStore<unknown, never>)
      : unwrapKeyValueStore(raw as ReadOnlyKeyValueStore<unknown, never>);
  switch (query.type) {
    case 'key':
      // An engine that reads synchronously answers at once (and never through the cache's
      // processing read); the others through their asynchronous read.
      if (!isKeyValue(store)) return UNKNOWN;
      return (
        (readsSynchronously(store)
          ? queryRead(store, query.key)
          : await store.getAsync(query.key)) ?? null
      );
    case 'range':
      return isKeyValue(store)
        ? store.rangeAsync(query.lower, query.upper, query.descending)
        : UNKNOWN;
    case 'window-key':
      return isWindow(store)
        ? store.fetchWindowsAsync(query.key, query.timeFrom, query.timeTo)
        : UNKNOWN;
    case 'window-range':
      return isWindow(store)
        ? ((await store.fetchRangeAsync(
            undefined,
            undefined,
            query.timeFrom,
            query.timeTo,
          )) as KeyValue<unknown, unknown>[])
        : UNKNOWN;
    case 'session':
      return isSession(store) ? store.fetchAsync(query.key) : UNKNOWN;
    default:
      return UNKNOWN;
  }
}
