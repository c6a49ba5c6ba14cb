import { DefaultStreamPartitioner } from '../../cluster/default-stream-partitioner';
import {
  StateStoreMigratedError,
  StateStoreNotAvailableError,
} from '../../errors/invalid-state-store.error';
import {
  keyPartitionOf,
  readKeyPartition,
  readKeyPartitionAsync,
  type KeyRead,
} from './key-partition-read';
import type { ServedCopy } from '../served-copy';
import type { PartitionedStores, StoreCopy } from './store-copies';

const PARTITIONS = 4;
const partitionOf = (key: string) =>
  new DefaultStreamPartitioner().partition(Buffer.from(key, 'utf8'), PARTITIONS);

/** A copy holding `values`, recording its reads. */
interface FakeStore {
  readonly values: Record<string, number>;
  keyBytes?(key: string): Buffer;
}

function copy(
  partition: number,
  values: Record<string, number>,
  options: { active?: boolean; lag?: number; keyBytes?: boolean } = {},
): StoreCopy<FakeStore> {
  const store: FakeStore = { values };
  if (options.keyBytes ?? true) store.keyBytes = (key) => Buffer.from(key, 'utf8');
  return { partition, store, active: options.active ?? true, lag: options.lag ?? 0 };
}

function setOf(
  copies: StoreCopy<FakeStore>[],
  { partitionCount }: { partitionCount: number | undefined } = { partitionCount: PARTITIONS },
): { set: PartitionedStores<FakeStore>; served: ServedCopy[]; reads: number[] } {
  const served: ServedCopy[] = [];
  const reads: number[] = [];
  const tracked = copies.map((c) => ({ ...c, store: { ...c.store, partition: c.partition } }));
  return {
    set: { partitionCount, stores: tracked, onServed: (c) => served.push(c) },
    served,
    reads,
  };
}

const valueRead = (
  key: string,
  reads: number[],
): KeyRead<FakeStore & { partition?: number }, number | undefined> => ({
  read: (store) => {
    reads.push(store.partition ?? -1);
    return store.values[key];
  },
  found: (value) => value !== undefined,
});

describe('readKeyPartition: "not found" only from the key\'s own partition', () => {
  const key = 'user-07';
  const own = partitionOf(key);
  const other = (own + 1) % PARTITIONS;

  it("answers from the key's partition with one read, reporting the copy", () => {
    const { set, served, reads } = setOf([copy(other, {}), copy(own, { [key]: 3 })]);
    expect(readKeyPartition('s', set, key, valueRead(key, reads))).toBe(3);
    expect(reads).toEqual([own]);
    expect(served).toEqual([{ storeName: 's', partition: own, active: true, lag: 0 }]);
  });

  it("says not found when the key's partition copy lacks it (after asking the others)", () => {
    const { set, served, reads } = setOf([
      copy(other, {}),
      copy(own, {}, { active: false, lag: 9 }),
    ]);
    expect(readKeyPartition('s', set, key, valueRead(key, reads))).toBeUndefined();
    expect(reads).toEqual([own, other]);
    expect(served).toEqual([{ storeName: 's', partition: own, active: false, lag: 9 }]);
  });

  it("throws StateStoreMigratedError, never undefined, when the key's partition is not here", () => {
    const { set, served } = setOf([0, 1, 2, 3].filter((p) => p !== own).map((p) => copy(p, {})));
    const reads: number[] = [];
    expect(() => readKeyPartition('s', set, key, valueRead(key, reads))).toThrow(
      StateStoreMigratedError,
    );
    expect(() => readKeyPartition('s', set, key, valueRead(key, reads))).toThrow(
      `partition ${own} of store 's'`,
    );
    expect(served).toEqual([]);
  });

  it('still finds a key another partitioner placed, and reports the copy that had it', () => {
    const { set, served, reads } = setOf([copy(own, {}), copy(other, { [key]: 5 }, { lag: 0 })]);
    expect(readKeyPartition('s', set, key, valueRead(key, reads))).toBe(5);
    expect(served).toEqual([{ storeName: 's', partition: other, active: true, lag: 0 }]);
    // ...even when the key's own partition is not here at all.
    const moved = setOf([copy(other, { [key]: 6 })]);
    expect(readKeyPartition('s', moved.set, key, valueRead(key, []))).toBe(6);
  });

  it('needs a copy of every partition to say not found when the partition cannot be told', () => {
    const noBytes = (p: number) => copy(p, {}, { keyBytes: false });
    const all = setOf([0, 1, 2, 3].map(noBytes));
    expect(keyPartitionOf(all.set, key)).toBeUndefined();
    expect(readKeyPartition('s', all.set, key, valueRead(key, []))).toBeUndefined();
    expect(all.served.map((c) => c.partition)).toEqual([0, 1, 2, 3]);
    const some = setOf([0, 1].map(noBytes));
    expect(() => readKeyPartition('s', some.set, key, valueRead(key, []))).toThrow(
      StateStoreNotAvailableError,
    );
    const unknownCount = setOf([copy(0, {}), copy(1, {})], { partitionCount: undefined });
    expect(() => readKeyPartition('s', unknownCount.set, key, valueRead(key, []))).toThrow(
      StateStoreNotAvailableError,
    );
  });

  it('discards the results it does not return (closes iterators)', () => {
    const closed: number[] = [];
    const { set } = setOf([copy(other, {}), copy(own, {})]);
    const iteratorRead: KeyRead<FakeStore & { partition?: number }, { partition: number }> = {
      read: (store) => ({ partition: store.partition ?? -1 }),
      found: () => false,
      discard: (it) => closed.push(it.partition),
    };
    expect(readKeyPartition('s', set, key, iteratorRead)).toEqual({ partition: own });
    expect(closed).toEqual([other]);
    const gone = setOf([copy(other, {})]);
    expect(() => readKeyPartition('s', gone.set, key, iteratorRead)).toThrow(
      StateStoreMigratedError,
    );
    expect(closed).toEqual([other, other]);
  });

  it('applies the same rule to asynchronous reads', async () => {
    const read = {
      read: async (store: FakeStore) => store.values[key],
      found: (value: number | undefined) => value !== undefined,
    };
    const here = setOf([copy(own, {}, { active: false, lag: 4 })]);
    await expect(readKeyPartitionAsync('s', here.set, key, read)).resolves.toBeUndefined();
    expect(here.served).toEqual([{ storeName: 's', partition: own, active: false, lag: 4 }]);
    const gone = setOf([copy(other, {})]);
    await expect(readKeyPartitionAsync('s', gone.set, key, read)).rejects.toThrow(
      StateStoreMigratedError,
    );
  });
});
