import { Inject, Injectable } from '@nestjs/common';
import { HealthIndicatorService, type HealthIndicatorResult } from '@nestjs/terminus';
import { KafkaStreamsState } from '@nest-streams/streams';
import { KafkaStreamsHost } from '../internals/kafka-streams.host';
import { StreamsStateTracker } from './internals/streams-state.tracker';

/** Restore progress of one partition of a store, for health details. */
export interface PartitionRestoreDetail {
  readonly partition: number;
  readonly restored: number;
  /** Records to restore in total (end offset - start offset). */
  readonly total: number;
  /** 0..1. */
  readonly progress: number;
}

/** One store's health details. */
export interface StoreHealthDetail {
  readonly activePartitions: number[];
  readonly standbyPartitions: number[];
  /** Every active partition of the store is restored and processing. */
  readonly restored: boolean;
  /** Partitions still restoring from the changelog. */
  readonly restoring: PartitionRestoreDetail[];
  /** Lag (records) of each standby copy, by partition. */
  readonly standbyLag: Record<string, number>;
}

/** What the indicator reports besides up/down. */
export interface StreamsHealthDetails extends Record<string, unknown> {
  readonly state: KafkaStreamsState | 'NOT_CREATED';
  readonly stores: Record<string, StoreHealthDetail>;
  readonly rebalances: number;
}

const DEAD = new Set<string>([KafkaStreamsState.ERROR, KafkaStreamsState.NOT_RUNNING]);

/**
 * Terminus health of the streams client (terminus 11 `HealthIndicatorService` API):
 * - readiness ({@link isReady}): up only when the client is RUNNING and every active store
 *   partition is restored; down while starting, rebalancing or restoring (details per store:
 *   partitions, restore progress, standby lag) — route traffic elsewhere meanwhile;
 * - liveness ({@link isLive}): down only when the client is in ERROR or NOT_RUNNING (restart
 *   the process); a rebalance never makes it down.
 *
 * @example
 * @Get('ready') @HealthCheck()
 * ready() { return this.health.check([() => this.streams.isReady('streams')]); }
 */
@Injectable()
export class StreamsHealthIndicator {
  constructor(
    @Inject(HealthIndicatorService) private readonly indicators: HealthIndicatorService,
    @Inject(KafkaStreamsHost) private readonly host: KafkaStreamsHost,
    @Inject(StreamsStateTracker) private readonly tracker: StreamsStateTracker,
  ) {}

  async isReady<const Key extends string = 'streams'>(
    key: Key = 'streams' as Key,
  ): Promise<HealthIndicatorResult<Key>> {
    const session = this.indicators.check(key);
    const details = await this.details();
    const restored = Object.values(details.stores).every((s) => s.restored);
    if (details.state === KafkaStreamsState.RUNNING && restored && this.allTasksRestored()) {
      return session.up(details);
    }
    return session.down(details);
  }

  isLive<const Key extends string = 'streams'>(
    key: Key = 'streams' as Key,
  ): HealthIndicatorResult<Key> {
    const session = this.indicators.check(key);
    const state = this.host.created ? this.host.streams.state : 'NOT_CREATED';
    if (DEAD.has(state)) return session.down({ state });
    return session.up({ state });
  }

  /** The details both checks report. */
  async details(): Promise<StreamsHealthDetails> {
    if (!this.host.created) return { state: 'NOT_CREATED', stores: {}, rebalances: 0 };
    const streams = this.host.streams;
    const stores: Record<string, StoreHealthDetail> = {};
    const active = new Map<string, { partitions: Set<number>; restored: boolean }>();
    for (const task of streams.activeTaskMetadata()) {
      for (const store of task.stores) {
        const current = active.get(store) ?? { partitions: new Set<number>(), restored: true };
        current.partitions.add(task.taskId.partition);
        current.restored &&= task.restored;
        active.set(store, current);
      }
    }
    let lags: ReadonlyMap<string, ReadonlyMap<number, { offsetLag: number }>> = new Map();
    try {
      lags = await streams.allLocalStorePartitionLags();
    } catch {
      // Lags need the broker (end offsets): without them, no standby details.
    }
    const restoring = this.tracker.restores().filter((r) => !r.done);
    const names = new Set([
      ...this.host.declarations.stores.keys(),
      ...active.keys(),
      ...lags.keys(),
    ]);
    for (const name of [...names].sort()) {
      const mine = active.get(name);
      const activePartitions = [...(mine?.partitions ?? [])].sort((a, b) => a - b);
      const standbyLag: Record<string, number> = {};
      for (const [partition, lag] of lags.get(name) ?? []) {
        if (!mine?.partitions.has(partition)) standbyLag[String(partition)] = lag.offsetLag;
      }
      const storeRestoring = restoring
        .filter((r) => r.store === name && (mine?.partitions.has(r.partition) ?? false))
        .map((r) => {
          const total = Math.max(0, r.endOffset - r.startOffset);
          return {
            partition: r.partition,
            restored: r.restored,
            total,
            progress: total === 0 ? 1 : Math.min(1, r.restored / total),
          };
        });
      stores[name] = {
        activePartitions,
        standbyPartitions: Object.keys(standbyLag).map(Number),
        restored: (mine?.restored ?? true) && storeRestoring.length === 0,
        restoring: storeRestoring,
        standbyLag,
      };
    }
    return { state: streams.state, stores, rebalances: this.tracker.rebalances };
  }

  private allTasksRestored(): boolean {
    return this.host.streams.activeTaskMetadata().every((task) => task.restored);
  }
}
