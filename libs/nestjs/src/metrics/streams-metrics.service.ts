import { Inject, Injectable } from '@nestjs/common';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import {
  type KafkaStreams,
  KafkaStreamsState,
  type RocksDBStoreMetrics,
} from '@nest-streams/streams';
import { StreamsStateTracker } from '../health/internals/streams-state.tracker';
import { labelledCounter } from './internals/labelled-counter';
import { StreamsMetricFamilies } from './internals/streams-metric-families';
import { StreamsModuleSettings } from '../settings/internals/streams-module.settings';
import {
  MESSAGE_REFUSAL_REASONS,
  REFUSAL_REASONS,
  type RefusalReason,
} from '../security/internals/instance.authenticator';

/** How the routing interceptor answered a request. */
export type RoutingOutcome = 'local' | 'forwarded' | 'standby' | 'unavailable';

const ROUTING_OUTCOMES: readonly RoutingOutcome[] = [
  'local',
  'forwarded',
  'standby',
  'unavailable',
];

const ROCKSDB_GAUGES: readonly (keyof RocksDBStoreMetrics)[] = [
  'blockCacheUsageBytes',
  'blockCachePinnedUsageBytes',
  'blockCacheCapacityBytes',
  'memTablesBytes',
  'allMemTablesBytes',
  'tableReadersBytes',
  'estimatedNumKeys',
  'totalSstFilesBytes',
  'liveSstFilesBytes',
  'pendingCompactionBytes',
  'runningCompactions',
  'runningFlushes',
  'immutableMemTables',
  'backgroundErrors',
];

/**
 * Prometheus metrics of the streams client (prom-client), read from the engine when scraped:
 * state, records processed / produced / skipped, restore progress, standby lag, per-store
 * operation counts, rates and latencies, record-cache hit ratio, RocksDB properties (when the
 * store reports them), rebalance count and duration, the routing outcomes of `@RouteByKey`
 * requests, the instance-to-instance messages refused and the hop tokens of forwarded requests
 * refused (by reason); and Kafka Streams' own metrics by their names
 * (`kafka_streams_stream_task_dropped_records_total`...: `StreamsMetricFamilies`), at the
 * client's `metricsRecordingLevel`. Names start with the `prefix` option (`kafka_streams_`);
 * docs/metrics.md lists every one.
 *
 * With metrics off (`metrics: false`) every method is a no-op and {@link registry} is empty.
 */
@Injectable()
export class StreamsMetricsService {
  /** The registry to scrape (also served by the module's metrics controller). */
  readonly registry: Registry;
  private readonly enabled: boolean;
  private readonly refusals: Counter<'reason'> | undefined;
  private readonly hopRefusals: Counter<'reason'> | undefined;
  private readonly rebalances: Counter | undefined;
  private readonly rebalanceDuration: Histogram | undefined;
  private streams: KafkaStreams | undefined;
  private readonly outcomes: Record<RoutingOutcome, number> = {
    local: 0,
    forwarded: 0,
    standby: 0,
    unavailable: 0,
  };
  private unavailableAnswers = 0;

  constructor(
    @Inject(StreamsModuleSettings) settings: StreamsModuleSettings,
    @Inject(StreamsStateTracker) private readonly tracker: StreamsStateTracker,
  ) {
    const { enabled, prefix, defaultMetrics, registry } = settings.metrics;
    this.enabled = enabled;
    this.registry = registry ?? new Registry();
    if (!enabled) return;
    if (defaultMetrics) collectDefaultMetrics({ register: this.registry });
    const p = prefix;
    const registers = [this.registry];
    // Counted per request in `outcomes` (a field increment, no label hashing); the counter
    // takes what was counted since the last scrape when it is scraped.
    const counted = this.outcomes;
    const scraped: Record<RoutingOutcome, number> = { ...counted };
    labelledCounter(
      `${p}routing_requests_total`,
      'Requests of @RouteByKey routes by outcome: answered here (local), forwarded to the owner, answered by a standby, or 503 (unavailable).',
      'outcome',
      ROUTING_OUTCOMES,
      registers,
      function collect() {
        for (const outcome of ROUTING_OUTCOMES) {
          const added = counted[outcome] - scraped[outcome];
          if (added > 0) this.inc({ outcome }, added);
          scraped[outcome] = counted[outcome];
        }
      },
    );
    this.refusals = labelledCounter(
      `${p}query_refusals_total`,
      'Instance-to-instance messages and connections refused before any store was read, by reason (unauthenticated, bad_signature, expired, replayed, wrong_target, overloaded, malformed_frame, oversized, auth_timeout).',
      'reason',
      REFUSAL_REASONS,
      registers,
    );
    this.hopRefusals = labelledCounter(
      `${p}hop_refusals_total`,
      'Forwarded requests whose hop token was refused before any store was read (the request then got no hop privilege), by reason (unauthenticated, bad_signature, expired, replayed, wrong_target, overloaded).',
      'reason',
      MESSAGE_REFUSAL_REASONS,
      registers,
    );
    this.rebalances = new Counter({
      name: `${p}rebalances_total`,
      help: 'Rebalances this client went through (entries into REBALANCING).',
      registers,
    });
    this.rebalanceDuration = new Histogram({
      name: `${p}rebalance_duration_seconds`,
      help: 'Time from entering REBALANCING to RUNNING.',
      buckets: [0.1, 0.5, 1, 2, 5, 10, 30, 60, 120, 300],
      registers,
    });
    this.tracker.onRebalance((durationMs) => {
      if (durationMs === undefined) this.rebalances?.inc();
      else this.rebalanceDuration?.observe(durationMs / 1000);
    });
    this.defineEngineGauges(p, registers);
    // Kafka Streams' own metrics, by their names, at the client's metrics.recording.level.
    const level = settings.streams.metricsRecordingLevel;
    new StreamsMetricFamilies(p, registers, level, () => this.streams);
  }

