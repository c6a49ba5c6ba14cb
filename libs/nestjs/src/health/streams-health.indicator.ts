import { Inject, Injectable, Logger } from '@nestjs/common';
import { HealthIndicatorService, type HealthIndicatorResult } from '@nestjs/terminus';
import { KafkaStreamsState } from '@nest-streams/streams';
import { KafkaStreamsHost } from '../client/internals/kafka-streams.host';
import { StreamsModuleSettings } from '../settings/internals/streams-module.settings';
import { probeVerdict, type ProbeFacts, type ProbeVerdict } from './probe-policy';
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

/** What the indicator reports besides up/down, in every probe's answer. */
export interface StreamsHealthDetails extends Record<string, unknown> {
  readonly state: KafkaStreamsState | 'NOT_CREATED';
  /** The client is in a rebalance (it still answers, forwards or says 503 per key). */
  readonly rebalancing: boolean;
  /** The first assignment was restored (the startup probe's answer). */
  readonly started: boolean;
  readonly shuttingDown: boolean;
  /** Why the probe answers as it does. */
  readonly reason: string;
  /**
   * Why, as a code to alert on (`RUNNING`, `STARTING`, ..., or the error code of the cause a
   * start waits on or failed on, such as `STATE_DIR_LOCKED`; see `ProbeVerdict.code`).
   */
  readonly code: string;
  readonly stores: Record<string, StoreHealthDetail>;
  readonly rebalances: number;
  /**
   * While the start waits on a cause that may resolve itself, or after it failed, the typed
   * error (e.g. `BROKERS_UNREACHABLE` naming the brokers, `STATE_DIR_LOCKED` naming the holder).
   */
  readonly problem?: { readonly code: string; readonly message: string };
}

/** Kubernetes' three probes. */
type Probe = 'startup' | 'readiness' | 'liveness';

/** Each probe's answer in a verdict. */
const PROBE_ANSWERS: Record<Probe, (verdict: ProbeVerdict) => boolean> = {
  startup: (verdict) => verdict.started,
  readiness: (verdict) => verdict.ready,
  liveness: (verdict) => verdict.live,
};

/**
 * Terminus health of the streams client for Kubernetes' three probes, decided by
 * the probe policy (the README's Deployment chapter has the table):
 * - startup ({@link isStarted}): up once the first assignment was restored, and from then on;
 * - readiness ({@link isReady}): up while this pod can usefully take requests — RUNNING, or
 *   REBALANCING after its first restore (the module answers, forwards or says 503 +
 *   `Retry-After` per key); down while starting, shutting down or failed. `health.readiness:
 *   'strict'` keeps the old rule (only RUNNING with every store restored);
 * - liveness ({@link isLive}): down only when the process must be restarted: ERROR, stopped
 *   by itself, or a stream thread stalled for `health.livenessStallMs` with active tasks.
 * Every answer carries the same details (state, rebalancing flag, reason and its code, per
 * store: partitions, restore progress, standby lag). Each probe's answer is logged when it
 * changes (up or down, and its code), not at every probe; pair it with
 * `TerminusModule.forRoot({ logger: StreamsTerminusLogger })` so that terminus does not log an
 * error for every probe answered down while the client starts.
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
    @Inject(StreamsModuleSettings) private readonly settings: StreamsModuleSettings,
  ) {}

  private readonly logger = new Logger('StreamsHealth');
  /** Each probe's last answer (`up`/`down` and its code), to log changes only. */
  private readonly lastAnswers = new Map<Probe, string>();

  /** The startup probe: up once the first assignment was restored. */
  async isStarted<const Key extends string = 'streams'>(
    key: Key = 'streams' as Key,
  ): Promise<HealthIndicatorResult<Key>> {
    return this.answer(key, 'startup');
  }

  /** The readiness probe: whether this pod should receive requests now. */
  async isReady<const Key extends string = 'streams'>(
    key: Key = 'streams' as Key,
  ): Promise<HealthIndicatorResult<Key>> {
    return this.answer(key, 'readiness');
  }

  /** The liveness probe: down only when the process must be restarted. */
  async isLive<const Key extends string = 'streams'>(
    key: Key = 'streams' as Key,
  ): Promise<HealthIndicatorResult<Key>> {
    return this.answer(key, 'liveness');
  }

  /** The three probes' verdict now. */
  verdict(): ProbeVerdict {
    return probeVerdict(this.facts(), this.settings.health);
  }

  private async answer<Key extends string>(
    key: Key,
    probe: Probe,
  ): Promise<HealthIndicatorResult<Key>> {
    const session = this.indicators.check(key);
    const verdict = this.verdict();
    const details = await this.details(verdict);
    const up = PROBE_ANSWERS[probe](verdict);
    this.logChange(probe, up, verdict);
    return up ? session.up(details) : session.down(details);
  }

  /**
   * One line when a probe's answer changes (up, or down for another reason code): never one per
   * probe. At `log`, but a stalled thread at `warn` (the engine logs a failed start itself).
   */
  private logChange(probe: Probe, up: boolean, verdict: ProbeVerdict): void {
    const answer = up ? 'up' : `down [${verdict.code}]`;
    if (this.lastAnswers.get(probe) === answer) return;
    this.lastAnswers.set(probe, answer);
    const line = up ? `${probe} up` : `${probe} ${answer}: ${verdict.reason}`;
    if (!up && verdict.code === 'STALLED') this.logger.warn(line);
    else this.logger.log(line);
  }

  private facts(): ProbeFacts {
    if (!this.host.created) {
      return {
        state: 'NOT_CREATED',
        startedOnce: false,
        shuttingDown: this.tracker.shuttingDown,
        restored: false,
        stalledForMs: 0,
      };
    }
    const streams = this.host.streams;
    const tasks = streams.activeTaskMetadata();
    const lastProgress = streams.lastProgressAt();
    const holding = streams.state === KafkaStreamsState.RUNNING && tasks.length > 0;
    return {
      state: streams.state,
      startedOnce: this.tracker.startedOnce,
      shuttingDown: this.tracker.shuttingDown,
      restored: tasks.every((task) => task.restored),
      stalledForMs: holding && lastProgress !== undefined ? Date.now() - lastProgress : 0,
      startupProblem: streams.startupProblem,
    };
  }

  /** The details every probe reports. */
  async details(verdict: ProbeVerdict = this.verdict()): Promise<StreamsHealthDetails> {
    const summary = {
      started: verdict.started,
      shuttingDown: this.tracker.shuttingDown,
      reason: verdict.reason,
      code: verdict.code,
    };
    if (!this.host.created) {
      return { state: 'NOT_CREATED', rebalancing: false, ...summary, stores: {}, rebalances: 0 };
    }
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
    const problem = streams.startupProblem;
    return {
      state: streams.state,
      rebalancing: streams.state === KafkaStreamsState.REBALANCING,
      ...summary,
      stores,
      rebalances: this.tracker.rebalances,
      ...(problem ? { problem: { code: problem.code, message: problem.message } } : {}),
    };
  }
}
