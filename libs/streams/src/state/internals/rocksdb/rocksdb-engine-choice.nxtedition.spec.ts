import { join } from 'node:path';
import { Stores } from '../../stores';
import { NxteditionRocksDBStore } from './nxtedition-rocksdb.store';
import { loadedRocksDBBindings } from './rocksdb-binding-guard';
import { chooseRocksDBEngine, FALLBACK_LOSSES } from './rocksdb-engine-choice';
import { useTempDirectory } from '../../../../../rocksdb/test-support/temp-directory';

// This file runs in jest.nxtedition-rocksdb.config.js, where NEST_STREAMS_ROCKSDB_DISABLE=1
// makes the addon refuse to load: the situation of a machine without the system RocksDB.
const root = useTempDirectory('engine-fallback-');

describe('the RocksDB engine of a process where the addon is not available', () => {
  it('falls back to @nxtedition/rocksdb and says once what is lost and why', async () => {
    expect(process.env.NEST_STREAMS_ROCKSDB_DISABLE).toBe('1');
    const logger = { info: jest.fn(), warn: jest.fn() };
    const choice = chooseRocksDBEngine(logger);
    expect(choice.engine).toBe('@nxtedition/rocksdb');
    expect(choice.fallbackReason).toContain('disabled by NEST_STREAMS_ROCKSDB_DISABLE=1');
    expect(chooseRocksDBEngine(logger)).toBe(choice);
    expect(logger.warn).toHaveBeenCalledTimes(1);
    const [line] = logger.warn.mock.calls[0] as [string];
    expect(line).toContain('RocksDB engine: @nxtedition/rocksdb, because @nest-streams/rocksdb');
    expect(line).toContain(choice.fallbackReason);
    expect(line).toContain(FALLBACK_LOSSES);
    for (const lost of [
      'block cache and write-buffer manager',
      'memtable flush',
      'WAL-off writes',
      'maxWriteBufferNumber',
    ]) {
      expect(FALLBACK_LOSSES).toContain(lost);
    }

    const store = Stores.persistentKeyValueStore('stats-store').get({
      directory: join(root(), 'stats-store'),
      configs: {},
    });
    expect(store).toBeInstanceOf(NxteditionRocksDBStore);
    await store.open();
    store.put(Buffer.from('k'), Buffer.from('v'));
    expect(store.get(Buffer.from('k'))).toEqual(Buffer.from('v'));
    expect(loadedRocksDBBindings()).toEqual(['@nxtedition/rocksdb']);
    await store.close();
  });
});
