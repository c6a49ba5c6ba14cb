import { murmur2, toPositive } from '../../cluster/internals/murmur2';
import {
  StateStoreMigratedError,
  StateStoreNotAvailableError,
} from '../../errors/invalid-state-store.error';
import { storedKeyBytes } from './query-read';
import { served, type PartitionedStores, type StoreCopy } from './store-copies';

/** How a single-key read runs on one copy, and what counts as finding the key. */
export interface KeyRead<S, R> {
  read(store: S): R;
  /** Whether `result` found the key (a value, a non-empty list...). */
  found(result: R): boolean;
  /** Releases a result that is not returned (an iterator to close). */
  discard?(result: R): void;
}

/** {@link KeyRead} of an asynchronous read. */
export interface AsyncKeyRead<S, R> {
  read(store: S): Promise<R>;
  found(result: R): boolean;
}

/**
 * The partition of `key` in `set` under the default partitioner (murmur2 of the store's key
 * bytes, as `queryMetadataForKey` computes it), or `undefined` when it cannot be told (the
 * partition count is unknown, or the stores do not give their key bytes).
 */
export function keyPartitionOf<S, K>(set: PartitionedStores<S>, key: K): number | undefined {
  if (set.partitionCount === undefined || set.stores.length === 0) return undefined;
  const bytes = storedKeyBytes(set.stores[0].store, key);
  if (bytes === undefined) return undefined;
  return toPositive(murmur2(bytes)) % set.partitionCount;
}

/** The copy of the key's partition, which a key read asks first (then the others, in order). */
function ownCopy<S>(
  set: PartitionedStores<S>,
  partition: number | undefined,
): StoreCopy<S> | undefined {
  if (partition === undefined) return undefined;
  for (const copy of set.stores) if (copy.partition === partition) return copy;
  return undefined;
}

/** The plan of the synchronous read: the key's partition first, then the others. */
function plan<S>(set: PartitionedStores<S>, partition: number | undefined) {
  const own = ownCopy(set, partition);
  const others = set.stores.filter((c) => c !== own);
  return { own, others };
}

/**
 * The error of a key read that found the key nowhere and did not read the key's partition:
 * saying "not found" then would be a wrong answer, so the caller retries where the key lives.
 */
function notHere(name: string, partition: number | undefined): Error {
  if (partition === undefined) {
    return new StateStoreNotAvailableError(
      `store '${name}' cannot tell which partition holds the key yet (partition count unknown): retry shortly`,
    );
  }
  return new StateStoreMigratedError(
    `partition ${partition} of store '${name}', which holds the key, has no queryable copy on this instance: rediscover its owner and retry`,
  );
}

/** Whether `set` holds a copy of every partition of its store. */
function coversEveryPartition<S>(set: PartitionedStores<S>): boolean {
  const count = set.partitionCount;
  if (count === undefined) return false;
  const held = new Set(set.stores.map((c) => c.partition));
  for (let p = 0; p < count; p++) if (!held.has(p)) return false;
  return true;
}

/**
 * Reads one key from a set of local copies so that "not found" is only ever the answer of the
 * key's own partition: that copy is asked first; when it lacks the key the others are asked too
 * (a key another partitioner placed is still found); when the key's partition has no copy here
 * (it moved, is restoring, or its standby lag is unknown) and no other copy has the key, the
 * read throws a retriable error instead of answering "not found". When the key's partition
 * cannot be told (stores that do not give their key bytes), "not found" needs a copy of every
 * partition. The copies whose answer is returned are reported to the set's `onServed` listener.
 *
 * @throws StateStoreMigratedError when the key's partition is not queryable here (retry on its
 *   owner); StateStoreNotAvailableError when its partition cannot be told yet (retry shortly).
 */
export function readKeyPartition<S, K, R>(
  name: string,
  set: PartitionedStores<S>,
  key: K,
  how: KeyRead<S, R>,
): R {
  const partition = keyPartitionOf(set, key);
  const { own, others } = plan(set, partition);
  const misses: { copy: StoreCopy<S>; result: R }[] = [];
  for (const copy of own ? [own, ...others] : others) {
    const result = how.read(copy.store);
    if (how.found(result)) {
      for (const miss of misses) how.discard?.(miss.result);
      return report(name, set, [copy], result);
    }
    misses.push({ copy, result });
  }
  return notFound(name, set, partition, own, misses, how.discard);
}

/** {@link readKeyPartition} for asynchronous reads; throws as it does. */
export async function readKeyPartitionAsync<S, K, R>(
  name: string,
  set: PartitionedStores<S>,
  key: K,
  how: AsyncKeyRead<S, R>,
): Promise<R> {
  const partition = keyPartitionOf(set, key);
  const own = ownCopy(set, partition);
  const misses: { copy: StoreCopy<S>; result: R }[] = [];
  if (own) {
    // The usual case, a hit in the key's own partition, reads nothing else.
    const result = await how.read(own.store);
    if (how.found(result)) return answer(name, set, own, result);
    misses.push({ copy: own, result });
  }
  for (const copy of set.stores) {
    if (copy === own) continue;
    const result = await how.read(copy.store);
    if (how.found(result)) return answer(name, set, copy, result);
    misses.push({ copy, result });
  }
  return notFound(name, set, partition, own, misses);
}

/**
 * "Not found", from the key's own partition (or, when it cannot be told, from a copy of every
 * partition); otherwise the retriable error of {@link notHere}.
 */
function notFound<S, R>(
  name: string,
  set: PartitionedStores<S>,
  partition: number | undefined,
  own: StoreCopy<S> | undefined,
  misses: { copy: StoreCopy<S>; result: R }[],
  discard?: (result: R) => void,
): R {
  if (own) {
    for (const miss of misses.slice(1)) discard?.(miss.result);
    return report(name, set, [own], misses[0].result);
  }
  if (partition === undefined && misses.length > 0 && coversEveryPartition(set)) {
    for (const miss of misses.slice(1)) discard?.(miss.result);
    return report(
      name,
      set,
      misses.map((m) => m.copy),
      misses[0].result,
    );
  }
  for (const miss of misses) discard?.(miss.result);
  throw notHere(name, partition);
}

/** {@link report} of one copy. */
function answer<S, R>(name: string, set: PartitionedStores<S>, copy: StoreCopy<S>, result: R): R {
  served(name, set, copy);
  return result;
}

function report<S, R>(
  name: string,
  set: PartitionedStores<S>,
  copies: readonly StoreCopy<S>[],
  result: R,
): R {
  for (const copy of copies) served(name, set, copy);
  return result;
}
