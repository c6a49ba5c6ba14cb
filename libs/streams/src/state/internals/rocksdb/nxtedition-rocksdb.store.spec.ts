import { join } from 'node:path';
import type { RocksDBOptions } from '../../rocksdb-options';
import { describeRocksDBStoreContracts } from '../../../../test-support/rocksdb-engine.contract';
import { NxteditionRocksDBStore } from './nxtedition-rocksdb.store';
import { BoundedMemoryRocksDBConfig } from '../../bounded-memory-rocksdb-config';
import { useTempDirectory } from '../../../../../rocksdb/test-support/temp-directory';

describeRocksDBStoreContracts(
  'NxteditionRocksDBStore',
  (params) => new NxteditionRocksDBStore(params),
  {
    engine: '@nxtedition/rocksdb',
    walEnabled: true,
    // The binding fixes the number of memtables.
    defaults: { max_write_buffer_number: '6' },
    tune(options) {
      options.blockSize = 16 * 1024;
      options.bloomFilterBitsPerKey = 0;
      options.compression = 'zstd';
    },
    tuned: { block_size: String(16 * 1024), filter_policy: 'nullptr' },
    impossible(options) {
      options.maxWriteBufferNumber = 3;
      options.maxOpenFiles = 100;
      options.walEnabled = false;
      options.compression = 'snappy';
    },
    problems: [
      'maxWriteBufferNumber=3',
      'compression=snappy',
      'maxOpenFiles=100',
      'walEnabled=false',
    ],
  },
);

const root = useTempDirectory('nxtedition-rocksdb-');

describe('NxteditionRocksDBStore', () => {
  it('refuses the shared objects of bounded memory, and the settings it has no knob for', async () => {
    const shared = { native: {}, capacity: () => 1 } as unknown as RocksDBOptions['blockCache'];
    const store = new NxteditionRocksDBStore({
      name: 'bounded',
      directory: join(root(), 'bounded'),
      configSetter: {
        setConfig(_name, options) {
          options.blockCache = shared;
          options.writeBufferManager = shared as unknown as RocksDBOptions['writeBufferManager'];
          options.partitionedIndexAndFilters = true;
          options.maxBackgroundJobs = 2;
        },
      },
    });
    await expect(store.open()).rejects.toMatchObject({
      code: 'ROCKSDB_CONFIG_INVALID',
      problems: [
        expect.stringContaining('partitionedIndexAndFilters=true'),
        expect.stringContaining('maxBackgroundJobs=2'),
        expect.stringContaining('blockCache (the binding cannot share a block cache'),
        expect.stringContaining('writeBufferManager (the binding has no write-buffer manager'),
      ],
    });
  });

  it('runs BoundedMemoryRocksDBConfig as far as it can: a small cache per store', async () => {
    const setter = new BoundedMemoryRocksDBConfig({
      totalOffHeapBytes: 64 * 1024 * 1024,
      writeBufferSize: 2 * 1024 * 1024,
    });
    const store = new NxteditionRocksDBStore({
      name: 'fallback',
      directory: join(root(), 'fallback'),
      configSetter: setter,
    });
    await store.open();
    expect(store.appliedOptions).toMatchObject({
      blockCacheSize: 4 * 1024 * 1024,
      cacheIndexAndFilterBlocks: true,
      writeBufferSize: 2 * 1024 * 1024,
    });
    expect(setter.usage().capacityBytes).toBe(0);
    await store.close();
  });

  it('reports memory and compaction metrics', async () => {
    const store = new NxteditionRocksDBStore({ name: 'metrics', directory: join(root(), 'm') });
    await store.open();
    store.putAll(
      Array.from({ length: 1000 }, (_, i) => ({
        key: Buffer.from(`k${i}`),
        value: Buffer.alloc(100, i),
      })),
    );
    const metrics = store.metrics();
    expect(metrics.memTablesBytes).toBeGreaterThan(100_000);
    expect(metrics.estimatedNumKeys).toBe(1000);
    expect(metrics.blockCacheUsageBytes).toBeGreaterThanOrEqual(0);
    expect(metrics.tableReadersBytes).toBeGreaterThanOrEqual(0);
    expect(metrics.totalSstFilesBytes).toBe(0);
    expect(metrics.compactionPending).toBe(false);
    await store.close();
  });
});
