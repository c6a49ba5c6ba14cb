import { StreamsConfigError } from '../errors/streams-config.error';
import { defaultWriteBehindBytes, RocksDBMemory } from '../state/internals/rocksdb/rocksdb-memory';
import {
  resolveRocksDBMemoryBudget,
  type RocksDBMemoryBudget,
} from '../state/internals/rocksdb/rocksdb-memory-budget';

/** The settings of a config that bound the instance's RocksDB memory. */
export interface RocksDBMemorySettings {
  readonly rocksDBMemoryBudgetMb?: number | 'unbounded';
  readonly rocksDBAllowUnboundedFallback?: boolean;
  readonly rocksDBWriteBehindMaxBytes?: number;
}

/**
 * The instance's RocksDB memory from `rocksDBMemoryBudgetMb` (or the container's limit) and
 * `rocksDBWriteBehindMaxBytes`.
 *
 * @throws StreamsConfigError for a value out of range: fix the config (never retriable).
 */
export function resolveRocksDBMemory(config: RocksDBMemorySettings): RocksDBMemory {
  let budget: RocksDBMemoryBudget;
  try {
    budget = resolveRocksDBMemoryBudget(config.rocksDBMemoryBudgetMb);
  } catch (error) {
    throw new StreamsConfigError((error as Error).message);
  }
  const writeBehind = config.rocksDBWriteBehindMaxBytes ?? defaultWriteBehindBytes(budget);
  if (!Number.isSafeInteger(writeBehind) || writeBehind < 1) {
    throw new StreamsConfigError(
      `rocksDBWriteBehindMaxBytes must be a positive integer, got ${String(writeBehind)}`,
    );
  }
  return new RocksDBMemory(budget, config.rocksDBAllowUnboundedFallback === true, writeBehind);
}
