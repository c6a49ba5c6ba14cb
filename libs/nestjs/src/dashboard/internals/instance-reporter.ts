import { Inject, Injectable } from '@nestjs/common';
import type { LagInfo } from '@nest-streams/streams';
import { StreamsStateTracker } from '../../health/internals/streams-state.tracker';
import { KafkaStreamsHost } from '../../client/internals/kafka-streams.host';
import { StreamsModuleSettings } from '../../settings/internals/streams-module.settings';
import type { InstanceReportSource } from '../../queries/internals/interactive-query.server';
import { FiguresSampler, type FigureSample } from './figures-sampler';

/** A local store copy's distance to its changelog's end. */
export interface CopyLag {
  readonly store: string;
  readonly partition: number;
  /** Records behind. */
  readonly lag: number;
}

/** A store partition being restored from its changelog. */
export interface RestoreState {
  readonly store: string;
  readonly partition: number;
  readonly restored: number;
  /** Records to restore in all. */
  readonly total: number;
}

/**
 * What one instance says about itself on the cluster page: its client, its tasks, how far its
 * copies are behind, what it is restoring, and its live figures.
 */
export interface InstanceReport {
  /** The instance (`application.server`, else its host name). */
  readonly host: string;
  /** `KafkaStreams.state`, or `NOT_CREATED` before module init. */
  readonly state: string;
  /** Epoch ms. */
  readonly at: number;
  readonly rebalances: number;
  /** When the last rebalance began (epoch ms). */
  readonly lastRebalanceAt: number | null;
  /** How long the last completed rebalance took. */
  readonly lastRebalanceMs: number | null;
  readonly tasks: {
    readonly active: readonly string[];
    readonly standby: readonly string[];
    readonly warmup: readonly string[];
    /** Active tasks whose stores are still restoring. */
    readonly restoring: readonly string[];
  };
  /** Every local copy's lag (standbys; actives while restoring). */
  readonly lags: readonly CopyLag[];
  readonly restores: readonly RestoreState[];
  readonly figures: readonly FigureSample[];
}

/**
 * Builds this instance's {@link InstanceReport}: answered to the other instances over the
 * query transport (the module provides it as the query server's `INSTANCE_REPORT_SOURCE`), and
 * used by this instance's own cluster page. Never throws: a figure it cannot read (the broker
 * not answering for lags) is left out.
 */
@Injectable()
export class InstanceReporter implements InstanceReportSource {
  constructor(
    @Inject(StreamsModuleSettings) private readonly settings: StreamsModuleSettings,
    @Inject(KafkaStreamsHost) private readonly host: KafkaStreamsHost,
    @Inject(StreamsStateTracker) private readonly tracker: StreamsStateTracker,
    @Inject(FiguresSampler) private readonly sampler: FiguresSampler,
  ) {}

  async report(): Promise<InstanceReport> {
    const base = {
      host: this.settings.servedBy,
      at: Date.now(),
      rebalances: this.tracker.rebalances,
      lastRebalanceAt: this.tracker.lastRebalanceAt ?? null,
      lastRebalanceMs: this.tracker.lastRebalanceDurationMs ?? null,
      restores: this.tracker
        .restores()
        .filter((r) => !r.done)
        .map((r) => ({
          store: r.store,
          partition: r.partition,
          restored: r.restored,
          total: Math.max(0, r.endOffset - r.startOffset),
        })),
      figures: this.sampler.samples(),
    };
    if (!this.host.created) {
      const none = { active: [], standby: [], warmup: [], restoring: [] };
      return { ...base, state: 'NOT_CREATED', tasks: none, lags: [] };
    }
    const streams = this.host.streams;
    const restoring = streams
      .activeTaskMetadata()
      .filter((t) => !t.restored)
      .map((t) => t.taskId.toString());
    let lags = new Map<string, Map<number, LagInfo>>();
    try {
      lags = await streams.allLocalStorePartitionLags();
    } catch {
      // The broker did not answer: no lags in this report.
    }
    return {
      ...base,
      state: streams.state,
      tasks: { ...streams.localTaskIds(), restoring },
      lags: [...lags].flatMap(([store, partitions]) =>
        [...partitions].map(([partition, lag]) => ({ store, partition, lag: lag.offsetLag })),
      ),
    };
  }
}
