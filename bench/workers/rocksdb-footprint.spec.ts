import type { LocalStoreMetrics, RocksDBStoreMetrics } from '@nest-streams/streams';
import { rocksdbFootprint } from './rocksdb-footprint';

const MIB = 2 ** 20;

const store = (rocksdb?: Partial<RocksDBStoreMetrics>): LocalStoreMetrics =>
  ({ store: 's', taskId: '0_0', scope: 'rocksdb', operations: {}, rocksdb }) as never;

describe('rocksdbFootprint', () => {
  it('counts a shared cache once, at the smallest figure a store reports, and sums the rest', () => {
    const shared = { sharedBlockCache: true, blockCacheUsageBytes: 64 * MIB };
    const footprint = rocksdbFootprint([
      store({ ...shared, blockCachePinnedUsageBytes: 2 * MIB, memTablesBytes: 1 * MIB }),
      store({ ...shared, blockCachePinnedUsageBytes: 2 * MIB, memTablesBytes: 3 * MIB }),
      // A window store sums the shared cache over its 3 segments.
      store({
        sharedBlockCache: true,
        blockCacheUsageBytes: 192 * MIB,
        blockCachePinnedUsageBytes: 6 * MIB,
        tableReadersBytes: MIB / 2,
      }),
      store(undefined),
    ]);
    expect(footprint).toEqual({
      stores: 3,
      blockCacheMb: 64,
      blockCachePinnedMb: 2,
      memTablesMb: 4,
      tableReadersMb: 0.5,
    });
  });

  it('sums caches of their own (RocksDB defaults)', () => {
    const footprint = rocksdbFootprint([
      store({ blockCacheUsageBytes: 10 * MIB, blockCachePinnedUsageBytes: MIB }),
      store({ blockCacheUsageBytes: 5 * MIB }),
    ]);
    expect(footprint).toMatchObject({ stores: 2, blockCacheMb: 15, blockCachePinnedMb: 1 });
  });
});
