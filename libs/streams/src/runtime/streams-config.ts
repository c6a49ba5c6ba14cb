import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { GroupProtocol, KafkaClientName } from '../client/kafka-client-settings';
import { DEFAULT_CLUSTER_RETRY_SETTINGS } from '../client/cluster-retry/cluster-retry-settings';
import type { KafkaConfig } from '../client/kafkajs/kafkajs';
import { StreamsConfigError } from '../errors/streams-config.error';
import { Serdes } from '../serde/serdes';
import type { Serde } from '../serde/serde';
import type { RocksDBConfigSetter } from '../state/rocksdb-config-setter';
import type { RocksDBMemory } from '../state/internals/rocksdb/rocksdb-memory';
import {
  type DeserializationExceptionHandler,
  type ProductionExceptionHandler,
  failOnProductionError,
  logAndContinue,
} from './exception-handlers';
import { checkEndpoints } from './endpoint-settings';
import { resolveKafkaClientChoice, type RebalanceProtocol } from './kafka-client-choice';
import {
  type ProcessingExceptionHandler,
  failOnProcessingError,
} from './processing-exception-handler';
import { resolveRocksDBMemory } from './rocksdb-memory-settings';
import { checkSettingValues } from './streams-config-checks';
import {
  ASSIGNOR_SETTINGS,
  DEFAULTED_ASSIGNOR_SETTINGS,
  refuseStreamsProtocolIgnored,
} from './streams-protocol-settings';

/**
 * `metrics.recording.level`: which metrics are recorded (Kafka Streams' levels). `INFO` (the
 * default) records the client, thread and task metrics, dropped records and end-to-end
 * latencies; `DEBUG` adds the per-processor-node rates and latencies and RocksDB's
 * statistics-based metrics (block cache hit ratios, write stalls, bytes read and written:
 * RocksDB statistics cost a few per cent of its throughput); `TRACE` adds nothing more here.
 */
export type MetricsRecordingLevel = 'INFO' | 'DEBUG' | 'TRACE';

/** `processing.guarantee`. */
export type ProcessingGuarantee = 'at_least_once' | 'exactly_once_v2';

/** The Kafka client layer's names, part of the public config. */
export type { GroupProtocol, KafkaClientName };

export {
  DEFAULT_KAFKA_CLIENT,
  KAFKA_CLIENT_NAMES,
  type RebalanceProtocol,
} from './kafka-client-choice';

/**
 * The application's configuration: Kafka Streams' settings under their camel-cased names
 * (`application.id` is `applicationId`, `commit.interval.ms` is `commitIntervalMs`...). Use
 * `streamsConfigFromProperties` to pass Kafka's dotted names instead.
 */
