import { memoryStoreKinds, memoryStoreName, memoryTopology } from './memory-topology';

describe('memory topology', () => {
  it('makes every fifth store a windowed count: 1 = 1 + 0, 10 = 8 + 2, 50 = 40 + 10, 200 = 160 + 40', () => {
    expect([1, 4, 5, 10, 50, 200].map(memoryStoreKinds)).toEqual([
      { keyValue: 1, windowed: 0 },
      { keyValue: 4, windowed: 0 },
      { keyValue: 4, windowed: 1 },
      { keyValue: 8, windowed: 2 },
      { keyValue: 40, windowed: 10 },
      { keyValue: 160, windowed: 40 },
    ]);
  });

  it("names the stores as the Java peer's, indices 4, 9, 14, ... windowed", () => {
    expect([0, 3, 4, 5, 9, 199].map(memoryStoreName)).toEqual([
      'count-store-000',
      'count-store-003',
      'windowed-count-store-004',
      'count-store-005',
      'windowed-count-store-009',
      'windowed-count-store-199',
    ]);
  });

  it('builds N stores, none logged, the windowed ones as window stores kept one hour', () => {
    const stores = [...memoryTopology('input', 10).stores().values()];
    expect(stores.map((s) => s.name)).toEqual(
      Array.from({ length: 10 }, (_, i) => memoryStoreName(i)),
    );
    expect(stores.map((s) => s.loggingEnabled)).toEqual(Array<boolean>(10).fill(false));
    expect(stores.filter((s) => s.changelogKind === 'window').map((s) => s.name)).toEqual([
      'windowed-count-store-004',
      'windowed-count-store-009',
    ]);
    expect(stores[4].retentionMs).toBe(60 * 60_000);
    expect([...memoryTopology('input', 10, true).stores().keys()]).toHaveLength(10);
  });
});
