import type { ServedListener } from '../served-copy';

/** One local copy of one partition of a store, as a query view reads it. */
export interface StoreCopy<S> {
  readonly partition: number;
  readonly store: S;
  /** Whether this is the active copy of a restored task (false: a standby copy). */
  readonly active: boolean;
  /** Records this copy is behind its changelog's end, measured when the set was taken. */
  readonly lag: number;
}

/**
 * The local copies a query view reads, in partition order, with the store's partition count
 * (which a key read needs to find its key's partition) and whom to tell which copy answered.
 */
export interface PartitionedStores<S> {
  /** Partitions of the store's sub-topology, when known (else `undefined`). */
  readonly partitionCount: number | undefined;
  readonly stores: readonly StoreCopy<S>[];
  readonly onServed?: ServedListener;
}

/** Maps every copy's store of `set` (a plain-value view of each, say), keeping the rest. */
export function mapCopies<S, T>(
  set: PartitionedStores<S>,
  map: (store: S) => T,
): PartitionedStores<T> {
  return {
    partitionCount: set.partitionCount,
    onServed: set.onServed,
    stores: set.stores.map((copy) => ({ ...copy, store: map(copy.store) })),
  };
}

/** Tells `set`'s listener that `copy` of store `name` answered. */
export function served<S>(name: string, set: PartitionedStores<S>, copy: StoreCopy<S>): void {
  set.onServed?.({
    storeName: name,
    partition: copy.partition,
    active: copy.active,
    lag: copy.lag,
  });
}
