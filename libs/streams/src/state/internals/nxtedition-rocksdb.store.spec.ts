import { join } from 'node:path';
import { RocksDBConfigError } from '../../errors/rocksdb-config.error';
import type { RocksDBConfigSetter } from '../rocksdb-config-setter';
import type { RocksDBOptions } from '../rocksdb-options';
import { describeBytesStoreContract } from '../../../test-support/bytes-store.contract';
import { NxteditionRocksDBStore } from './nxtedition-rocksdb.store';
import { writtenRocksDBOptions as writtenOptions } from './rocksdb-options-file';
import { BoundedMemoryRocksDBConfig } from '../bounded-memory-rocksdb-config';
import { useTempDirectory } from '../../../../rocksdb/test-support/temp-directory';

describeBytesStoreContract(
  'NxteditionRocksDBStore',
  (name, directory) => new NxteditionRocksDBStore({ name, directory }),
);

const root = useTempDirectory('nxtedition-rocksdb-');

describe('NxteditionRocksDBStore', () => {
  it("opens with Kafka Streams' defaults where the binding can apply them", async () => {
    const directory = join(root(), 'defaults');
    const store = new NxteditionRocksDBStore({ name: 'defaults', directory });
    await store.open();
    expect(store.metrics().blockCacheCapacityBytes).toBe(50 * 1024 * 1024);
    await store.close();
    const written = writtenOptions(directory);
    expect(written.get('write_buffer_size')).toBe(String(16 * 1024 * 1024));
    expect(written.get('max_write_buffer_number')).toBe('6');
    expect(written.get('compression')).toBe('kNoCompression');
    expect(written.get('compaction_style')).toBe('kCompactionStyleUniversal');
    expect(written.get('block_size')).toBe('4096');
    expect(written.get('filter_policy')).toBe('bloomfilter:10:false');
  });

  it('applies a config setter and calls its close with the same options', async () => {
    const directory = join(root(), 'tuned');
    const seen: RocksDBOptions[] = [];
    const setter: RocksDBConfigSetter = {
      setConfig(storeName, options, configs) {
        expect(storeName).toBe('tuned');
        expect(configs).toEqual({ 'application.id': 'app' });
        options.blockCacheSize = 8 * 1024 * 1024;
        options.writeBufferSize = 4 * 1024 * 1024;
        options.blockSize = 16 * 1024;
        options.bloomFilterBitsPerKey = 0;
        options.compactionStyle = 'level';
        options.compression = 'zstd';
        seen.push(options);
      },
      close(_storeName, options) {
        seen.push(options);
      },
    };
    const store = new NxteditionRocksDBStore({
      name: 'tuned',
      directory,
      configSetter: setter,
      configs: { 'application.id': 'app' },
    });
    await store.open();
    expect(store.appliedOptions?.blockCacheSize).toBe(8 * 1024 * 1024);
    expect(store.metrics().blockCacheCapacityBytes).toBe(8 * 1024 * 1024);
    await store.close();
    expect(seen).toHaveLength(2);
    expect(seen[1]).toBe(seen[0]);
    const written = writtenOptions(directory);
    expect(written.get('write_buffer_size')).toBe(String(4 * 1024 * 1024));
    expect(written.get('block_size')).toBe(String(16 * 1024));
    expect(written.get('filter_policy')).toBe('nullptr');
    expect(written.get('compaction_style')).toBe('kCompactionStyleLevel');
  });

  it('rejects options the binding cannot apply, naming each', async () => {
    const store = new NxteditionRocksDBStore({
      name: 'impossible',
      directory: join(root(), 'impossible'),
      configSetter: {
        setConfig(_name, options) {
          options.maxWriteBufferNumber = 3;
          options.maxOpenFiles = 100;
          options.walEnabled = false;
          options.compression = 'snappy';
        },
      },
    });
    const failure = store.open();
    await expect(failure).rejects.toBeInstanceOf(RocksDBConfigError);
    await expect(failure).rejects.toMatchObject({
      code: 'ROCKSDB_CONFIG_INVALID',
      problems: [
        expect.stringContaining('maxWriteBufferNumber=3'),
        expect.stringContaining('compression=snappy'),
        expect.stringContaining('maxOpenFiles=100'),
        expect.stringContaining('walEnabled=false'),
      ],
    });
    expect(store.isOpen()).toBe(false);
  });

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

  it('fails with a ProcessorStateError when the directory is locked by another store', async () => {
    const directory = join(root(), 'locked');
    const first = new NxteditionRocksDBStore({ name: 'first', directory });
    const second = new NxteditionRocksDBStore({ name: 'second', directory });
    await first.open();
    await expect(second.open()).rejects.toMatchObject({
      code: 'PROCESSOR_STATE_ERROR',
      message: expect.stringMatching(/lock/i),
    });
    await first.close();
  });
});