  /** @internal Starts reading `streams` when scraped. */
  attach(streams: KafkaStreams): void {
    this.streams = streams;
  }

  /** Counts one routing outcome. */
  recordRouting(outcome: RoutingOutcome): void {
    this.outcomes[outcome]++;
    if (outcome === 'unavailable') this.unavailableAnswers++;
  }

  /** Counts one refused instance-to-instance message or connection. */
  recordQueryRefusal(reason: RefusalReason): void {
    this.refusals?.inc({ reason });
  }

  /** Counts one refused hop token of a forwarded request. */
  recordHopRefusal(reason: RefusalReason): void {
    this.hopRefusals?.inc({ reason });
  }

  /** @internal Counts a 503 the exception filter answered (a retriable engine error). */
  recordUnavailableAnswer(): void {
    this.unavailableAnswers++;
  }

  /**
   * Totals since start, kept also with metrics off (the cluster page samples them): routing
   * outcomes of `@RouteByKey` requests, and every 503 answered for a key (by the routing
   * interceptor, or by the exception filter for a retriable engine error).
   */
  routingTotals(): {
    readonly outcomes: Readonly<Record<RoutingOutcome, number>>;
    unavailable: number;
  } {
    return { outcomes: { ...this.outcomes }, unavailable: this.unavailableAnswers };
  }

  /** The scrape text. */
  metrics(): Promise<string> {
    return this.registry.metrics();
  }

  get isEnabled(): boolean {
    return this.enabled;
  }

