import { DefaultStreamPartitioner } from '../../cluster/default-stream-partitioner';
import type { ReadOnlyKeyValueStore } from '../../state/key-value-store';
import { CompositeReadOnlyKeyValueStore } from './composite-read-only-key-value-store';
import { unwrapKeyValueStore } from './timestamped-unwrapping';

const PARTITIONS = 6;
const partitioner = new DefaultStreamPartitioner();
const partitionOf = (key: string) => partitioner.partition(Buffer.from(key, 'utf8'), PARTITIONS);

/** A partition's store that records which partitions were read, in order. */
function partitionStore(
  partition: number,
  values: Record<string, number>,
  reads: number[],
  withKeyBytes = true,
) {
  const read = (key: string) => {
    reads.push(partition);
    return values[key];
  };
  const store = {
    name: 'counts',
    get: read,
    queryGet: read,
    getAsync: (key: string) => Promise.resolve(read(key)),
    ...(withKeyBytes ? { keyBytes: (key: string) => Buffer.from(key, 'utf8') } : {}),
  };
  return store as unknown as ReadOnlyKeyValueStore<string, number>;
}

/** Six local partitions; `placed` puts each key in the given partition. */
function composite(placed: Record<string, number>, options: { withKeyBytes?: boolean } = {}) {
  const reads: number[] = [];
  const stores = Array.from({ length: PARTITIONS }, (_, partition) => ({
    partition,
    active: true,
    lag: 0,
    store: partitionStore(
      partition,
      Object.fromEntries(
        Object.entries(placed)
          .filter(([, p]) => p === partition)
          .map(([key]) => [key, 100 + key.length]),
      ),
      reads,
      options.withKeyBytes ?? true,
    ),
  }));
  const view = new CompositeReadOnlyKeyValueStore('counts', () => ({
    partitionCount: PARTITIONS,
    stores,
  }));
  return { view, reads };
}

describe('CompositeReadOnlyKeyValueStore key reads', () => {
  const keys = ['alice', 'bob', 'carol', 'dave', 'erin', 'frank'];

  it("asks the key's partition first: a hit costs one read", async () => {
    const { view, reads } = composite(Object.fromEntries(keys.map((k) => [k, partitionOf(k)])));
    for (const key of keys) {
      reads.length = 0;
      expect(view.get(key)).toBe(100 + key.length);
      expect(reads).toEqual([partitionOf(key)]);
      reads.length = 0;
      expect(await view.getAsync(key)).toBe(100 + key.length);
      expect(reads).toEqual([partitionOf(key)]);
    }
  });

  it('still finds a key another partitioner placed, asking the others in partition order', () => {
    const key = 'alice';
    const elsewhere = (partitionOf(key) + 3) % PARTITIONS;
    const { view, reads } = composite({ [key]: elsewhere });
    expect(view.get(key)).toBe(105);
    const expected = [partitionOf(key)];
    for (let p = 0; p <= elsewhere; p++) if (p !== partitionOf(key)) expected.push(p);
    expect(reads).toEqual(expected);
  });

  it('reads every partition once for a missing key', async () => {
    const { view, reads } = composite({});
    expect(view.get('nobody')).toBeUndefined();
    expect([...reads].sort()).toEqual([0, 1, 2, 3, 4, 5]);
    expect(reads[0]).toBe(partitionOf('nobody'));
    reads.length = 0;
    expect(await view.getAsync('nobody')).toBeUndefined();
    expect(reads).toHaveLength(PARTITIONS);
  });

  it('asks in partition order when the stores do not give their key bytes', () => {
    const key = 'carol';
    const { view, reads } = composite({ [key]: 5 }, { withKeyBytes: false });
    expect(view.get(key)).toBe(105);
    expect(reads).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('asks in partition order when the partition count is unknown', () => {
    const reads: number[] = [];
    const stores = [0, 1].map((partition) => ({
      partition,
      active: true,
      lag: 0,
      store: partitionStore(partition, partition === 1 ? { bob: 1 } : {}, reads),
    }));
    const view = new CompositeReadOnlyKeyValueStore('counts', () => ({
      partitionCount: undefined,
      stores,
    }));
    expect(view.get('bob')).toBe(1);
    expect(reads).toEqual([0, 1]);
  });

  it("keeps the key's partition first through the plain-value view of a timestamped store", () => {
    const reads: number[] = [];
    const key = 'dave';
    const stores = Array.from({ length: PARTITIONS }, (_, partition) => {
      const timestamped = {
        name: 'counts',
        queryGet: (k: string) => {
          reads.push(partition);
          return k === key && partition === partitionOf(key)
            ? { value: 9, timestamp: 1 }
            : undefined;
        },
        keyBytes: (k: string) => Buffer.from(k, 'utf8'),
        syncReads: true,
      } as unknown as Parameters<typeof unwrapKeyValueStore<string, number>>[0];
      return { partition, active: true, lag: 0, store: unwrapKeyValueStore(timestamped) };
    });
    const view = new CompositeReadOnlyKeyValueStore('counts', () => ({
      partitionCount: PARTITIONS,
      stores,
    }));
    expect(view.get(key)).toBe(9);
    expect(reads).toEqual([partitionOf(key)]);
  });
});

describe('CompositeReadOnlyKeyValueStore.getAsync', () => {
  it('reads synchronously from stores whose engine can, asynchronously from the others', async () => {
    const reads: string[] = [];
    const store = (partition: number, syncReads: boolean, values: Record<string, number>) =>
      ({
        name: 'counts',
        syncReads,
        queryGet: (k: string) => (reads.push(`queryGet ${partition}`), values[k]),
        getAsync: async (k: string) => (reads.push(`getAsync ${partition}`), values[k]),
      }) as unknown as ReadOnlyKeyValueStore<string, number>;
    const view = new CompositeReadOnlyKeyValueStore('counts', () => ({
      partitionCount: undefined,
      stores: [
        { partition: 0, active: true, lag: 0, store: store(0, true, {}) },
        { partition: 1, active: true, lag: 0, store: store(1, false, { k: 7 }) },
      ],
    }));
    expect(await view.getAsync('k')).toBe(7);
    expect(reads).toEqual(['queryGet 0', 'getAsync 1']);
  });
});

describe('unwrapKeyValueStore', () => {
  it('makes one view per store and keeps its query capabilities', () => {
    const timestamped = {
      name: 'counts',
      queryGet: () => ({ value: 1, timestamp: 2 }),
      keyBytes: (k: string) => Buffer.from(`bytes:${k}`),
      syncReads: true,
    } as unknown as Parameters<typeof unwrapKeyValueStore<string, number>>[0];
    const view = unwrapKeyValueStore(timestamped);
    expect(unwrapKeyValueStore(timestamped)).toBe(view);
    const capable = view as unknown as { syncReads: boolean; keyBytes(k: string): Buffer };
    expect(capable.syncReads).toBe(true);
    expect(capable.keyBytes('a').toString()).toBe('bytes:a');
    const other = { ...timestamped };
    expect(unwrapKeyValueStore(other)).not.toBe(view);
  });
});
