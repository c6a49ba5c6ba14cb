import {
  InvalidStateStorePartitionError,
  StateStoreMigratedError,
  StateStoreNotAvailableError,
  StreamsNotStartedError,
} from '../../errors/invalid-state-store.error';
import { UnknownStateStoreError } from '../../errors/unknown-state-store.error';
import type { Subtopology } from '../../processor/internals/topology-nodes';
import type { PartitionedStores, StoreCopy } from './store-copies';
import type { StoreQueryParameters } from '../store-query-parameters';

/**
 * A local copy of a store that queries may read: the active copy of a restored task, or a
 * standby copy whose lag is known. A task still restoring is no copy (its state is partial),
 * nor is a standby that has not learnt its changelog's end yet (it could not say its lag).
 */
export interface LocalStore extends StoreCopy<unknown> {
  readonly taskId: string;
}

/** The local copies a query reads, in partition order, with the store's partition count. */
export type LocalStoreSet = PartitionedStores<unknown>;

/** What the provider reads from the client. */
export interface LocalStoreSource {
  /** The client's state, a `KafkaStreamsState` name (`CREATED`, `RUNNING`, ...). */
  state(): string;
  subtopologyOf(storeName: string): Subtopology | undefined;
  /** Partition count of the store's sub-topology, when known. */
  partitionCount(storeName: string): number | undefined;
  /** Local copies of a store: restored active tasks, and standby copies of known lag. */
  localStores(storeName: string): LocalStore[];
  /**
   * A global store (every instance holds it whole): `undefined` when `storeName` is none;
   * `store` `undefined` while it restores. Optional: without it there are no global stores.
   */
  globalStore?(storeName: string): { readonly store: unknown } | undefined;
}

/**
 * Finds the local stores a query may read, while the client is RUNNING or REBALANCING: without
 * stale stores, the active copies of restored tasks (a task kept through a rebalance keeps
 * answering, as in Kafka Streams with a running thread); with stale stores, also standby copies
 * of known lag. Unlike Kafka Streams, a task still restoring is never read, not even as a stale
 * store: its partial state would answer "not found" for keys it has not restored yet. Errors are
 * typed and say whether to retry.
 */
export class LocalStoreProvider {
  constructor(private readonly source: LocalStoreSource) {}

  /**
   * The stores for `params`, looked up again on every call by the facades.
   *
   * @throws StreamsNotStartedError (CREATED), StateStoreNotAvailableError (stopping or
   *   stopped), StateStoreMigratedError (no queryable copy here: the asked partition, or any, is
   *   not local or still restoring), UnknownStateStoreError, InvalidStateStorePartitionError.
   */
  stores<T>(params: StoreQueryParameters<T>): unknown[] {
    return this.storeSet(params).stores.map((s) => s.store);
  }

  /**
   * {@link stores} with each copy's partition and the store's partition count (a key query
   * asks the key's partition first). Throws as {@link stores}.
   */
  storeSet<T>(params: StoreQueryParameters<T>): LocalStoreSet {
    const state = this.source.state();
    const name = params.storeName;
    if (state === 'CREATED') {
      throw new StreamsNotStartedError(
        `KafkaStreams is not started yet (state ${state}); call start() and retry`,
      );
    }
    const global = this.source.globalStore?.(name);
    if (!global && !this.source.subtopologyOf(name))
      throw new UnknownStateStoreError(`the topology has no state store named '${name}'`);
    const queryable = state === 'RUNNING' || state === 'REBALANCING';
    if (!queryable) {
      throw new StateStoreNotAvailableError(
        `store '${name}' is not available: KafkaStreams is ${state}`,
      );
    }
    if (global) return this.globalSet(params, global.store);
    if (params.partition !== undefined) {
      const count = this.source.partitionCount(name);
      if (
        !Number.isInteger(params.partition) ||
        params.partition < 0 ||
        (count !== undefined && params.partition >= count)
      ) {
        throw new InvalidStateStorePartitionError(
          `store '${name}' has no partition ${params.partition}${count !== undefined ? ` (it has ${count})` : ''}`,
        );
      }
    }
    const candidates: LocalStore[] = [];
    for (const s of this.source.localStores(name)) {
      if (!params.staleStoresEnabled && !s.active) continue;
      if (params.partition !== undefined && s.partition !== params.partition) continue;
      if (params.queryableStoreType.accepts(s.store)) candidates.push(s);
    }
    if (candidates.length === 0) {
      if (params.partition !== undefined) {
        throw new StateStoreMigratedError(
          `partition ${params.partition} of store '${name}' is not hosted here: rediscover its owner`,
        );
      }
      const any = this.source.localStores(name);
      if (any.length > 0 && !any.some((s) => params.queryableStoreType.accepts(s.store))) {
        throw new UnknownStateStoreError(
          `store '${name}' is not a ${params.queryableStoreType.kind} store`,
        );
      }
      throw new StateStoreMigratedError(
        `store '${name}' has no ${params.staleStoresEnabled ? '' : 'active '}copy on this instance: rediscover its owners`,
      );
    }
    return {
      partitionCount: this.source.partitionCount(name),
      stores: candidates.sort((a, b) => a.partition - b.partition),
      onServed: params.servedListener,
    };
  }

  /**
   * A global store as one copy holding every key (any `partition` asked reads it whole, as in
   * Kafka Streams). Throws `StateStoreNotAvailableError` while it restores (retry shortly),
   * `UnknownStateStoreError` when it is not of the asked kind.
   */
  private globalSet<T>(params: StoreQueryParameters<T>, store: unknown): LocalStoreSet {
    const name = params.storeName;
    if (store === undefined) {
      throw new StateStoreNotAvailableError(
        `global store '${name}' is still restoring: retry shortly`,
      );
    }
    if (!params.queryableStoreType.accepts(store)) {
      throw new UnknownStateStoreError(
        `store '${name}' is not a ${params.queryableStoreType.kind} store`,
      );
    }
    return {
      partitionCount: 1,
      stores: [{ partition: 0, store, active: true, lag: 0 }],
      onServed: params.servedListener,
    };
  }
}
