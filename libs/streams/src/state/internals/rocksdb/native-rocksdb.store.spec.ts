import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { RocksDBOptions } from '../../rocksdb-options';
import { describeRocksDBStoreContracts } from '../../../../test-support/rocksdb-engine.contract';
import { loadedRocksDBBindings } from './rocksdb-binding-guard';
import { NativeRocksDBStore } from './native-rocksdb.store';
import { NxteditionRocksDBStore } from './nxtedition-rocksdb.store';
import { withTimestamps } from '../timestamped-changelog';
import { useTempDirectory } from '../../../../../rocksdb/test-support/temp-directory';

describeRocksDBStoreContracts('NativeRocksDBStore', (params) => new NativeRocksDBStore(params), {
  engine: '@nest-streams/rocksdb',
  walEnabled: false,
  defaults: { max_write_buffer_number: '3', max_write_buffer_size_to_maintain: '0' },
  // What the npm bindings cannot apply.
  tune(options) {
    options.maxWriteBufferNumber = 2;
    options.maxOpenFiles = 500;
    options.compression = 'snappy';
    options.cacheIndexAndFilterBlocks = true;
    options.parallelism = 3;
    options.arenaBlockSize = 128 * 1024;
    options.chargeTableReadersToCache = true;
  },
  tuned: {
    max_write_buffer_number: '2',
    max_open_files: '500',
    compression: 'kSnappyCompression',
    cache_index_and_filter_blocks: 'true',
    max_background_jobs: '3',
    arena_block_size: String(128 * 1024),
  },
  impossible(options) {
    options.maxWriteBufferNumber = 1;
    options.maxOpenFiles = 5;
    options.blockCacheSize = 0;
    options.cacheIndexAndFilterBlocks = true;
    options.compression = 'lz4' as 'zstd';
    options.maxBackgroundJobs = -1;
    options.arenaBlockSize = 100;
    options.blockCache = { capacity: () => 1 } as unknown as RocksDBOptions['blockCache'];
  },
  problems: [
    'maxWriteBufferNumber=1',
    'compression=lz4',
    'maxOpenFiles=5',
    'arenaBlockSize=100',
    'maxBackgroundJobs=-1',
    'blockCache (a Cache of @nest-streams/rocksdb',
  ],
});

const root = useTempDirectory('native-rocksdb-');

describe('NativeRocksDBStore', () => {
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

  it("restores a timestamped store's changelog records as withTimestamps builds them, in batch order's result", async () => {
    const b = (text: string): Buffer => Buffer.from(text);
    const records = [
      { key: b('m'), value: b('1'), timestamp: 1_700_000_000_123 },
      { key: b('c'), value: b('2'), timestamp: 5 },
      { key: b('m'), value: b('3'), timestamp: '1700000000999' },
      { key: b('x'), value: b('4'), timestamp: 7 },
      { key: b('x'), value: null, timestamp: 8 },
      { key: b('e'), value: Buffer.alloc(0), timestamp: 0 },
    ];
    const direct = new NativeRocksDBStore({ name: 'stamped', directory: join(root(), 'stamped') });
    const built = new NativeRocksDBStore({ name: 'built', directory: join(root(), 'built') });
    await direct.open();
    await built.open();
    await direct.putAllWithTimestampsAsync(records);
    await built.putAllAsync(withTimestamps(records));
    const entries = (store: NativeRocksDBStore) =>
      [...store.all()].map((e) => `${e.key}=${e.value.toString('hex')}`);
    expect(entries(direct)).toEqual(entries(built));
    expect(direct.get(b('m'))).toEqual(
      Buffer.concat([Buffer.from('0000018bcfe56be7', 'hex'), b('3')]),
    );
    expect(direct.get(b('x'))).toBeUndefined();
    expect(direct.get(b('e'))?.length).toBe(8);
    await direct.close();
    await built.close();
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
