import {
  containerMemoryLimit,
  DEFAULT_BUDGET_BYTES,
  resolveRocksDBMemoryBudget,
  type FileReader,
} from './rocksdb-memory-budget';

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;

/** A file system holding only `files`. */
const fs =
  (files: Record<string, string>): FileReader =>
  (path) =>
    files[path];
const V2 = '/sys/fs/cgroup/memory.max';
const V1 = '/sys/fs/cgroup/memory/memory.limit_in_bytes';

describe('the RocksDB memory budget', () => {
  it('takes a quarter of a cgroup v2 memory.max', () => {
    expect(resolveRocksDBMemoryBudget(undefined, fs({ [V2]: `${2 * GiB}\n` }))).toEqual({
      bytes: 512 * MiB,
      source: 'cgroup v2',
      containerLimitBytes: 2 * GiB,
    });
  });

  it('reads no limit from cgroup v2 "max", and does not fall through to v1', () => {
    expect(containerMemoryLimit(fs({ [V2]: 'max\n', [V1]: `${GiB}` }))).toBeUndefined();
    expect(resolveRocksDBMemoryBudget(undefined, fs({ [V2]: 'max\n' }))).toEqual({
      bytes: DEFAULT_BUDGET_BYTES,
      source: 'default',
    });
  });

  it('takes a quarter of a cgroup v1 memory.limit_in_bytes', () => {
    expect(resolveRocksDBMemoryBudget(undefined, fs({ [V1]: `${GiB}\n` }))).toEqual({
      bytes: 256 * MiB,
      source: 'cgroup v1',
      containerLimitBytes: GiB,
    });
  });

  it("reads no limit from cgroup v1's unlimited value", () => {
    expect(containerMemoryLimit(fs({ [V1]: '9223372036854771712\n' }))).toBeUndefined();
  });

  it('gives 256 MiB outside a container', () => {
    expect(resolveRocksDBMemoryBudget(undefined, fs({}))).toEqual({
      bytes: 256 * MiB,
      source: 'default',
    });
  });

  it('gives at least 32 MiB under a small limit, rounded down to whole MiB', () => {
    expect(resolveRocksDBMemoryBudget(undefined, fs({ [V2]: `${64 * MiB}` })).bytes).toBe(32 * MiB);
    expect(resolveRocksDBMemoryBudget(undefined, fs({ [V2]: `${1000 * MiB + 3}` })).bytes).toBe(
      250 * MiB,
    );
  });

  it('takes a configured budget over the container, and none when unbounded', () => {
    const container = fs({ [V2]: `${4 * GiB}` });
    expect(resolveRocksDBMemoryBudget(100, container)).toEqual({
      bytes: 100 * MiB,
      source: 'configured',
    });
    expect(resolveRocksDBMemoryBudget('unbounded', container)).toEqual({
      bytes: undefined,
      source: 'unbounded',
    });
  });

  it('refuses a budget that is not a whole number of MiB of at least 1', () => {
    for (const bad of [0, -5, 1.5, Number.NaN]) {
      expect(() => resolveRocksDBMemoryBudget(bad, fs({}))).toThrow(RangeError);
    }
  });
});
