import {
  DEFAULT_KAFKA_CLIENT,
  KAFKA_CLIENT_NAMES,
  type GroupProtocol,
  type KafkaClientName,
  type MetricsRecordingLevel,
  type ProcessingGuarantee,
  type RebalanceProtocol,
} from '@nest-streams/streams';
import {
  orderStatsSecurity,
  SECURITY_ENVIRONMENT,
  type OrderStatsSecurity,
} from './order-stats.security';

/** Injection token of the application's {@link OrderStatsConfig}. */
export const ORDER_STATS_CONFIG = Symbol('ORDER_STATS_CONFIG');

/** The Nest HTTP platforms the application runs on (`HTTP_PLATFORM`). */
export const HTTP_PLATFORMS = ['express', 'fastify'] as const;
export type HttpPlatform = (typeof HTTP_PLATFORMS)[number];

/** The example application's settings, from its environment (the README lists every variable). */
export interface OrderStatsConfig {
  readonly brokers: string[];
  readonly port: number;
  readonly applicationServer: string;
  readonly applicationId: string;
  readonly stateDir: string | undefined;
  readonly inputTopic: string;
  /**
   * `NUM_STANDBY_REPLICAS` (default 0); 0 under `GROUP_PROTOCOL=streams`, where the group's
   * `streams.num.standby.replicas` decides (the engine refuses a client setting that would have
   * no effect).
   */
  readonly numStandbyReplicas: number;
  readonly processingGuarantee: ProcessingGuarantee;
  readonly commitIntervalMs: number | undefined;
  /** Instance-to-instance query port (TCP): `QUERY_PORT`, default PORT + 10000. */
  readonly queryPort: number;
  /** Answer from a standby (marked `X-Stale`) when the owner is unreachable: `ALLOW_STALE_READS`. */
  readonly allowStaleReads: boolean;
  /** Timeout of a request forwarded to the key's owner (`FORWARDING_TIMEOUT_MS`, default 5000). */
  readonly forwardingTimeoutMs: number;
  /**
   * The cluster secret, shared by the instances (`FORWARDING_SECRET`, 16+ characters): it
   * authenticates instance-to-instance queries and forwarded requests. Required, unless
   * `SECURITY_INSECURE=true` (local development only). During a rotation, a comma list (the
   * first signs, any verifies): `new,old`; empty when unset.
   */
  readonly forwardingSecrets: readonly string[];
  /** Kafka TLS/SASL, TLS between the instances, the insecure switch (see order-stats.security.ts). */
  readonly security: OrderStatsSecurity;
  /**
   * Port of the management server (`MANAGEMENT_PORT`): when set, `/metrics`,
   * `/streams/metadata` and the cluster page are served there only, not on `PORT`.
   */
  readonly managementPort: number | undefined;
  /**
   * The cluster page's key look-up (`DASHBOARD_LOOKUP=true`; default off): on the management
   * port when there is one, else on `PORT` for callers that send the cluster secret.
   */
  readonly dashboardLookup: boolean;
  /**
   * Dead-letter topic (`DEAD_LETTER_TOPIC`) of the records skipped because they do not parse or
   * the aggregation refused them; without one they are logged and skipped.
   */
  readonly deadLetterTopic: string | undefined;
  /** Kafka Streams' `metrics.recording.level` (`METRICS_RECORDING_LEVEL`): INFO (default), DEBUG, TRACE. */
  readonly metricsRecordingLevel: MetricsRecordingLevel;
  /** Interface the HTTP and query servers bind (`HOST`, default 127.0.0.1; 0.0.0.0 in a pod). */
  readonly host: string;
  /** Requests still answered after SIGTERM before the client leaves the group (`SHUTDOWN_DRAIN_MS`, 0). */
  readonly shutdownDrainMs: number;
  /** The Nest HTTP platform: `HTTP_PLATFORM`, `express` (default) or `fastify`. */
  readonly httpPlatform: HttpPlatform;
  /**
   * RocksDB's total memory budget of the instance in MiB (`ROCKSDB_MEMORY_MB`, default 256):
   * block cache, memtables, index and filter blocks of every store, shared.
   */
  readonly rocksdbMemoryMb: number;
  /**
   * The Kafka client under the engine (`KAFKA_CLIENT`): the engine's default,
   * `@platformatic/kafka`, when unset, or `kafkajs`.
   */
  readonly kafkaClient: KafkaClientName;
  /**
   * How rebalances move tasks (`REBALANCE_PROTOCOL`): `cooperative` or `eager`; unset, the
   * engine's default for the client (cooperative on @platformatic/kafka, eager on kafkajs).
   */
  readonly rebalanceProtocol: RebalanceProtocol | undefined;
  /**
   * The instance's static group member id (`GROUP_INSTANCE_ID`, `streams.groupInstanceId`): a
   * restart within the session timeout then moves no task. Unique per instance and stable
   * across its restarts (the pod name in the StatefulSet); refused with `KAFKA_CLIENT=kafkajs`.
   */
  readonly groupInstanceId: string | undefined;
  /**
   * `SESSION_TIMEOUT_MS` (`streams.sessionTimeoutMs`), default 10000: how long the group waits
   * for an instance that stopped heartbeating (crashed, or a static member restarting).
   */
  readonly sessionTimeoutMs: number;
  /**
   * `TASK_TIMEOUT_MS` (`streams.taskTimeoutMs`), unset: the engine's 300000: how long a start
   * waits on a cause that may resolve itself (unreachable brokers, a missing topic, a state
   * directory another process holds) before the process exits with code 1.
   */
  readonly taskTimeoutMs: number | undefined;
  /**
   * Kafka's `group.protocol` (`GROUP_PROTOCOL`): `classic` (default) or `streams` (KIP-1071:
   * the broker assigns tasks; refused with `KAFKA_CLIENT=kafkajs`; the broker's group
   * configs decide standbys, so `NUM_STANDBY_REPLICAS` is ignored).
   */
  readonly groupProtocol: GroupProtocol;
}

