/** One system's figures in a benchmark run, in the JSON shape of DESIGN.md. */
export interface BenchResult {
  /** Who was measured, with the variant: `nest-streams (at_least_once)`. */
  readonly system: string;
  readonly eventsPerSec?: number;
  readonly seconds?: number;
  readonly p50Ms?: number;
  readonly p99Ms?: number;
  readonly peakRssMb?: number;
  /**
   * Reads or HTTP requests per second (the `query` scenario), where `eventsPerSec` would
   * mislabel them.
   */
  readonly opsPerSec?: number;
  /** Resident memory after the store was filled and a forced GC (the `memory` scenario), MiB. */
  readonly rssMb?: number;
  /**
   * V8's committed heap (`heapTotal`) read with `rssMb` (the `memory` scenario, ours), MiB:
   * `rssMb - v8HeapMb` is the memory outside V8's heap, which RocksDB's budget bounds.
   */
  readonly v8HeapMb?: number;
}

/** The JSON a scenario writes: `{"scenario","params","results"}` (DESIGN.md). */
export interface BenchReport {
  readonly scenario: string;
  readonly params: Readonly<Record<string, unknown>>;
  readonly results: readonly BenchResult[];
}
