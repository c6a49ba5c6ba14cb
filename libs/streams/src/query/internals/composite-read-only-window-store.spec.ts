import { DefaultStreamPartitioner } from '../../cluster/default-stream-partitioner';
import { StateStoreMigratedError } from '../../errors/invalid-state-store.error';
import { TaskId } from '../../processor/task-id';
import { Serdes } from '../../serde/serdes';
import type { KeyValue } from '../../state/key-value-store';
import type { MeteredWindowStore } from '../../state/internals/metered/metered-window-store';
import { testStoreContext } from '../../../test-support/store-test-support';
import { Stores } from '../../state/stores';
import type { Windowed } from '../../windowing/windowed';
import { CompositeReadOnlyWindowStore } from './composite-read-only-window-store';
import { QueryableStoreTypes } from '../queryable-store-type';
import type { ServedCopy } from '../served-copy';
import type { StoreCopy } from './store-copies';

const PARTITIONS = 3;
const MINUTE = 60_000;
const partitionOf = (key: string) =>
  new DefaultStreamPartitioner().partition(Buffer.from(key, 'utf8'), PARTITIONS);
const USERS = ['alice', 'bob', 'carol', 'dave', 'erin', 'frank', 'grace', 'heidi'];

async function windowStore(partition: number): Promise<MeteredWindowStore<string, number>> {
  const store = Stores.windowStoreBuilder(
    Stores.inMemoryWindowStore('counts', 60 * MINUTE, MINUTE),
    Serdes.String(),
    Serdes.Integer(),
  ).build();
  await store.init(testStoreContext({ taskId: new TaskId(0, partition) }));
  return store;
}

/**
 * One store per partition with each user's windows in the partition the default partitioner
 * gives it: user `i` has counts `i + 1` and `i + 2` in the windows starting at 0 and 1 minute.
 */
async function partitionedStores() {
  const stores = await Promise.all(Array.from({ length: PARTITIONS }, (_, p) => windowStore(p)));
  USERS.forEach((user, i) => {
    const store = stores[partitionOf(user)];
    store.put(user, i + 1, 0);
    store.put(user, i + 2, MINUTE);
  });
  return stores;
}

function view(
  copies: StoreCopy<MeteredWindowStore<string, number>>[],
  served: ServedCopy[] = [],
): CompositeReadOnlyWindowStore<string, number> {
  return new CompositeReadOnlyWindowStore('counts', () => ({
    partitionCount: PARTITIONS,
    stores: copies,
    onServed: (c) => served.push(c),
  }));
}

const all = (stores: MeteredWindowStore<string, number>[], standby?: number) =>
  stores.map((store, partition) => ({
    partition,
    store,
    active: partition !== standby,
    lag: partition === standby ? 7 : 0,
  }));

const windows = (entries: KeyValue<number, number>[]) => entries.map((e) => `${e.key}=${e.value}`);
const shown = (entries: KeyValue<Windowed<string>, number>[]) =>
  entries.map((e) => `${e.key.key}@${e.key.window.start}=${e.value}`).sort();

describe('CompositeReadOnlyWindowStore', () => {
  it('is what QueryableStoreTypes.windowStore() makes, for window stores only', async () => {
    const [store] = await partitionedStores();
    const type = QueryableStoreTypes.windowStore<string, number>();
    expect(type.kind).toBe('window');
    expect(type.accepts(store)).toBe(true);
    expect(QueryableStoreTypes.keyValueStore().accepts(store)).toBe(false);
    const made = type.create('counts', () => ({ partitionCount: PARTITIONS, stores: [] }));
    expect(made).toBeInstanceOf(CompositeReadOnlyWindowStore);
  });

  it("answers every single-key read from the key's partition", async () => {
    const stores = await partitionedStores();
    const served: ServedCopy[] = [];
    const composite = view(all(stores), served);
    for (const [i, user] of USERS.entries()) {
      served.length = 0;
      expect(composite.fetch(user, 0)).toBe(i + 1);
      expect(composite.fetch(user, 2 * MINUTE)).toBeUndefined();
      expect(await composite.fetchAsync(user, MINUTE)).toBe(i + 2);
      const forward = composite.fetch(user, 0, MINUTE);
      expect([...forward].map((e) => `${e.key}=${e.value}`)).toEqual([
        `0=${i + 1}`,
        `${MINUTE}=${i + 2}`,
      ]);
      const backward = composite.backwardFetch(user, 0, MINUTE);
      expect([...backward].map((e) => e.key)).toEqual([MINUTE, 0]);
      expect(windows(await composite.fetchWindowsAsync(user, 0, 0))).toEqual([`0=${i + 1}`]);
      expect(new Set(served.map((c) => c.partition))).toEqual(new Set([partitionOf(user)]));
    }
    expect(await composite.fetchWindowsAsync('nobody', 0, MINUTE)).toEqual([]);
    expect([...composite.fetch('nobody', 0, MINUTE)]).toEqual([]);
  });

  it("throws StateStoreMigratedError when the key's partition is not here, never an empty answer", async () => {
    const stores = await partitionedStores();
    const user = 'carol';
    const others = all(stores).filter((c) => c.partition !== partitionOf(user));
    const composite = view(others);
    expect(() => composite.fetch(user, 0)).toThrow(StateStoreMigratedError);
    expect(() => composite.fetch(user, 0, MINUTE)).toThrow(StateStoreMigratedError);
    expect(() => composite.backwardFetch(user, 0, MINUTE)).toThrow(StateStoreMigratedError);
    await expect(composite.fetchAsync(user, 0)).rejects.toThrow(StateStoreMigratedError);
    await expect(composite.fetchWindowsAsync(user, 0, MINUTE)).rejects.toThrow(
      StateStoreMigratedError,
    );
  });

  it('reports a standby copy that answered with its lag', async () => {
    const stores = await partitionedStores();
    const user = 'dave';
    const served: ServedCopy[] = [];
    const composite = view(all(stores, partitionOf(user)), served);
    expect(windows(await composite.fetchWindowsAsync(user, 0, MINUTE))).toEqual([
      '0=4',
      `${MINUTE}=5`,
    ]);
    expect(served).toEqual([
      { storeName: 'counts', partition: partitionOf(user), active: false, lag: 7 },
    ]);
  });

  it('answers range and full fetches from every copy, reporting each', async () => {
    const stores = await partitionedStores();
    const served: ServedCopy[] = [];
    const composite = view(all(stores), served);
    const everyWindow = USERS.flatMap((u, i) => [`${u}@0=${i + 1}`, `${u}@${MINUTE}=${i + 2}`]);
    expect(shown([...composite.fetchAll(0, MINUTE)])).toEqual(everyWindow.sort());
    expect(shown([...composite.all()])).toEqual(everyWindow.sort());
    expect(shown(await composite.fetchRangeAsync('a', 'c', 0, 0))).toEqual([
      'alice@0=1',
      'bob@0=2',
    ]);
    // Three reads, each answered by the three copies.
    expect(served.map((c) => c.partition).sort()).toEqual([0, 0, 0, 1, 1, 1, 2, 2, 2]);
  });
});
