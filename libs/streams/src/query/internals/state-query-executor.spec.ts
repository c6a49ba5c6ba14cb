import { executeStateQuery, type QueryableCopy } from './state-query-executor';
import {
  KeyQuery,
  RangeQuery,
  SessionKeyQuery,
  WindowKeyQuery,
  WindowRangeQuery,
} from '../queries';
import { Serdes } from '../../serde/serdes';
import { Stores } from '../../state/stores';
import { SessionWindow } from '../../windowing/session-window';
import { TimeWindow } from '../../windowing/time-window';
import { Windowed } from '../../windowing/windowed';
import { testStoreContext } from '../../../test-support/store-test-support';
import { FailureReason, StateQueryRequest } from '../state-query';

/** A key-value copy with the async reads the executor uses. */
function kvCopy(
  partition: number,
  active: boolean,
  data: Record<string, number>,
  lastOffset: number,
): QueryableCopy {
  const store = {
    approximateNumEntries: () => Object.keys(data).length,
    getAsync: async (key: string) => data[key],
    rangeAsync: async (lower?: string, upper?: string) =>
      Object.keys(data)
        .sort()
        .filter((k) => (lower === undefined || k >= lower) && (upper === undefined || k <= upper))
        .map((key) => ({ key, value: data[key] })),
  };
  return {
    taskId: `0_${partition}`,
    partition,
    active,
    lag: active ? 0 : 4,
    store,
    position: () => ({ events: { [partition]: lastOffset } }),
  };
}

/** The active, caught-up copy of partition 0 over `store`. */
function copy(store: unknown): QueryableCopy {
  return { taskId: '0_0', partition: 0, active: true, lag: 0, store, position: () => ({}) };
}

