import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { KafkaStreamsState } from '@nest-streams/streams';
import { KafkaStreamsHost } from '../../client/internals/kafka-streams.host';
import { StreamsModuleSettings } from '../../settings/internals/streams-module.settings';
import { StreamsMetricsService } from '../../metrics/streams-metrics.service';

/** Consumer lag of one input partition this instance runs. */
export interface PartitionLag {
  readonly topic: string;
  readonly partition: number;
  readonly lag: number;
}

/**
 * This instance's live figures at one moment, each over the interval since the previous
 * sample (`null` where the interval says nothing: the first sample, no commit, no cache read,
 * or counters that went down because tasks moved away).
 */
export interface FigureSample {
  /** Epoch ms. */
  readonly at: number;
  readonly processedPerSec: number | null;
  /** Mean time a commit took, in ms. */
  readonly commitLatencyMs: number | null;
  /** Record-cache hits / reads over every local store. */
  readonly cacheHitRatio: number | null;
  /** Requests of `@RouteByKey` routes per second (answered here, forwarded, standby or 503). */
  readonly queriesPerSec: number | null;
  /** 503 answers for keys per second. */
  readonly unavailablePerSec: number | null;
  /** Input lag per partition of the active tasks; null when the broker did not answer. */
  readonly inputLag: readonly PartitionLag[] | null;
}

/** The running totals a sample is the difference of. */
export interface FigureTotals {
  readonly at: number;
  readonly processed: number;
  readonly commits: number;
  readonly commitTimeMs: number;
  readonly cacheHits: number;
  readonly cacheReads: number;
  readonly queries: number;
  readonly unavailable: number;
}

/**
 * Samples this instance's live figures for the cluster page every `dashboard.sampleIntervalMs`
 * (from `KafkaStreams.metrics()`, `storeMetrics()`, `inputLags()` and the module's metrics
 * service) and keeps the last `dashboard.historyMs` of them. Runs only with the page on.
 * Never throws: a figure that cannot be read is `null` in its sample.
 */
@Injectable()
export class FiguresSampler implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('FiguresSampler');
  private readonly history: FigureSample[] = [];
  private previous: FigureTotals | undefined;
  private timer: NodeJS.Timeout | undefined;
  private sampling = false;

  constructor(
    @Inject(StreamsModuleSettings) private readonly settings: StreamsModuleSettings,
    @Inject(KafkaStreamsHost) private readonly host: KafkaStreamsHost,
    @Inject(StreamsMetricsService) private readonly metrics: StreamsMetricsService,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.settings.dashboard.enabled || this.timer) return;
    this.timer = setInterval(() => void this.sample(), this.settings.dashboard.sampleIntervalMs);
    this.timer.unref();
    void this.sample();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** The samples of the last `historyMs`, oldest first. */
  samples(): FigureSample[] {
    return [...this.history];
  }

  /** Takes one sample now (skipped while the previous one still waits for the broker). */
  async sample(now = Date.now()): Promise<void> {
    if (this.sampling) return;
    this.sampling = true;
    try {
      const totals = this.totals(now);
      const inputLag = await this.inputLag();
      this.history.push(difference(this.previous, totals, inputLag));
      this.previous = totals;
      const oldest = now - this.settings.dashboard.historyMs;
      while (this.history.length > 0 && this.history[0].at < oldest) this.history.shift();
    } catch (error) {
      this.logger.warn(`live figures not sampled: ${String(error)}`);
    } finally {
      this.sampling = false;
    }
  }

  private totals(at: number): FigureTotals {
    const { outcomes, unavailable } = this.metrics.routingTotals();
    const queries = Object.values(outcomes).reduce((a, b) => a + b, 0);
    const streams = this.host.created ? this.host.streams : undefined;
    const client = streams?.metrics() ?? { processed: 0, commits: 0, commitTimeMs: 0 };
    let cacheHits = 0;
    let cacheReads = 0;
    for (const store of streams?.storeMetrics() ?? []) {
      if (!store.cache) continue;
      cacheHits += store.cache.hits;
      cacheReads += store.cache.hits + store.cache.misses;
    }
    return {
      at,
      processed: client.processed,
      commits: client.commits,
      commitTimeMs: client.commitTimeMs,
      cacheHits,
      cacheReads,
      queries,
      unavailable,
    };
  }

  private async inputLag(): Promise<PartitionLag[] | null> {
    if (!this.host.created) return null;
    const streams = this.host.streams;
    if (
      streams.state !== KafkaStreamsState.RUNNING &&
      streams.state !== KafkaStreamsState.REBALANCING
    ) {
      return null;
    }
    try {
      const lags = await streams.inputLags();
      return lags.map(({ topic, partition, lag }) => ({ topic, partition, lag }));
    } catch {
      return null;
    }
  }
}

/** One sample: the rates between two totals. */
export function difference(
  before: FigureTotals | undefined,
  now: FigureTotals,
  inputLag: readonly PartitionLag[] | null,
): FigureSample {
  const seconds = before === undefined ? 0 : (now.at - before.at) / 1000;
  const grew = (field: keyof Omit<FigureTotals, 'at'>): number | null => {
    if (before === undefined || seconds <= 0) return null;
    const delta = now[field] - before[field];
    return delta < 0 ? null : delta;
  };
  const perSec = (field: keyof Omit<FigureTotals, 'at'>): number | null => {
    const delta = grew(field);
    return delta === null ? null : delta / seconds;
  };
  const commits = grew('commits');
  const commitTime = grew('commitTimeMs');
  const reads = grew('cacheReads');
  const hits = grew('cacheHits');
  return {
    at: now.at,
    processedPerSec: perSec('processed'),
    commitLatencyMs: commits && commitTime !== null ? commitTime / commits : null,
    cacheHitRatio: reads && hits !== null ? hits / reads : null,
    queriesPerSec: perSec('queries'),
    unavailablePerSec: perSec('unavailable'),
    inputLag,
  };
}
