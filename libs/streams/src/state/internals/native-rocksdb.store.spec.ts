import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { RocksDBConfigError } from '../../errors/rocksdb-config.error';
import type { RocksDBConfigSetter } from '../rocksdb-config-setter';
import type { RocksDBOptions } from '../rocksdb-options';
import { describeBytesStoreContract } from '../../../test-support/bytes-store.contract';
import { loadedRocksDBBindings } from './rocksdb-binding-guard';
import { writtenRocksDBOptions as writtenOptions } from './rocksdb-options-file';
import { NativeRocksDBStore } from './native-rocksdb.store';
import { NxteditionRocksDBStore } from './nxtedition-rocksdb.store';
import { useTempDirectory } from '../../../../rocksdb/test-support/temp-directory';

describeBytesStoreContract(
  'NativeRocksDBStore',
  (name, directory) => new NativeRocksDBStore({ name, directory }),
);

const root = useTempDirectory('native-rocksdb-');

describe('NativeRocksDBStore', () => {
  it("opens with Kafka Streams' defaults, all of them", async () => {
    const directory = join(root(), 'defaults');
    const store = new NativeRocksDBStore({ name: 'defaults', directory });
    await store.open();
    expect(store.appliedOptions?.walEnabled).toBe(false);
    expect(store.metrics().blockCacheCapacityBytes).toBe(50 * 1024 * 1024);
    await store.close();
    const written = writtenOptions(directory);
    expect(written.get('write_buffer_size')).toBe(String(16 * 1024 * 1024));
    expect(written.get('max_write_buffer_number')).toBe('3');
    expect(written.get('compression')).toBe('kNoCompression');
    expect(written.get('compaction_style')).toBe('kCompactionStyleUniversal');
    expect(written.get('block_size')).toBe('4096');
    expect(written.get('filter_policy')).toBe('bloomfilter:10:false');
    expect(written.get('max_write_buffer_size_to_maintain')).toBe('0');
  });

  it('applies what the npm bindings cannot, and calls the setter’s close', async () => {
    const directory = join(root(), 'tuned');
    const seen: RocksDBOptions[] = [];
    const setter: RocksDBConfigSetter = {
      setConfig(storeName, options, configs) {
        expect(storeName).toBe('tuned');
        expect(configs).toEqual({ 'application.id': 'app' });
        options.blockCacheSize = 8 * 1024 * 1024;
        options.writeBufferSize = 4 * 1024 * 1024;
        options.maxWriteBufferNumber = 2;
        options.maxOpenFiles = 500;
        options.compression = 'snappy';
        options.compactionStyle = 'level';
        options.cacheIndexAndFilterBlocks = true;
        options.parallelism = 3;
        seen.push(options);
      },
      close(_storeName, options) {
        seen.push(options);
      },
    };
    const store = new NativeRocksDBStore({
      name: 'tuned',
      directory,
      configSetter: setter,
      configs: { 'application.id': 'app' },
    });
    await store.open();
    expect(store.metrics().blockCacheCapacityBytes).toBe(8 * 1024 * 1024);
    await store.close();
    expect(seen).toHaveLength(2);
    expect(seen[1]).toBe(seen[0]);
    const written = writtenOptions(directory);
    expect(written.get('write_buffer_size')).toBe(String(4 * 1024 * 1024));
    expect(written.get('max_write_buffer_number')).toBe('2');
    expect(written.get('max_open_files')).toBe('500');
    expect(written.get('compression')).toBe('kSnappyCompression');
    expect(written.get('compaction_style')).toBe('kCompactionStyleLevel');
    expect(written.get('cache_index_and_filter_blocks')).toBe('true');
    expect(written.get('max_background_jobs')).toBe('3');
  });

  it('rejects options it cannot apply, naming each', async () => {
    const store = new NativeRocksDBStore({
      name: 'impossible',
      directory: join(root(), 'impossible'),
      configSetter: {
        setConfig(_name, options) {
          options.maxWriteBufferNumber = 1;
          options.maxOpenFiles = 5;
          options.blockCacheSize = 0;
          options.cacheIndexAndFilterBlocks = true;
          options.compression = 'lz4' as 'zstd';
          options.maxBackgroundJobs = -1;
          options.blockCache = { capacity: () => 1 } as unknown as RocksDBOptions['blockCache'];
        },
      },
    });
    const failure = store.open();
    await expect(failure).rejects.toBeInstanceOf(RocksDBConfigError);
    await expect(failure).rejects.toMatchObject({
      code: 'ROCKSDB_CONFIG_INVALID',
      engine: '@nest-streams/rocksdb',
      problems: [
        expect.stringContaining('maxWriteBufferNumber=1'),
        expect.stringContaining('compression=lz4'),
        expect.stringContaining('maxOpenFiles=5'),
        expect.stringContaining('maxBackgroundJobs=-1'),
        expect.stringContaining('blockCache (a Cache of @nest-streams/rocksdb'),
      ],
    });
    expect(store.isOpen()).toBe(false);
  });

  it('flushes WAL-off writes to SST files, and fsyncs the WAL when it is on', async () => {
    const store = new NativeRocksDBStore({ name: 'flush', directory: join(root(), 'flush') });
    await store.open();
    store.putAll(
      Array.from({ length: 1000 }, (_, i) => ({
        key: Buffer.from(`k${i}`),
        value: Buffer.alloc(100),
      })),
    );
    expect(store.metrics().memTablesBytes).toBeGreaterThan(100_000);
    await store.flush();
    expect(store.metrics().totalSstFilesBytes).toBeGreaterThan(0);
    expect(store.metrics().memTablesBytes).toBeLessThan(100_000);
    await store.close();
    const logged = new NativeRocksDBStore({
      name: 'wal',
      directory: join(root(), 'wal'),
      configSetter: { setConfig: (_name, options) => void (options.walEnabled = true) },
    });
    await logged.open();
    logged.put(Buffer.from('a'), Buffer.from('1'));
    await logged.flush();
    expect(logged.metrics().totalSstFilesBytes).toBe(0);
    await logged.close();
  });

  it('bulk-loads through an SST file: sorted, last write wins, tombstones, after earlier writes', async () => {
    const directory = join(root(), 'bulk');
    const store = new NativeRocksDBStore({ name: 'bulk', directory });
    await store.open();
    const b = (text: string): Buffer => Buffer.from(text);
    store.putAll([
      { key: b('a'), value: b('old') },
      { key: b('d'), value: b('old') },
      { key: b('z'), value: b('old') },
    ]);
    await store.bulkLoad([
      { key: b('c'), value: b('1') },
      { key: b('a'), value: b('1') },
      { key: b('c'), value: b('2') },
      { key: b('d'), value: null },
      { key: b('b'), value: b('1') },
    ]);
    const text = [...store.all()].map((entry) => `${entry.key}=${entry.value}`);
    expect(text).toEqual(['a=1', 'b=1', 'c=2', 'z=old']);
    expect(readdirSync(directory).filter((name) => name.startsWith('bulk-load-'))).toEqual([]);
    await store.bulkLoad([]);
    await expect(
      store.bulkLoad([{ key: b('x'), value: 'no' as unknown as Buffer }]),
    ).rejects.toThrow(TypeError);
    expect(store.get(b('x'))).toBeUndefined();
    await store.close();
    await store.open();
    expect(store.get(b('c'))?.toString()).toBe('2');
    await store.close();
    await expect(store.bulkLoad([{ key: b('x'), value: b('1') }])).rejects.toMatchObject({
      code: 'STORE_CLOSED',
    });
  });

  it('passes a TypeError through for a key that is not a Buffer', async () => {
    const store = new NativeRocksDBStore({ name: 'types', directory: join(root(), 'types') });
    await store.open();
    const notBuffer = 'a' as unknown as Buffer;
    for (const call of [
      () => store.get(notBuffer),
      () => store.getMany([notBuffer]),
      () => store.put(notBuffer, Buffer.alloc(1)),
    ]) {
      expect(call).toThrow(expect.objectContaining({ name: 'TypeError' }));
    }
    await store.close();
  });

  it('fails with a ProcessorStateError when the directory is locked by another store', async () => {
    const directory = join(root(), 'locked');
    const first = new NativeRocksDBStore({ name: 'first', directory });
    const second = new NativeRocksDBStore({ name: 'second', directory });
    await first.open();
    await expect(second.open()).rejects.toMatchObject({
      code: 'PROCESSOR_STATE_ERROR',
      message: expect.stringMatching(/lock/i),
    });
    await first.close();
  });

  it('refuses to load another RocksDB binding into the same process', async () => {
    const store = new NativeRocksDBStore({ name: 'loaded', directory: join(root(), 'loaded') });
    await store.open();
    expect(loadedRocksDBBindings()).toEqual(['@nest-streams/rocksdb']);
    const other = new NxteditionRocksDBStore({ name: 'other', directory: join(root(), 'other') });
    await expect(other.open()).rejects.toMatchObject({ code: 'ROCKSDB_BINDING_CONFLICT' });
    expect(loadedRocksDBBindings()).toEqual(['@nest-streams/rocksdb']);
    await store.close();
  });
});