  private defineEngineGauges(p: string, registers: Registry[]): void {
    const gauge = <L extends string>(
      name: string,
      help: string,
      labelNames: readonly L[],
      fill?: (g: Gauge<L>) => void | Promise<void>,
      register = true,
    ): Gauge<L> => {
      const g: Gauge<L> = new Gauge<L>({
        name: `${p}${name}`,
        help,
        labelNames,
        registers: register ? registers : [],
        ...(fill ? { collect: () => fill(g) } : {}),
      });
      return g;
    };
    gauge('state', 'The client state: 1 for the current one.', ['state'], (g) => {
      g.reset();
      const current = this.streams?.state;
      for (const state of Object.values(KafkaStreamsState)) {
        g.set({ state }, state === current ? 1 : 0);
      }
    });
    const totals: [string, string, keyof ReturnType<KafkaStreams['metrics']>][] = [
      [
        'processed_records',
        'Records processed by the active tasks (sum over current tasks).',
        'processed',
      ],
      ['produced_records', 'Records written by sinks of the active tasks.', 'produced'],
      [
        'skipped_deserialization_records',
        'Records skipped: key or value did not deserialize.',
        'skippedDeserialization',
      ],
      [
        'skipped_invalid_timestamp_records',
        'Records skipped: invalid timestamp.',
        'skippedInvalidTimestamp',
      ],
      [
        'skipped_processing_records',
        'Records skipped: a processor threw and the processing-exception handler continued.',
        'skippedProcessing',
      ],
      [
        'skipped_production_records',
        'Output records dropped: the production-exception handler continued.',
        'skippedProduction',
      ],
      [
        'dead_lettered_records',
        'Skipped records written to the dead-letter topic.',
        'deadLettered',
      ],
      [
        'dropped_records',
        'Records DSL processors skipped on purpose: null key or value, late, no join partner.',
        'droppedRecords',
      ],
      ['commits', 'Commits completed by this client since it started.', 'commits'],
    ];
    for (const [name, help, field] of totals) {
      gauge(name, help, [], (g) => g.set(this.streams?.metrics()[field] ?? 0));
    }
    gauge('active_tasks', 'Active tasks on this instance.', [], (g) =>
      g.set(this.streams?.activeTaskMetadata().length ?? 0),
    );
    gauge(
      'restored_records',
      'Records restored from changelogs since start, per store.',
      ['store'],
      (g) => {
        g.reset();
        for (const [store, n] of this.tracker.restoredRecords()) g.set({ store }, n);
      },
    );
    gauge(
      'restore_remaining_records',
      'Records still to restore, per store partition being restored.',
      ['store', 'partition'],
      (g) => {
        g.reset();
        for (const r of this.tracker.restores()) {
          if (r.done) continue;
          const remaining = Math.max(0, r.endOffset - 1 - r.position);
          g.set({ store: r.store, partition: String(r.partition) }, remaining);
        }
      },
    );
    gauge(
      'store_partition_lag_records',
      'Changelog records a local store copy is behind (standbys; actives while restoring).',
      ['store', 'partition'],
      async (g) => {
        g.reset();
        if (!this.streams) return;
        let lags: Awaited<ReturnType<KafkaStreams['allLocalStorePartitionLags']>>;
        try {
          lags = await this.streams.allLocalStorePartitionLags();
        } catch {
          return;
        }
        for (const [store, partitions] of lags) {
          for (const [partition, lag] of partitions) {
            g.set({ store, partition: String(partition) }, lag.offsetLag);
          }
        }
      },
    );
    gauge(
      'input_lag_records',
      'Consumer lag of the active tasks: input records not processed yet, per topic and partition.',
      ['topic', 'partition'],
      async (g) => {
        g.reset();
        if (!this.streams || typeof this.streams.inputLags !== 'function') return;
        try {
          for (const { topic, partition, lag } of await this.streams.inputLags()) {
            g.set({ topic, partition: String(partition) }, lag);
          }
        } catch {
          // The broker did not answer: the gauge stays empty for this scrape.
        }
      },
    );
    const storeLabels = ['store', 'task', 'operation'] as const;
    const operations = gauge(
      'store_operations',
      'Store operations since the store opened, per store, task and operation.',
      storeLabels,
      undefined,
      false,
    );
    const rates = gauge(
      'store_operation_rate',
      'Store operations per second (last 30-60 s).',
      storeLabels,
      undefined,
      false,
    );
    const latency = gauge(
      'store_operation_latency_avg_ms',
      'Mean latency of sampled store operations, in ms.',
      storeLabels,
      undefined,
      false,
    );
    const hitRatio = gauge(
      'store_cache_hit_ratio',
      'Record-cache hit ratio of the store.',
      ['store', 'task'],
      undefined,
      false,
    );
    const rocksdb = gauge(
      'rocksdb_property',
      'RocksDB properties of the store (memory, SST files, compaction), where the engine reports them.',
      ['store', 'task', 'property'],
      undefined,
      false,
    );
    // One collector fills every per-store gauge from one pass over the stores; it is
    // registered before them, so a scrape reads the gauges it just filled.
    gauge('stores', 'Local active store instances.', [], (g) => {
      for (const perStore of [operations, rates, latency, hitRatio, rocksdb]) perStore.reset();
      const stores = this.streams?.storeMetrics() ?? [];
      for (const snapshot of stores) {
        const { store: name, taskId: task = '' } = snapshot;
        for (const [operation, figures] of Object.entries(snapshot.operations)) {
          const labels = { store: name, task, operation };
          operations.set(labels, figures.count);
          rates.set(labels, figures.ratePerSec);
          if (figures.latencyAvgMs !== undefined) latency.set(labels, figures.latencyAvgMs);
        }
        if (snapshot.cache) hitRatio.set({ store: name, task }, snapshot.cache.hitRatio);
        for (const property of snapshot.rocksdb ? ROCKSDB_GAUGES : []) {
          const value = snapshot.rocksdb?.[property];
          if (typeof value === 'number') rocksdb.set({ store: name, task, property }, value);
        }
      }
      g.set(stores.length);
    });
    for (const registry of registers) {
      for (const perStore of [operations, rates, latency, hitRatio, rocksdb]) {
        registry.registerMetric(perStore);
      }
    }
  }
}
