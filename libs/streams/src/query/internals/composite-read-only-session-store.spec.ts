import { StateStoreMigratedError } from '../../errors/invalid-state-store.error';
import { SessionWindow } from '../../windowing/session-window';
import { Windowed } from '../../windowing/windowed';
import { Serdes } from '../../serde/serdes';
import type { KeyValue } from '../../state/key-value-store';
import type { MeteredSessionStore } from '../../state/internals/metered/metered-session-store';
import { testStoreContext } from '../../../test-support/store-test-support';
import { Stores } from '../../state/stores';
import { TaskId } from '../../processor/task-id';
import { CompositeReadOnlySessionStore } from './composite-read-only-session-store';
import { QueryableStoreTypes } from '../queryable-store-type';

const session = (key: string, start: number, end: number): Windowed<string> =>
  new Windowed(key, new SessionWindow(start, end));
const show = (entries: readonly KeyValue<Windowed<string>, number | bigint>[]): string[] =>
  entries.map((e) => `${e.key.toString()}=${e.value}`);

async function sessionStore(
  partition: number,
): Promise<MeteredSessionStore<string, number | bigint>> {
  const store = Stores.sessionStoreBuilder(
    Stores.inMemorySessionStore('clicks', 3_600_000),
    Serdes.String(),
    Serdes.Long(),
  ).build();
  await store.init(testStoreContext({ taskId: new TaskId(0, partition) }));
  return store;
}

describe('CompositeReadOnlySessionStore over two local stores', () => {
  async function twoStores() {
    const first = await sessionStore(0);
    const second = await sessionStore(1);
    first.put(session('alice', 0, 10), 2);
    first.put(session('alice', 20, 30), 3);
    second.put(session('bob', 5, 5), 1);
    second.put(session('carol', 7, 9), 4);
    const stores = [first, second];
    const composite = QueryableStoreTypes.sessionStore<string, number | bigint>().create(
      'clicks',
      () => ({
        partitionCount: 2,
        stores: stores.map((store, partition) => ({ partition, active: true, lag: 0, store })),
      }),
    );
    return { first, second, composite };
  }

  it('is what QueryableStoreTypes.sessionStore() makes, for session stores only', async () => {
    const { first, composite } = await twoStores();
    const type = QueryableStoreTypes.sessionStore<string, number | bigint>();
    expect(type.kind).toBe('session');
    expect(type.accepts(first)).toBe(true);
    const windowStore = Stores.windowStoreBuilder(
      Stores.inMemoryWindowStore('w', 60_000, 1_000),
      Serdes.String(),
      Serdes.Long(),
    ).build();
    expect(type.accepts(windowStore)).toBe(false);
    expect(QueryableStoreTypes.windowStore().accepts(first)).toBe(false);
    expect(QueryableStoreTypes.keyValueStore().accepts(first)).toBe(false);
    expect(composite).toBeInstanceOf(CompositeReadOnlySessionStore);
  });

  it('answers single-key reads from the store that has the key', async () => {
    const { composite } = await twoStores();
    expect(show(composite.fetch('alice'))).toEqual(['[alice@0/10]=2', '[alice@20/30]=3']);
    expect(show(composite.fetch('bob'))).toEqual(['[bob@5/5]=1']);
    expect(composite.fetch('dave')).toEqual([]);
    expect(composite.fetchSession('carol', 7, 9)).toBe(4);
    expect(composite.fetchSession('carol', 7, 8)).toBeUndefined();
    expect(show(composite.findSessions('alice', 11, 40))).toEqual(['[alice@20/30]=3']);
    expect(show(composite.backwardFindSessions('alice', 0, 40))).toEqual([
      '[alice@20/30]=3',
      '[alice@0/10]=2',
    ]);
    expect(show(await composite.fetchAsync('bob'))).toEqual(['[bob@5/5]=1']);
    expect(show(await composite.findSessionsAsync('carol', 0, 100))).toEqual(['[carol@7/9]=4']);
    expect(await composite.fetchSessionAsync('alice', 20, 30)).toBe(3);
    expect(await composite.fetchSessionAsync('alice', 20, 31)).toBeUndefined();
  });

  it('answers key-range reads from each store in turn', async () => {
    const { composite } = await twoStores();
    expect(show(composite.fetch(undefined, undefined))).toEqual([
      '[alice@0/10]=2',
      '[alice@20/30]=3',
      '[bob@5/5]=1',
      '[carol@7/9]=4',
    ]);
    expect(show(composite.fetch('alice', 'bob'))).toEqual([
      '[alice@0/10]=2',
      '[alice@20/30]=3',
      '[bob@5/5]=1',
    ]);
    expect(show(await composite.fetchRangeAsync('b', undefined))).toEqual([
      '[bob@5/5]=1',
      '[carol@7/9]=4',
    ]);
  });

  it('turns a store closed underneath into StateStoreMigratedError', async () => {
    const closed = Stores.sessionStoreBuilder(
      Stores.inMemorySessionStore('clicks', 3_600_000),
      Serdes.String(),
      Serdes.Long(),
    ).build(); // never initialized: reads throw StoreClosedError
    const composite = new CompositeReadOnlySessionStore<string, number | bigint>('clicks', () => ({
      partitionCount: 1,
      stores: [{ partition: 0, active: true, lag: 0, store: closed }],
    }));
    expect(() => composite.fetch('alice')).toThrow(StateStoreMigratedError);
    expect(() => composite.fetch(undefined, undefined)).toThrow(StateStoreMigratedError);
    await expect(composite.findSessionsAsync('alice', 0, 10)).rejects.toThrow(
      StateStoreMigratedError,
    );
    await expect(composite.fetchRangeAsync(undefined, undefined)).rejects.toThrow(
      StateStoreMigratedError,
    );
  });
});