export interface StreamsConfig {
  /** `application.id`: the consumer group, the prefix of internal topics, the state dir name. */
  applicationId: string;
  /** `bootstrap.servers`: `host:port` strings. */
  bootstrapServers: string[];
  /** `client.id` prefix; defaults to the application id. */
  clientId?: string;
  /** `state.dir`; default `<os tmpdir>/kafka-streams`, as Kafka Streams. */
  stateDir?: string;
  /** `processing.guarantee`; default `at_least_once`. */
  processingGuarantee?: ProcessingGuarantee;
  /** `commit.interval.ms`; default 30000 (at-least-once) or 100 (exactly-once). */
  commitIntervalMs?: number;
  /** `num.standby.replicas`; default 0. */
  numStandbyReplicas?: number;
  /** `statestore.cache.max.bytes`; default 10485760 (10 MiB), shared by every store. */
  statestoreCacheMaxBytes?: number;
  /**
   * `statestore.uncommitted.max.bytes` (KIP-892): under exactly_once_v2 a task's store writes
   * wait in memory for their transaction to commit; past this many bytes the task commits
   * early. Under at-least-once they are written to RocksDB behind the processing (on its
   * thread pool); past this many bytes waiting, the task waits for RocksDB before it processes
   * more (a write stall holds the processing back instead of growing the memory). Default
   * 67108864 (64 MiB).
   */
  statestoreUncommittedMaxBytes?: number;
  /** `application.server`: this instance's advertised `host:port` for interactive queries. */
  applicationServer?: string;
  /**
   * The instance-to-instance query endpoint (`host:port`) this instance serves (the Nest
   * layer's @nestjs/microservices transport), carried to every instance in the assignment.
   */
  queryEndpoint?: string;
  /** `default.key.serde`; default bytes (Buffer). */
  defaultKeySerde?: Serde<unknown>;
  /** `default.value.serde`; default bytes (Buffer). */
  defaultValueSerde?: Serde<unknown>;
  /** `default.deserialization.exception.handler`; default log and continue. */
  deserializationExceptionHandler?: DeserializationExceptionHandler;
  /** `default.production.exception.handler`; default fail. */
  productionExceptionHandler?: ProductionExceptionHandler;
  /**
   * `processing.exception.handler` (KIP-1033): what a processor's or punctuator's error does;
   * default fail (the uncaught-exception handler decides), as Kafka Streams' default
   * `LogAndFailProcessingExceptionHandler`. `logAndContinueProcessing()` skips the record.
   */
  processingExceptionHandler?: ProcessingExceptionHandler;
  /**
   * `errors.dead.letter.queue.topic.name` (KIP-1034): where every handler that answers
   * CONTINUE writes the input record it skipped (deserialization, processing and
   * serialization errors), its bytes unchanged and the error and origin in Kafka's
   * `__streams.errors.*` headers; a handler's own `deadLetterTopic` wins. The topic must exist
   * (with as many partitions as you like: the record's key bytes choose one). Unset: no dead
   * letters unless a handler names a topic.
   */
  deadLetterQueueTopic?: string;
  /** `metrics.recording.level` (see {@link MetricsRecordingLevel}); default `INFO`. */
  metricsRecordingLevel?: MetricsRecordingLevel;
  /** `rocksdb.config.setter`; when given (or a store's own), it decides each store's memory. */
  rocksDBConfigSetter?: RocksDBConfigSetter;
  /**
   * The RocksDB memory of the instance, in MiB, shared by every store, partition and window
   * segment when no config setter is given: one block cache of this size, a quarter of it for
   * the memtables (a write-buffer manager charged to the cache), index and filter blocks and
   * table readers charged to it (`BoundedMemoryRocksDBConfig.forBudget`). Default: a quarter of
   * the container's memory limit (cgroup v2 `memory.max`, v1 `memory.limit_in_bytes`), at least
   * 32, or 256 outside a container. `'unbounded'`: Kafka Streams' per-store defaults (a 50 MiB
   * cache and 3 × 16 MiB memtables per store and segment).
   */
  rocksDBMemoryBudgetMb?: number | 'unbounded';
  /**
   * Lets the instance start on the fallback engine (`@nxtedition/rocksdb`, which cannot share a
   * cache) with memory that grows with the stores; default false: opening the first persistent
   * store under a budget then throws `RocksDBMemoryBudgetError`.
   */
  rocksDBAllowUnboundedFallback?: boolean;
  /**
   * The bytes the instance's RocksDB engines may hold waiting to be written (every task's
   * write-behind, batches being written included); past it a stream thread waits for RocksDB
   * before it processes more. Default a quarter of the memory budget, 8 to 64 MiB (64 MiB when
   * unbounded).
   */
  rocksDBWriteBehindMaxBytes?: number;
  /** `acceptable.recovery.lag`; default 10000. */
  acceptableRecoveryLag?: number;
  /** `max.warmup.replicas`; default 2. */
  maxWarmupReplicas?: number;
  /** `probing.rebalance.interval.ms`; default 600000. */
  probingRebalanceIntervalMs?: number;
  /** `state.cleanup.delay.ms`; default 600000. */
  stateCleanupDelayMs?: number;
  /**
   * `max.task.idle.ms`; default 0. How long a task with several input partitions (a join, a
   * merge, several source topics) waits for an empty one before it processes the others'
   * records, which may then be out of timestamp order across its inputs (KIP-353, KIP-695). A
   * partition whose records are on the broker but not fetched yet (lag unknown or above 0) is
   * always waited for, except with -1; one with nothing more on the broker is waited for this
   * long, in case records are produced to it: 0 waits for none, -1 never waits at all (whatever
   * is fetched is processed). Each record processed without waiting any longer counts in the
   * task's `enforcedProcessing`. A task with one input partition never waits. An integer from
   * -1 up.
   */
  maxTaskIdleMs?: number;
  /**
   * `task.timeout.ms`; default 300000. How long the client keeps replacing its stream thread
   * after errors that mean the cluster is unreachable (connection refused, no coordinator,
   * request timeouts) before the uncaught-exception handler decides.
   */
  taskTimeoutMs?: number;
  /**
   * `retry.backoff.ms`; default 100. The first pause before a Kafka call that met a transient
   * cluster fault (a leader or coordinator that moved, a refused connection, a request timeout)
   * is retried; the pause doubles (±20 %) up to {@link StreamsConfig.retryBackoffMaxMs}.
   */
  retryBackoffMs?: number;
  /** `retry.backoff.max.ms`; default 1000. The longest pause between two attempts of a call. */
  retryBackoffMaxMs?: number;
  /** `request.timeout.ms`; default 30000. How long one request waits for its answer. */
  requestTimeoutMs?: number;
  /**
   * `delivery.timeout.ms`; default 120000. How long a send or a transaction call is retried
   * through a transient fault before `ClusterFaultTimeoutError` reaches the thread's handler.
   */
  deliveryTimeoutMs?: number;
  /** `default.api.timeout.ms`; default 60000. The same bound for offset, admin and group calls. */
  defaultApiTimeoutMs?: number;
  /** Consumer `session.timeout.ms`; default 45000 (Kafka 4's default). */
  sessionTimeoutMs?: number;
  /** Consumer `heartbeat.interval.ms`; default 3000. */
  heartbeatIntervalMs?: number;
  /**
   * Consumer `max.partition.fetch.bytes` of the processing consumer; default 1048576 (1 MiB, the
   * Java consumer's). One fetch returns at most this much of each assigned partition, so the
   * tasks are fed in small interleaved batches. Larger values make each task process one long
   * batch alone while the record cache is shared: a windowed count wrote 40% more changelog
   * records and ran 30% slower with 10 MiB (docs/performance.md). Restores and standbys read
   * their changelogs with 10 MiB per partition whatever this says. A positive integer.
   */
  maxPartitionFetchBytes?: number;
  /**
   * `check.crcs` of the changelog reads (the restore and the standbys; Kafka Streams:
   * `restore.consumer.check.crcs`); default true. Each fetched record batch's CRC-32C is checked
   * before its records reach a store: a corrupt batch is fetched again and, corrupt each time,
   * fails the restore (`CorruptRecordBatchError`) or stops the standby's following of its
   * partition. The processing consumer (kafkajs) checks no CRC either way.
   */
  checkCrcs?: boolean;
  /**
   * The Kafka client the engine is built on; default `@platformatic/kafka` (it used to be
   * `kafkajs`). `@platformatic/kafka` rebalances cooperatively, takes `groupInstanceId` and
   * `groupProtocol: 'streams'`, runs exactly-once with one transactional producer per stream
   * thread (KIP-447), reads restores and standbys by assignment, and takes the `kafka`
   * connection settings it has (see {@link StreamsConfig.kafka}; any other throws
   * `StreamsConfigError`). `kafkajs` (2.2.4 only, else `KafkajsUnsupportedError` at start):
   * eager rebalancing, one transactional producer per task, no static membership.
   */
  kafkaClient?: KafkaClientName;
  /**
   * How rebalances move tasks (see {@link RebalanceProtocol}). Default `cooperative` with
   * `@platformatic/kafka`, `eager` with kafkajs, which has no cooperative protocol (asking it
   * for `cooperative` throws `StreamsConfigError`). Every member of a group must use the same
   * value: switch with all instances stopped, or eager first (Kafka Streams' `upgrade.from`
   * two-step is not supported).
   */
  rebalanceProtocol?: RebalanceProtocol;
  /**
   * `group.instance.id`: makes this instance a static member of the consumer group (KIP-345).
   * A static member closes without leaving the group, and the group keeps its tasks for it
   * while it is away: an instance restarted with the same id (and its state dir) within
   * {@link StreamsConfig.sessionTimeoutMs} gets the same tasks back without a rebalance, so the
   * other instances keep processing and answering. The price: when an instance stops for good
   * (or crashes), its tasks wait up to `sessionTimeoutMs` before moving; set it to the longest
   * restart you expect. Each instance needs its own id that stays the same across its restarts:
   * a StatefulSet's pod name (`order-stats-0`...), not a random or per-start value. Letters,
   * digits, `.`, `_` and `-`, at most 249 characters (Kafka's rule). Only with
   * `kafkaClient: '@platformatic/kafka'`: kafkajs has no static membership (`StreamsConfigError`).
   *
   * Two processes with the same id: the broker keeps the one that joined last and fences the
   * other, whose next heartbeat, rejoin or commit is answered `FENCED_INSTANCE_ID`. The fenced
   * client stops with a `FencedInstanceIdError` (state `ERROR`, without asking the
   * uncaught-exception handler: replacing its thread would fence the other process in turn), as
   * the error is fatal for a Kafka Streams client. Unset (the default): a dynamic member, which
   * leaves the group on close.
   */
  groupInstanceId?: string;
  /**
   * Extra Kafka client settings, in kafkajs' shape (ssl, sasl, timeouts); brokers and clientId
   * come from above. With `kafkaClient: '@platformatic/kafka'` they are mapped to its options: `ssl`,
   * `sasl` (`plain`, `scram-sha-256`, `scram-sha-512`, `oauthbearer`), `connectionTimeout`,
   * `requestTimeout`, `retry.retries` and `retry.initialRetryTime`; any other setting throws
   * `StreamsConfigError` when the `KafkaStreams` is created.
   */
  kafka?: Omit<KafkaConfig, 'brokers' | 'clientId'>;
  /**
   * `group.protocol` (see {@link GroupProtocol}); default `classic`. `streams` needs
   * `kafkaClient: '@platformatic/kafka'` (else `StreamsConfigError`) and a broker whose
   * `group.coordinator.rebalance.protocols` includes `streams` (the default from Kafka 4.2).
   * Under `streams` the broker assigns, from the group's configs
   * (`streams.num.standby.replicas`, `streams.session.timeout.ms`,
   * `streams.heartbeat.interval.ms`, `streams.initial.rebalance.delay.ms`, set with
   * `kafka-configs --entity-type groups`, or the broker's `group.streams.*` defaults): a
   * `numStandbyReplicas` above 0, `acceptableRecoveryLag`, `maxWarmupReplicas`,
   * `probingRebalanceIntervalMs` and `rebalanceProtocol: 'eager'` would have no effect and are
   * refused (`StreamsConfigError` naming the group config to set); `sessionTimeoutMs` is
   * replaced by the group's (it still bounds the rebalance timeout, at least 60 s), and the
   * broker names the heartbeat interval after the first heartbeat. Every member of a group uses
   * the same protocol: an existing classic group cannot be joined under `streams` (no online
   * migration): switch with every instance stopped, or under a new application id. Static membership
   * (`groupInstanceId`) works under `streams` from Kafka 4.4: a static member leaves with
   * epoch -2 and keeps its tasks for the group's `streams.session.timeout.ms` (not
   * `sessionTimeoutMs`). Brokers before 4.4 do not support it under this protocol.
   */
  groupProtocol?: GroupProtocol;
}

