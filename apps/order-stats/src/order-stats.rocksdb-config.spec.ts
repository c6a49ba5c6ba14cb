import { orderStatsRocksDBSizing } from './order-stats.rocksdb-config';

const MiB = 1024 * 1024;

describe('orderStatsRocksDBSizing', () => {
  it('puts the whole budget in one shared cache, a quarter of it for memtables', () => {
    expect(orderStatsRocksDBSizing(256)).toEqual({
      totalOffHeapBytes: 256 * MiB,
      totalMemtableBytes: 64 * MiB,
      writeBufferSize: 16 * MiB,
      maxWriteBufferNumber: 3,
    });
  });

  it("keeps the source text's 32 MiB memtables when the budget allows, 1 MiB at least", () => {
    expect(orderStatsRocksDBSizing(2048).writeBufferSize).toBe(32 * MiB);
    expect(orderStatsRocksDBSizing(16).writeBufferSize).toBe(1 * MiB);
  });
});
