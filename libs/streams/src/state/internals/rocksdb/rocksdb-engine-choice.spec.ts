import { join } from 'node:path';
import { Stores } from '../../stores';
import { NativeRocksDBStore } from './native-rocksdb.store';
import { loadedRocksDBBindings } from './rocksdb-binding-guard';
import { chooseRocksDBEngine, chosenRocksDBEngine } from './rocksdb-engine-choice';
import { useTempDirectory } from '../../../../../rocksdb/test-support/temp-directory';

const root = useTempDirectory('engine-choice-');

describe('the RocksDB engine of a process where the addon is built', () => {
  it('is @nest-streams/rocksdb, chosen once, and logged at info level only', async () => {
    expect(chosenRocksDBEngine()).toBeUndefined();
    const logger = { info: jest.fn(), warn: jest.fn() };
    expect(chooseRocksDBEngine(logger)).toEqual({ engine: '@nest-streams/rocksdb' });
    expect(chooseRocksDBEngine(logger)).toEqual({ engine: '@nest-streams/rocksdb' });
    expect(logger.warn).not.toHaveBeenCalled();
    expect(logger.info).toHaveBeenCalledTimes(1);
    expect(logger.info.mock.calls[0][0]).toMatch(
      /^RocksDB engine: @nest-streams\/rocksdb \(system RocksDB \d+\.\d+\.\d+\)$/,
    );

    const store = Stores.persistentKeyValueStore('stats-store').get({
      directory: join(root(), 'stats-store'),
      configs: {},
    });
    expect(store).toBeInstanceOf(NativeRocksDBStore);
    await store.open();
    expect(loadedRocksDBBindings()).toEqual(['@nest-streams/rocksdb']);
    await store.close();
  });
});