describe('executeStateQuery (interactive queries v2)', () => {
  const copies = [kvCopy(0, true, { a: 1, c: 3 }, 41), kvCopy(1, false, { b: 2 }, 99)];

  it('answers a key query per partition, failures as data', async () => {
    const { request } = StateQueryRequest.inStore('s')
      .withQuery(KeyQuery.withKey('a'))
      .withPartitions([0, 1, 2]);
    const result = await executeStateQuery(request, true, copies);
    expect(result.partitionResults).toEqual([
      {
        partition: 0,
        success: true,
        result: 1,
        position: { events: { 0: 41 } },
        active: true,
        lag: 0,
      },
      { partition: 1, success: true, result: null, position: {}, active: false, lag: 4 },
      expect.objectContaining({
        partition: 2,
        success: false,
        failureReason: FailureReason.NOT_PRESENT,
      }),
    ]);
    expect(result.position).toEqual({ events: { 0: 41 } });
  });

  it('reads a key synchronously, without the cache, from a store whose engine can', async () => {
    const reads: string[] = [];
    const store = {
      approximateNumEntries: () => 1,
      rangeAsync: async () => [],
      syncReads: true,
      queryGet: (key: string) => (reads.push(`queryGet ${key}`), key === 'a' ? 5 : undefined),
      getAsync: async (key: string) => (reads.push(`getAsync ${key}`), undefined),
    };
    const { request } = StateQueryRequest.inStore('s').withQuery(KeyQuery.withKey('a'));
    const result = await executeStateQuery(request, true, [copy(store)]);
    expect(result.partitionResults[0]).toEqual(
      expect.objectContaining({ partition: 0, success: true, result: 5 }),
    );
    expect(reads).toEqual(['queryGet a']);
    store.syncReads = false;
    const async = await executeStateQuery(request, true, [copy(store)]);
    expect(async.partitionResults[0]).toEqual(
      expect.objectContaining({ partition: 0, success: true, result: null }),
    );
    expect(reads).toEqual(['queryGet a', 'getAsync a']);
  });

  it('refuses standbys when active is required, and copies behind the position bound', async () => {
    const { request } = StateQueryRequest.inStore('s')
      .withQuery(RangeQuery.withNoBounds<string>())
      .requireActive()
      .withPositionBound({ events: { 0: 42 } });
    const result = await executeStateQuery(request, true, copies);
    expect(result.partitionResults.map((r) => [r.partition, r.failureReason])).toEqual([
      [0, FailureReason.NOT_UP_TO_BOUND],
      [1, FailureReason.NOT_ACTIVE],
    ]);
    const reached = await executeStateQuery(
      { ...request, positionBound: { events: { 0: 41 } } },
      true,
      copies,
    );
    expect(reached.partitionResults[0]).toMatchObject({
      success: true,
      result: [
        { key: 'a', value: 1 },
        { key: 'c', value: 3 },
      ],
    });
  });

  it('reports an unknown store and a query the store kind cannot answer', async () => {
    const missing = await executeStateQuery(
      StateQueryRequest.inStore('nope').withQuery(KeyQuery.withKey('a')).request,
      false,
      [],
    );
    expect(missing.partitionResults).toEqual([
      expect.objectContaining({ partition: -1, failureReason: FailureReason.DOES_NOT_EXIST }),
    ]);
    const wrongKind = await executeStateQuery(
      StateQueryRequest.inStore('s')
        .withQuery(WindowKeyQuery.withKeyAndWindowStartRange('a', 0, 10))
        .withPartitions([0]).request,
      true,
      copies,
    );
    expect(wrongKind.partitionResults[0].failureReason).toBe(FailureReason.UNKNOWN_QUERY_TYPE);
  });

  it('turns a store failure into STORE_EXCEPTION', async () => {
    const broken: QueryableCopy = {
      ...copies[0],
      store: {
        approximateNumEntries: () => 0,
        rangeAsync: async () => [],
        getAsync: async () => Promise.reject(new Error('disk on fire')),
      },
    };
    const result = await executeStateQuery(
      StateQueryRequest.inStore('s').withQuery(KeyQuery.withKey('a')).request,
      true,
      [broken],
    );
    expect(result.partitionResults[0]).toMatchObject({
      success: false,
      failureReason: FailureReason.STORE_EXCEPTION,
      failureMessage: 'disk on fire',
    });
  });

  it("answers session and window-range queries from real stores, and refuses a kind's wrong query", async () => {
    const sessions = Stores.sessionStoreBuilder(
      Stores.inMemorySessionStore('sessions', 60_000),
      Serdes.String(),
      Serdes.Long(),
    ).build();
    const windows = Stores.windowStoreBuilder(
      Stores.inMemoryWindowStore('windows', 60_000, 1_000),
      Serdes.String(),
      Serdes.Long(),
    ).build();
    await sessions.init(testStoreContext());
    await windows.init(testStoreContext());
    sessions.put(new Windowed('a', new SessionWindow(10, 20)), 2);
    sessions.put(new Windowed('a', new SessionWindow(40, 40)), 1);
    sessions.put(new Windowed('b', new SessionWindow(10, 10)), 7);
    windows.put('a', 1, 0);
    windows.put('b', 2, 1_000);
    windows.put('c', 3, 5_000);
    const session = await executeStateQuery(
      StateQueryRequest.inStore('sessions').withQuery(SessionKeyQuery.withKey('a')).request,
      true,
      [copy(sessions)],
    );
    expect(session.partitionResults[0]).toMatchObject({ success: true });
    expect(session.partitionResults[0].result).toEqual([
      { key: new Windowed('a', new SessionWindow(10, 20)), value: 2 },
      { key: new Windowed('a', new SessionWindow(40, 40)), value: 1 },
    ]);
    const range = await executeStateQuery(
      StateQueryRequest.inStore('windows').withQuery(
        WindowRangeQuery.withWindowStartRange(0, 1_000),
      ).request,
      true,
      [copy(windows)],
    );
    expect(range.partitionResults[0].result).toEqual([
      { key: new Windowed('a', new TimeWindow(0, 1_000)), value: 1 },
      { key: new Windowed('b', new TimeWindow(1_000, 2_000)), value: 2 },
    ]);
    const wrong = await executeStateQuery(
      StateQueryRequest.inStore('windows').withQuery(SessionKeyQuery.withKey('a')).request,
      true,
      [copy(windows)],
    );
    expect(wrong.partitionResults[0]).toMatchObject({
      success: false,
      failureReason: FailureReason.UNKNOWN_QUERY_TYPE,
    });
    await sessions.close();
    await windows.close();
  });
});
