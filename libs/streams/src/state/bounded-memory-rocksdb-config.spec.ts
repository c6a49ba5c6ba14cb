import { join } from 'node:path';
import { StreamsConfigError } from '../errors/streams-config.error';
import { BoundedMemoryRocksDBConfig } from './bounded-memory-rocksdb-config';
import type { BytesStore } from './bytes-store';
import { NativeRocksDBStore } from './internals/rocksdb/native-rocksdb.store';
import { writtenRocksDBOptions } from './internals/rocksdb/rocksdb-options-file';
import { RocksDBOptions } from './rocksdb-options';
import { Stores } from './stores';
import { useTempDirectory } from '../../../rocksdb/test-support/temp-directory';

const MiB = 1024 * 1024;

const root = useTempDirectory('bounded-memory-');

describe('BoundedMemoryRocksDBConfig', () => {
  const open: BytesStore[] = [];

  afterEach(async () => {
    for (const store of open.splice(0)) await store.close();
  });

  async function openStores(setter: BoundedMemoryRocksDBConfig, count: number) {
    const stores: NativeRocksDBStore[] = [];
    for (let i = 0; i < count; i++) {
      const name = `store-${i}`;
      const store = Stores.persistentKeyValueStore(name, { configSetter: setter }).get({
        directory: join(root(), name),
        configs: {},
      });
      expect(store).toBeInstanceOf(NativeRocksDBStore);
      await store.open();
      open.push(store);
      stores.push(store as NativeRocksDBStore);
    }
    return stores;
  }

  it('gives every store one cache and one write-buffer manager charged to it', async () => {
    const setter = new BoundedMemoryRocksDBConfig({
      totalOffHeapBytes: 16 * MiB,
      totalMemtableBytes: 4 * MiB,
      writeBufferSize: 1 * MiB,
      maxWriteBufferNumber: 3,
      blockSize: 8 * 1024,
    });
    const stores = await openStores(setter, 12);
    for (const store of stores) {
      // The capacity each store reports is the shared cache's, not a cache of its own.
      expect(store.metrics().blockCacheCapacityBytes).toBe(16 * MiB);
    }
    // 12 stores x 2 MiB of values: more than the whole budget, written in batches.
    const value = Buffer.alloc(1024, 7);
    for (let batch = 0; batch < 16; batch++) {
      for (const store of stores) {
        store.putAll(
          Array.from({ length: 128 }, (_, i) => ({
            key: Buffer.from(`k-${batch}-${String(i).padStart(4, '0')}`),
            value,
          })),
        );
      }
    }
    // The write-buffer manager never stalls writes: past its budget it schedules flushes of
    // the largest memtables, and the memory comes back once they ran.
    const peak = setter.usage().memtableBytes;
    expect(peak).toBeGreaterThan(4 * MiB);
    // Flushes are not stalled on: they run in the background, so wait (up to 10 s) until they
    // ran: usage below the peak and unchanged for half a second (on a busy machine a flush
    // takes longer than one 50 ms sample).
    let last = peak;
    for (let i = 0, steady = 0; i < 200 && steady < 10; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      const now = setter.usage().memtableBytes;
      steady = now === last && now < peak ? steady + 1 : 0;
      last = now;
    }
    const usage = setter.usage();
    expect(usage.capacityBytes).toBe(16 * MiB);
    // The memtables are charged to the cache: its usage counts them, and stays near the budget.
    expect(usage.memtableBytes).toBeGreaterThan(0);
    expect(usage.cacheUsageBytes).toBeGreaterThanOrEqual(usage.memtableBytes);
    expect(usage.memtableBytes).toBeLessThan(peak);
    // What stays: the active memtable of each store, each at most one write buffer (what is
    // left depends on how far each memtable had filled since the manager's last flush).
    expect(usage.memtableBytes).toBeLessThanOrEqual(12 * MiB);
    // Over its capacity only by what is in use (charged memtables, table readers and file
    // metadata of open files): everything else is evicted first.
    expect(usage.cacheUsageBytes).toBeLessThanOrEqual(16 * MiB + usage.pinnedBytes);
    // Reads go through the shared cache too.
    expect(stores[3].get(Buffer.from('k-0-0005'))).toEqual(value);

    const directory = join(root(), 'store-0');
    await stores[0].close();
    const written = writtenRocksDBOptions(directory);
    expect(written.get('cache_index_and_filter_blocks')).toBe('true');
    expect(written.get('cache_index_and_filter_blocks_with_high_priority')).toBe('true');
    expect(written.get('index_type')).toBe('kTwoLevelIndexSearch');
    expect(written.get('partition_filters')).toBe('true');
    expect(written.get('pin_top_level_index_and_filter')).toBe('true');
    expect(written.get('block_size')).toBe(String(8 * 1024));
    expect(written.get('write_buffer_size')).toBe(String(1 * MiB));
    expect(written.get('max_write_buffer_number')).toBe('3');
    expect(written.get('db_write_buffer_size')).toBe('0');
    // Memtables grow in 64 KiB blocks, not an eighth of the write buffer.
    expect(written.get('arena_block_size')).toBe(String(64 * 1024));
    // Closing one store leaves the shared objects to the others.
    expect(stores[1].get(Buffer.from('k-0-0005'))).toEqual(value);
    expect(setter.usage().capacityBytes).toBe(16 * MiB);
  }, 20_000);

  it("applies Java's setter surface and a HyperClock cache", () => {
    const setter = new BoundedMemoryRocksDBConfig({
      totalOffHeapBytes: 8 * MiB,
      cacheType: 'hyperClock',
      compactionStyle: 'level',
      compression: 'none',
      bloomFilterBitsPerKey: 12,
      maxBackgroundJobs: 3,
      partitionedIndexAndFilters: false,
      arenaBlockSize: 256 * 1024,
    });
    const options = new RocksDBOptions();
    setter.setConfig('s', options);
    expect(options.blockCache?.capacity()).toBe(8 * MiB);
    expect(options.writeBufferManager?.bufferSize()).toBe(2 * MiB);
    expect(options.writeBufferManager?.costToCache()).toBe(true);
    expect(options).toMatchObject({
      cacheIndexAndFilterBlocks: true,
      cacheIndexAndFilterBlocksWithHighPriority: true,
      partitionedIndexAndFilters: false,
      compactionStyle: 'level',
      bloomFilterBitsPerKey: 12,
      maxBackgroundJobs: 3,
      chargeTableReadersToCache: true,
      arenaBlockSize: 256 * 1024,
    });
    const other = new RocksDBOptions();
    setter.setConfig('t', other);
    expect(other.blockCache).toBe(options.blockCache);
    expect(other.writeBufferManager).toBe(options.writeBufferManager);
    setter.dispose();
    expect(setter.usage()).toEqual({
      capacityBytes: 0,
      cacheUsageBytes: 0,
      pinnedBytes: 0,
      memtableBytes: 0,
    });
  });

  it('refuses sizes and ratios out of range', () => {
    expect(() => new BoundedMemoryRocksDBConfig({ totalOffHeapBytes: 1000 })).toThrow(
      StreamsConfigError,
    );
    expect(
      () =>
        new BoundedMemoryRocksDBConfig({ totalOffHeapBytes: 8 * MiB, totalMemtableBytes: 9 * MiB }),
    ).toThrow('totalMemtableBytes (9437184) must not exceed totalOffHeapBytes (8388608)');
    expect(
      () =>
        new BoundedMemoryRocksDBConfig({ totalOffHeapBytes: 8 * MiB, indexFilterBlockRatio: 2 }),
    ).toThrow('indexFilterBlockRatio must be in [0, 1], got 2');
    expect(
      () => new BoundedMemoryRocksDBConfig({ totalOffHeapBytes: 8 * MiB, arenaBlockSize: 1000 }),
    ).toThrow('arenaBlockSize must be an integer of at least 4096 bytes, got 1000');
  });
});
