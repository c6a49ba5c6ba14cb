import { readFileSync } from 'node:fs';

const MiB = 1024 * 1024;

/** The share of a container's memory limit RocksDB gets by default. */
export const CONTAINER_SHARE = 0.25;
/** The budget outside a container (no cgroup memory limit): 256 MiB. */
export const DEFAULT_BUDGET_BYTES = 256 * MiB;
/** The smallest budget a container's share gives (a tiny limit still opens its stores). */
export const MIN_BUDGET_BYTES = 32 * MiB;
/** A cgroup v1 limit at or above this means "no limit" (the kernel's PAGE_COUNTER_MAX, rounded). */
const V1_UNLIMITED = 2 ** 60;

/** Where the budget came from, for the start log and the metrics. */
export type RocksDBMemoryBudgetSource = 'configured' | 'cgroup v2' | 'cgroup v1' | 'default';

/** The application's RocksDB budget, or none (`'unbounded'`: Kafka Streams' per-store defaults). */
export interface RocksDBMemoryBudget {
  /** Bytes shared by every store and segment of the instance; undefined: unbounded. */
  readonly bytes: number | undefined;
  readonly source: RocksDBMemoryBudgetSource | 'unbounded';
  /** The container's memory limit the share was taken of, when one was read. */
  readonly containerLimitBytes?: number;
}

/** Reads a file's text, or undefined when it does not exist (injected by the tests). */
export type FileReader = (path: string) => string | undefined;

const readIfPresent: FileReader = (path) => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
};

/**
 * The container's memory limit from the cgroup file system: cgroup v2's `memory.max` (`max`:
 * none), else cgroup v1's `memory/memory.limit_in_bytes` (a huge value: none); undefined outside
 * a container or without a limit.
 */
export function containerMemoryLimit(
  read: FileReader = readIfPresent,
): { readonly bytes: number; readonly version: 'cgroup v2' | 'cgroup v1' } | undefined {
  const v2 = read('/sys/fs/cgroup/memory.max')?.trim();
  if (v2 !== undefined) {
    const bytes = Number(v2);
    return v2 !== 'max' && Number.isSafeInteger(bytes) && bytes > 0
      ? { bytes, version: 'cgroup v2' }
      : undefined;
  }
  const v1 = read('/sys/fs/cgroup/memory/memory.limit_in_bytes')?.trim();
  if (v1 === undefined) return undefined;
  const bytes = Number(v1);
  return Number.isFinite(bytes) && bytes > 0 && bytes < V1_UNLIMITED
    ? { bytes, version: 'cgroup v1' }
    : undefined;
}

/**
 * The RocksDB memory budget of an application: `configured` (MiB, or `'unbounded'`) when given;
 * else a quarter of the container's memory limit read from cgroups (at least 32 MiB); else
 * 256 MiB.
 *
 * @throws RangeError for a configured budget that is not a whole number of MiB of at least 1
 *   (the config resolution reports it as a `StreamsConfigError`).
 */
export function resolveRocksDBMemoryBudget(
  configured: number | 'unbounded' | undefined,
  read: FileReader = readIfPresent,
): RocksDBMemoryBudget {
  if (configured === 'unbounded') return { bytes: undefined, source: 'unbounded' };
  if (configured !== undefined) {
    if (!Number.isInteger(configured) || configured < 1) {
      throw new RangeError(
        `rocksDBMemoryBudgetMb must be a whole number of MiB of at least 1, or 'unbounded', got ${String(configured)}`,
      );
    }
    return { bytes: configured * MiB, source: 'configured' };
  }
  const limit = containerMemoryLimit(read);
  if (limit === undefined) return { bytes: DEFAULT_BUDGET_BYTES, source: 'default' };
  const share = Math.floor((limit.bytes * CONTAINER_SHARE) / MiB) * MiB;
  return {
    bytes: Math.max(MIN_BUDGET_BYTES, share),
    source: limit.version,
    containerLimitBytes: limit.bytes,
  };
}
