import type { Position } from './position';
import type { StoreQuery } from './queries';

/** Why a partition could not answer (Kafka Streams' `FailureReason`). */
export enum FailureReason {
  /** The partition's copy here is not the active one and the request requires active. */
  NOT_ACTIVE = 'NOT_ACTIVE',
  /** The copy has not processed up to the request's position bound yet: retry. */
  NOT_UP_TO_BOUND = 'NOT_UP_TO_BOUND',
  /** This instance holds no copy of the partition: ask its owner. */
  NOT_PRESENT = 'NOT_PRESENT',
  /** The store does not exist in the topology. */
  DOES_NOT_EXIST = 'DOES_NOT_EXIST',
  /** The store failed while answering (the message says how). */
  STORE_EXCEPTION = 'STORE_EXCEPTION',
  /** The store kind cannot answer this query (a key query on a window store...). */
  UNKNOWN_QUERY_TYPE = 'UNKNOWN_QUERY_TYPE',
}

/** A request: one store, one query, some partitions, an optional position bound. */
export interface StateQueryRequest<K> {
  readonly storeName: string;
  readonly query: StoreQuery<K>;
  /** Partitions to ask; undefined asks every local partition. */
  readonly partitions?: readonly number[];
  readonly positionBound?: Position;
  /** Only active copies may answer (no standbys). */
  readonly requireActive?: boolean;
}

/** Builds a {@link StateQueryRequest} the way Kafka Streams' `StateQueryRequest` does. */
export const StateQueryRequest = {
  inStore(storeName: string) {
    return {
      withQuery<K>(query: StoreQuery<K>) {
        const build = (extra: Partial<StateQueryRequest<K>>): StateQueryRequestBuilder<K> => {
          const request: StateQueryRequest<K> = { storeName, query, ...extra };
          return {
            request,
            withPartitions: (partitions) => build({ ...extra, partitions }),
            withAllPartitions: () => build({ ...extra, partitions: undefined }),
            withPositionBound: (positionBound) => build({ ...extra, positionBound }),
            requireActive: () => build({ ...extra, requireActive: true }),
          };
        };
        return build({});
      },
    };
  },
};

/** Fluent steps of {@link StateQueryRequest.inStore}; `request` is the plain request. */
export interface StateQueryRequestBuilder<K> {
  readonly request: StateQueryRequest<K>;
  withPartitions(partitions: readonly number[]): StateQueryRequestBuilder<K>;
  withAllPartitions(): StateQueryRequestBuilder<K>;
  withPositionBound(bound: Position | undefined): StateQueryRequestBuilder<K>;
  requireActive(): StateQueryRequestBuilder<K>;
}

/** One partition's answer: a result, or a failure as data. */
export interface QueryResult<R> {
  readonly partition: number;
  readonly success: boolean;
  readonly result?: R;
  readonly failureReason?: FailureReason;
  readonly failureMessage?: string;
  /** The copy's position when it answered (empty for standbys). */
  readonly position: Position;
  /** Whether an active copy answered. */
  readonly active: boolean;
  /**
   * Records the copy that answered was behind its changelog's end (0 for an active copy);
   * absent when no copy answered.
   */
  readonly lag?: number;
}

/** Every asked partition's answer, or a global store's one answer. */
export interface StateQueryResult<R> {
  readonly partitionResults: QueryResult<R>[];
  /**
   * A global store's answer (Kafka Streams' `getGlobalResult()`): the instance's whole copy
   * answers, with partition -1; `partitionResults` is then empty.
   */
  readonly globalResult?: QueryResult<R>;
  /** The merged position of the successful answers. */
  readonly position: Position;
}
