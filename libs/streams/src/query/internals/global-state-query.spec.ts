import { FailureReason } from '../state-query';
import { KeyQuery, RangeQuery, WindowKeyQuery } from '../queries';
import { executeGlobalStateQuery } from './global-state-query';

/** A key-value store holding `a=1`, `b=2` (what the executor reads of one). */
const store = {
  approximateNumEntries: () => 2,
  getAsync: async (key: string) => ({ a: 1, b: 2 })[key],
  rangeAsync: async () => [
    { key: 'a', value: 1 },
    { key: 'b', value: 2 },
  ],
};
const position = () => ({ regions: { '0': 4, '1': 7 } });

describe('executeGlobalStateQuery', () => {
  it("answers from the whole copy in globalResult, whatever partitions were asked, with the topic's position", async () => {
    for (const partitions of [undefined, [3], [0, 1]]) {
      const answer = await executeGlobalStateQuery(
        { storeName: 'regions', query: KeyQuery.withKey('b'), partitions, requireActive: true },
        { store, position },
        'restoring',
      );
      expect(answer).toEqual({
        partitionResults: [],
        globalResult: {
          partition: -1,
          success: true,
          result: 2,
          position: position(),
          active: true,
          lag: 0,
        },
        position: position(),
      });
    }
    const range = await executeGlobalStateQuery(
      { storeName: 'regions', query: RangeQuery.withNoBounds() },
      { store, position },
      'restoring',
    );
    expect(range.globalResult?.result).toEqual([
      { key: 'a', value: 1 },
      { key: 'b', value: 2 },
    ]);
  });

  it('answers NOT_PRESENT, saying why, while the copy cannot be read, and holds the position bound', async () => {
    const restoring = await executeGlobalStateQuery(
      { storeName: 'regions', query: KeyQuery.withKey('a') },
      { store: undefined, position },
      'restoring',
    );
    expect(restoring).toEqual({
      partitionResults: [],
      globalResult: {
        partition: -1,
        success: false,
        failureReason: FailureReason.NOT_PRESENT,
        failureMessage:
          "global store 'regions' is not queryable here yet (restoring): retry shortly",
        position: {},
        active: false,
      },
      position: {},
    });
    const ahead = await executeGlobalStateQuery(
      {
        storeName: 'regions',
        query: KeyQuery.withKey('a'),
        positionBound: { regions: { '1': 8 } },
      },
      { store, position },
      'restoring',
    );
    expect(ahead.globalResult?.failureReason).toBe(FailureReason.NOT_UP_TO_BOUND);
    const window = await executeGlobalStateQuery(
      { storeName: 'regions', query: WindowKeyQuery.withKeyAndWindowStartRange('a', 0, 1) },
      { store, position },
      'restoring',
    );
    expect(window.globalResult?.failureReason).toBe(FailureReason.UNKNOWN_QUERY_TYPE);
  });
});