/** The configuration with every default applied. */
export type ResolvedStreamsConfig = Required<Omit<StreamsConfig, OptionalSetting>> &
  Pick<StreamsConfig, OptionalSetting> & {
    /** @internal The instance's RocksDB memory: its budget and write-behind bound. */
    readonly rocksDBMemory: RocksDBMemory;
  };

/** The settings that have no default: unset stays unset. */
type OptionalSetting =
  | 'applicationServer'
  | 'queryEndpoint'
  | 'rocksDBConfigSetter'
  | 'kafka'
  | 'groupInstanceId'
  | 'deadLetterQueueTopic';

const APPLICATION_ID = /^[a-zA-Z0-9._-]+$/;

/** Configs this module resolved: resolving one again returns it as it is. */
const RESOLVED = new WeakSet<object>();

/**
 * Applies Kafka Streams' defaults and checks every setting, once: what `KafkaStreams` does with
 * the config it is given, for a caller that needs the resolved values before creating it (the
 * Nest module does). A config this function returned is returned as it is (not checked again).
 *
 * @throws StreamsConfigError naming the first bad setting: fix it (never retriable).
 */
export function resolveStreamsConfig(config: StreamsConfig): ResolvedStreamsConfig {
  if (config && typeof config === 'object' && RESOLVED.has(config)) {
    return config as ResolvedStreamsConfig;
  }
  if (!config || typeof config !== 'object')
    throw new StreamsConfigError('config must be an object');
  if (!config.applicationId || !APPLICATION_ID.test(config.applicationId)) {
    throw new StreamsConfigError(
      `application.id must be a non-empty string of letters, digits, '.', '_' and '-', got '${String(config.applicationId)}'`,
    );
  }
  checkEndpoints(config);
  const guarantee = config.processingGuarantee ?? 'at_least_once';
  if (guarantee !== 'at_least_once' && guarantee !== 'exactly_once_v2') {
    throw new StreamsConfigError(
      `processing.guarantee must be 'at_least_once' or 'exactly_once_v2', got '${String(guarantee)}'`,
    );
  }
  const { kafkaClient, rebalanceProtocol, groupProtocol } = resolveKafkaClientChoice(config);
  refuseStreamsProtocolIgnored(config, groupProtocol);
  const memory = resolveRocksDBMemory(config);
  const resolved: ResolvedStreamsConfig = {
    applicationId: config.applicationId,
    bootstrapServers: [...config.bootstrapServers],
    clientId: config.clientId ?? config.applicationId,
    stateDir: config.stateDir ?? join(tmpdir(), 'kafka-streams'),
    processingGuarantee: guarantee,
    commitIntervalMs: config.commitIntervalMs ?? (guarantee === 'exactly_once_v2' ? 100 : 30_000),
    numStandbyReplicas: config.numStandbyReplicas ?? 0,
    statestoreCacheMaxBytes: config.statestoreCacheMaxBytes ?? 10_485_760,
    statestoreUncommittedMaxBytes: config.statestoreUncommittedMaxBytes ?? 67_108_864,
    applicationServer: config.applicationServer,
    queryEndpoint: config.queryEndpoint,
    defaultKeySerde: config.defaultKeySerde ?? (Serdes.Bytes() as Serde<unknown>),
    defaultValueSerde: config.defaultValueSerde ?? (Serdes.Bytes() as Serde<unknown>),
    deserializationExceptionHandler: config.deserializationExceptionHandler ?? logAndContinue(),
    productionExceptionHandler: config.productionExceptionHandler ?? failOnProductionError,
    processingExceptionHandler: config.processingExceptionHandler ?? failOnProcessingError,
    deadLetterQueueTopic: config.deadLetterQueueTopic,
    metricsRecordingLevel: config.metricsRecordingLevel ?? 'INFO',
    rocksDBConfigSetter: config.rocksDBConfigSetter,
    rocksDBMemoryBudgetMb:
      memory.budget.bytes === undefined ? 'unbounded' : memory.budget.bytes / 1024 / 1024,
    rocksDBAllowUnboundedFallback: config.rocksDBAllowUnboundedFallback ?? false,
    rocksDBWriteBehindMaxBytes: memory.writeBehind.maxBytes,
    rocksDBMemory: memory,
    acceptableRecoveryLag: config.acceptableRecoveryLag ?? 10_000,
    maxWarmupReplicas: config.maxWarmupReplicas ?? 2,
    probingRebalanceIntervalMs: config.probingRebalanceIntervalMs ?? 600_000,
    stateCleanupDelayMs: config.stateCleanupDelayMs ?? 600_000,
    maxTaskIdleMs: config.maxTaskIdleMs ?? 0,
    taskTimeoutMs: config.taskTimeoutMs ?? 300_000,
    retryBackoffMs: config.retryBackoffMs ?? DEFAULT_CLUSTER_RETRY_SETTINGS.retryBackoffMs,
    retryBackoffMaxMs: config.retryBackoffMaxMs ?? DEFAULT_CLUSTER_RETRY_SETTINGS.retryBackoffMaxMs,
    requestTimeoutMs: config.requestTimeoutMs ?? DEFAULT_CLUSTER_RETRY_SETTINGS.requestTimeoutMs,
    deliveryTimeoutMs: config.deliveryTimeoutMs ?? DEFAULT_CLUSTER_RETRY_SETTINGS.deliveryTimeoutMs,
    defaultApiTimeoutMs:
      config.defaultApiTimeoutMs ?? DEFAULT_CLUSTER_RETRY_SETTINGS.defaultApiTimeoutMs,
    sessionTimeoutMs: config.sessionTimeoutMs ?? 45_000,
    heartbeatIntervalMs: config.heartbeatIntervalMs ?? 3_000,
    maxPartitionFetchBytes: config.maxPartitionFetchBytes ?? 1_048_576,
    checkCrcs: config.checkCrcs ?? true,
    kafkaClient,
    rebalanceProtocol,
    groupInstanceId: config.groupInstanceId,
    kafka: config.kafka,
    groupProtocol,
  };
  for (const key of NON_NEGATIVE) {
    const value = resolved[key];
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
      throw new StreamsConfigError(`${key} must be a non-negative number, got ${String(value)}`);
    }
  }
  checkSettingValues(resolved);
  const given = config as { [DEFAULTED_ASSIGNOR_SETTINGS]?: readonly string[] };
  const defaulted = ASSIGNOR_SETTINGS.filter(
    (name) => config[name] === undefined || given[DEFAULTED_ASSIGNOR_SETTINGS]?.includes(name),
  );
  Object.assign(resolved, { [DEFAULTED_ASSIGNOR_SETTINGS]: defaulted });
  RESOLVED.add(resolved);
  return resolved;
}

/** The numeric settings `resolveStreamsConfig` checks are finite and not negative. */
export const NON_NEGATIVE: readonly (keyof StreamsConfig & keyof ResolvedStreamsConfig)[] = [
  'commitIntervalMs',
  'numStandbyReplicas',
  'statestoreCacheMaxBytes',
  'statestoreUncommittedMaxBytes',
  'acceptableRecoveryLag',
  'maxWarmupReplicas',
  'probingRebalanceIntervalMs',
  'stateCleanupDelayMs',
  'taskTimeoutMs',
  'retryBackoffMs',
  'retryBackoffMaxMs',
  'requestTimeoutMs',
  'deliveryTimeoutMs',
  'defaultApiTimeoutMs',
];