/** Every environment variable the application reads (what deployment files may set). */
export const ORDER_STATS_ENVIRONMENT = [
  'KAFKA_BROKERS',
  'PORT',
  'HOST',
  'APPLICATION_SERVER',
  'APPLICATION_ID',
  'STATE_DIR',
  'INPUT_TOPIC',
  'NUM_STANDBY_REPLICAS',
  'PROCESSING_GUARANTEE',
  'COMMIT_INTERVAL_MS',
  'QUERY_PORT',
  'ALLOW_STALE_READS',
  'FORWARDING_TIMEOUT_MS',
  'FORWARDING_SECRET',
  'DEAD_LETTER_TOPIC',
  'SHUTDOWN_DRAIN_MS',
  'HTTP_PLATFORM',
  'ROCKSDB_MEMORY_MB',
  'MANAGEMENT_PORT',
  'DASHBOARD_LOOKUP',
  'KAFKA_CLIENT',
  'REBALANCE_PROTOCOL',
  'GROUP_INSTANCE_ID',
  'SESSION_TIMEOUT_MS',
  'TASK_TIMEOUT_MS',
  'GROUP_PROTOCOL',
  'METRICS_RECORDING_LEVEL',
  ...SECURITY_ENVIRONMENT,
] as const;

/**
 * Reads and checks the environment.
 *
 * @throws Error naming the variable and its value when one is invalid: fix the environment.
 */
