import { BoundedMemoryRocksDBConfig } from '../../bounded-memory-rocksdb-config';
import type { RocksDBConfigSetter } from '../../rocksdb-config-setter';
import { RocksDBMemoryBudgetError } from '../../../errors/rocksdb-memory-budget.error';
import { WriteBehindBudget } from '../write-behind-budget';
import { chooseRocksDBEngine } from './rocksdb-engine-choice';
import type { RocksDBMemoryBudget } from './rocksdb-memory-budget';

const MiB = 1024 * 1024;

/**
 * The RocksDB memory of one application instance (one per resolved config, shared by every
 * task, store and segment): the budget every store shares when no config setter is given
 * (one `BoundedMemoryRocksDBConfig` of that size, made at the first store's open), and the
 * bound of the write-behind.
 */
export class RocksDBMemory {
  /** The bound of the bytes the instance's engines hold behind (see {@link WriteBehindBudget}). */
  readonly writeBehind: WriteBehindBudget;
  private setter: BoundedMemoryRocksDBConfig | undefined;

  constructor(
    readonly budget: RocksDBMemoryBudget,
    /** Whether the fallback engine may run without the bound (else it throws). */
    private readonly allowUnboundedFallback: boolean,
    writeBehindMaxBytes: number,
  ) {
    this.writeBehind = new WriteBehindBudget(writeBehindMaxBytes);
  }

  /**
   * The config setter of a store without its own and without an application-wide one: the
   * instance's budget, shared; undefined when unbounded (or on the fallback engine when allowed).
   *
   * @throws RocksDBMemoryBudgetError on the fallback engine, which cannot share a cache, unless
   *   `rocksDBAllowUnboundedFallback` is set.
   */
  defaultSetter(): RocksDBConfigSetter | undefined {
    const bytes = this.budget.bytes;
    if (bytes === undefined) return undefined;
    const choice = chooseRocksDBEngine();
    if (choice.engine !== '@nest-streams/rocksdb') {
      if (this.allowUnboundedFallback) return undefined;
      throw new RocksDBMemoryBudgetError(
        bytes,
        choice.engine,
        choice.fallbackReason ?? 'the addon is not in use',
      );
    }
    return (this.setter ??= BoundedMemoryRocksDBConfig.forBudget(bytes));
  }
}

/** The write-behind bound that goes with a budget: a quarter of it, 8 to 64 MiB. */
export function defaultWriteBehindBytes(budget: RocksDBMemoryBudget): number {
  if (budget.bytes === undefined) return 64 * MiB;
  return Math.max(8 * MiB, Math.min(64 * MiB, Math.floor(budget.bytes / 4)));
}
