import { RocksDBMemoryBudgetError } from '../../../errors/rocksdb-memory-budget.error';
import { chooseRocksDBEngine } from './rocksdb-engine-choice';
import { RocksDBMemory } from './rocksdb-memory';
import { thrownBy } from '../../../../test-support/thrown-error';

// Runs in jest.nxtedition-rocksdb.config.js: the process is on the fallback engine.
const MiB = 1024 * 1024;
const quiet = { info: () => undefined, warn: () => undefined };

describe('the memory budget on the fallback engine (@nxtedition/rocksdb)', () => {
  beforeAll(() => {
    expect(chooseRocksDBEngine(quiet).engine).toBe('@nxtedition/rocksdb');
  });

  it('fails with a typed error: the fallback cannot share a cache', () => {
    const memory = new RocksDBMemory({ bytes: 64 * MiB, source: 'configured' }, false, MiB);
    const error = thrownBy(() => memory.defaultSetter(), RocksDBMemoryBudgetError);
    expect(error.code).toBe('ROCKSDB_MEMORY_BUDGET');
    expect(error.retriable).toBe(false);
    expect(error.budgetBytes).toBe(64 * MiB);
    expect(error.engine).toBe('@nxtedition/rocksdb');
    expect(error.reason).toContain('NEST_STREAMS_ROCKSDB_DISABLE=1');
  });

  it('runs without the bound when the user allows it', () => {
    const memory = new RocksDBMemory({ bytes: 64 * MiB, source: 'configured' }, true, MiB);
    expect(memory.defaultSetter()).toBeUndefined();
  });

  it('has nothing to honour when unbounded', () => {
    const memory = new RocksDBMemory({ bytes: undefined, source: 'unbounded' }, false, MiB);
    expect(memory.defaultSetter()).toBeUndefined();
  });
});