export function orderStatsConfig(env: NodeJS.ProcessEnv = process.env): OrderStatsConfig {
  const port = integer(env, 'PORT', 8080);
  const guarantee = env.PROCESSING_GUARANTEE ?? 'at_least_once';
  if (guarantee !== 'at_least_once' && guarantee !== 'exactly_once_v2') {
    throw new Error(
      `PROCESSING_GUARANTEE must be at_least_once or exactly_once_v2, got '${guarantee}'`,
    );
  }
  const platform = env.HTTP_PLATFORM || 'express';
  if (!(HTTP_PLATFORMS as readonly string[]).includes(platform)) {
    throw new Error(`HTTP_PLATFORM must be express or fastify, got '${platform}'`);
  }
  const kafkaClient = env.KAFKA_CLIENT || DEFAULT_KAFKA_CLIENT;
  if (!(KAFKA_CLIENT_NAMES as readonly string[]).includes(kafkaClient)) {
    throw new Error(
      `KAFKA_CLIENT must be one of ${KAFKA_CLIENT_NAMES.join(', ')}, got '${kafkaClient}'`,
    );
  }
  const rebalanceProtocol = env.REBALANCE_PROTOCOL || undefined;
  if (rebalanceProtocol !== undefined && !['cooperative', 'eager'].includes(rebalanceProtocol)) {
    throw new Error(`REBALANCE_PROTOCOL must be cooperative or eager, got '${rebalanceProtocol}'`);
  }
  const groupInstanceId = env.GROUP_INSTANCE_ID || undefined;
  if (groupInstanceId !== undefined && kafkaClient !== '@platformatic/kafka') {
    throw new Error(
      `GROUP_INSTANCE_ID needs KAFKA_CLIENT=@platformatic/kafka (kafkajs has no static membership), got KAFKA_CLIENT '${kafkaClient}'`,
    );
  }
  const groupProtocol = env.GROUP_PROTOCOL || 'classic';
  if (groupProtocol !== 'classic' && groupProtocol !== 'streams') {
    throw new Error(`GROUP_PROTOCOL must be classic or streams, got '${groupProtocol}'`);
  }
  const dashboardLookup = env.DASHBOARD_LOOKUP || 'false';
  if (dashboardLookup !== 'true' && dashboardLookup !== 'false') {
    throw new Error(`DASHBOARD_LOOKUP must be true or false, got '${dashboardLookup}'`);
  }
  const metricsRecordingLevel = env.METRICS_RECORDING_LEVEL || 'INFO';
  if (!['INFO', 'DEBUG', 'TRACE'].includes(metricsRecordingLevel)) {
    throw new Error(
      `METRICS_RECORDING_LEVEL must be INFO, DEBUG or TRACE, got '${metricsRecordingLevel}'`,
    );
  }
  const rocksdbMemoryMb = integer(env, 'ROCKSDB_MEMORY_MB', 256);
  if (rocksdbMemoryMb < 16) {
    throw new Error(`ROCKSDB_MEMORY_MB must be at least 16, got '${env.ROCKSDB_MEMORY_MB}'`);
  }
  return {
    brokers: (env.KAFKA_BROKERS ?? '127.0.0.1:9092')
      .split(',')
      .map((b) => b.trim())
      .filter(Boolean),
    port,
    applicationServer: env.APPLICATION_SERVER ?? `127.0.0.1:${port}`,
    applicationId: env.APPLICATION_ID ?? 'labs-streams-app',
    stateDir: env.STATE_DIR || undefined,
    inputTopic: env.INPUT_TOPIC ?? 'labs.events',
    numStandbyReplicas: groupProtocol === 'streams' ? 0 : integer(env, 'NUM_STANDBY_REPLICAS', 0),
    processingGuarantee: guarantee,
    commitIntervalMs: env.COMMIT_INTERVAL_MS ? integer(env, 'COMMIT_INTERVAL_MS', 0) : undefined,
    queryPort: integer(env, 'QUERY_PORT', port + 10_000),
    allowStaleReads: (env.ALLOW_STALE_READS ?? 'true') === 'true',
    forwardingTimeoutMs: integer(env, 'FORWARDING_TIMEOUT_MS', 5000),
    forwardingSecrets: (env.FORWARDING_SECRET ?? '')
      .split(',')
      .map((secret) => secret.trim())
      .filter(Boolean),
    security: orderStatsSecurity(env),
    managementPort: env.MANAGEMENT_PORT ? integer(env, 'MANAGEMENT_PORT', 0) : undefined,
    dashboardLookup: dashboardLookup === 'true',
    deadLetterTopic: env.DEAD_LETTER_TOPIC || undefined,
    host: env.HOST || '127.0.0.1',
    shutdownDrainMs: integer(env, 'SHUTDOWN_DRAIN_MS', 0),
    httpPlatform: platform as HttpPlatform,
    rocksdbMemoryMb,
    kafkaClient: kafkaClient as KafkaClientName,
    rebalanceProtocol: rebalanceProtocol as RebalanceProtocol | undefined,
    groupInstanceId,
    sessionTimeoutMs: integer(env, 'SESSION_TIMEOUT_MS', 10_000),
    taskTimeoutMs: env.TASK_TIMEOUT_MS ? integer(env, 'TASK_TIMEOUT_MS', 0) : undefined,
    groupProtocol,
    metricsRecordingLevel: metricsRecordingLevel as MetricsRecordingLevel,
  };
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0)
    throw new Error(`${name} must be a non-negative integer, got '${raw}'`);
  return value;
}
