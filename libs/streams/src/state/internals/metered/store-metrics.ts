import type {
  OperationMetricsSnapshot,
  StoreCacheMetricsSnapshot,
  StoreMetricsSnapshot,
  StoreOperation,
} from '../../store-metrics-snapshot';

/** The operations a metered store counts, in the order of its metrics arrays. */
export const STORE_OPERATIONS: readonly StoreOperation[] = [
  'put',
  'putIfAbsent',
  'putAll',
  'get',
  'delete',
  'range',
  'prefixScan',
  'all',
  'flush',
  'prefetch',
];

/** Index of each operation in the metrics arrays. */
export const OP: { readonly [K in StoreOperation]: number } = Object.freeze(
  Object.fromEntries(STORE_OPERATIONS.map((name, i) => [name, i])) as {
    [K in StoreOperation]: number;
  },
);

/** What {@link StoreMetrics.start} returns when the operation is not timed. */
export const NOT_SAMPLED = BigInt(0);

const RATE_WINDOW_MS = 30_000;

/**
 * Counters of one store, cheap enough for every call: an operation costs one array increment;
 * with latency sampling on (`sampleEvery = n`), one call in `n` also reads
 * `process.hrtime.bigint()` twice. Rates are computed when a snapshot is taken.
 */
export class StoreMetrics {
  private readonly counts = new Float64Array(STORE_OPERATIONS.length);
  private readonly sampledCounts = new Float64Array(STORE_OPERATIONS.length);
  private readonly totalNanos = new Float64Array(STORE_OPERATIONS.length);
  private readonly maxNanos = new Float64Array(STORE_OPERATIONS.length);
  private tick = 0;
  private previousStart: number;
  private previousCounts = new Float64Array(STORE_OPERATIONS.length);
  private currentStart: number;
  private currentCounts = new Float64Array(STORE_OPERATIONS.length);

  /**
   * @param sampleEvery 0: count only; `n`: time one call in every `n`.
   * @param now the clock, for tests.
   */
  constructor(
    readonly storeName: string,
    readonly scope: string,
    private readonly sampleEvery = 0,
    private readonly now: () => number = Date.now,
  ) {
    if (!Number.isInteger(sampleEvery) || sampleEvery < 0) {
      throw new RangeError(`latency sampling must be a non-negative integer, got ${sampleEvery}`);
    }
    this.previousStart = this.currentStart = now();
  }

  /** Task id shown in snapshots (set when the store opens). */
  taskId: string | undefined;

  /**
   * The metrics of store `storeName` opened in the task of `context`: labelled with its task
   * id, timing one call in every `metricsLatencySampling`; unset, every call at the
   * application's `metricsRecordingLevel` DEBUG or TRACE (as Kafka Streams' store latencies),
   * none at INFO.
   */
  static forTask(
    storeName: string,
    scope: string,
    context: {
      readonly taskId: { toString(): string };
      readonly metricsLatencySampling?: number;
      readonly appConfigs?: { readonly [name: string]: unknown };
    },
  ): StoreMetrics {
    const level = context.appConfigs?.metricsRecordingLevel;
    const debug = level === 'DEBUG' || level === 'TRACE';
    const metrics = new StoreMetrics(
      storeName,
      scope,
      context.metricsLatencySampling ?? (debug ? 1 : 0),
    );
    metrics.taskId = context.taskId.toString();
    return metrics;
  }

  /**
   * Counts one call of `op`; returns a start mark when this call is timed, else
   * {@link NOT_SAMPLED}. Pass the mark to {@link end}.
   */
  start(op: number): bigint {
    this.counts[op]++;
    if (this.sampleEvery === 0 || ++this.tick % this.sampleEvery !== 0) return NOT_SAMPLED;
    return process.hrtime.bigint();
  }

  /** Records the latency of a timed call (a no-op for {@link NOT_SAMPLED}). */
  end(op: number, mark: bigint): void {
    if (mark === NOT_SAMPLED) return;
    const nanos = Number(process.hrtime.bigint() - mark);
    this.sampledCounts[op]++;
    this.totalNanos[op] += nanos;
    if (nanos > this.maxNanos[op]) this.maxNanos[op] = nanos;
  }

  /** Adds `n` calls of `op` without timing (for batched calls). */
  add(op: number, n: number): void {
    this.counts[op] += n;
  }

  snapshot(cache?: StoreCacheMetricsSnapshot): StoreMetricsSnapshot {
    const now = this.now();
    if (now - this.currentStart >= RATE_WINDOW_MS) {
      this.previousStart = this.currentStart;
      this.previousCounts = this.currentCounts;
      this.currentStart = now;
      this.currentCounts = Float64Array.from(this.counts);
    }
    const elapsedSec = Math.max(now - this.previousStart, 1) / 1000;
    const operations = {} as { [K in StoreOperation]: OperationMetricsSnapshot };
    STORE_OPERATIONS.forEach((name, i) => {
      const sampled = this.sampledCounts[i];
      operations[name] = {
        count: this.counts[i],
        ratePerSec: (this.counts[i] - this.previousCounts[i]) / elapsedSec,
        sampled,
        ...(sampled > 0
          ? {
              latencyAvgMs: this.totalNanos[i] / sampled / 1e6,
              latencyMaxMs: this.maxNanos[i] / 1e6,
            }
          : {}),
      };
    });
    return {
      store: this.storeName,
      taskId: this.taskId,
      scope: this.scope,
      operations,
      ...(cache ? { cache } : {}),
    };
  }
}
