import { StreamsConfigError } from '../errors/streams-config.error';
import { NON_NEGATIVE, type StreamsConfig } from './streams-config';

/** Kafka Streams' dotted property names and the {@link StreamsConfig} settings they set. */
const PROPERTY_NAMES: Record<string, keyof StreamsConfig> = {
  'application.id': 'applicationId',
  'bootstrap.servers': 'bootstrapServers',
  'client.id': 'clientId',
  'state.dir': 'stateDir',
  'processing.guarantee': 'processingGuarantee',
  'commit.interval.ms': 'commitIntervalMs',
  'num.standby.replicas': 'numStandbyReplicas',
  'statestore.cache.max.bytes': 'statestoreCacheMaxBytes',
  'statestore.uncommitted.max.bytes': 'statestoreUncommittedMaxBytes',
  'application.server': 'applicationServer',
  'acceptable.recovery.lag': 'acceptableRecoveryLag',
  'max.warmup.replicas': 'maxWarmupReplicas',
  'probing.rebalance.interval.ms': 'probingRebalanceIntervalMs',
  'state.cleanup.delay.ms': 'stateCleanupDelayMs',
  'max.task.idle.ms': 'maxTaskIdleMs',
  'task.timeout.ms': 'taskTimeoutMs',
  'retry.backoff.ms': 'retryBackoffMs',
  'retry.backoff.max.ms': 'retryBackoffMaxMs',
  'request.timeout.ms': 'requestTimeoutMs',
  'delivery.timeout.ms': 'deliveryTimeoutMs',
  'default.api.timeout.ms': 'defaultApiTimeoutMs',
  'session.timeout.ms': 'sessionTimeoutMs',
  'heartbeat.interval.ms': 'heartbeatIntervalMs',
  'max.partition.fetch.bytes': 'maxPartitionFetchBytes',
  'check.crcs': 'checkCrcs',
  'group.instance.id': 'groupInstanceId',
  'group.protocol': 'groupProtocol',
  'errors.dead.letter.queue.topic.name': 'deadLetterQueueTopic',
  'metrics.recording.level': 'metricsRecordingLevel',
};
/** The settings whose properties are numbers. */
const NUMERIC = new Set<keyof StreamsConfig>([
  ...NON_NEGATIVE,
  'maxTaskIdleMs',
  'sessionTimeoutMs',
  'heartbeatIntervalMs',
  'maxPartitionFetchBytes',
]);

/**
 * Builds a {@link StreamsConfig} from Kafka Streams' dotted property names (string values, as
 * in a `.properties` file or environment). Unknown names throw {@link StreamsConfigError}.
 */
export function streamsConfigFromProperties(
  properties: Readonly<Record<string, string>>,
): StreamsConfig {
  const config: Record<string, unknown> = {};
  for (const [name, raw] of Object.entries(properties)) {
    const key = PROPERTY_NAMES[name];
    if (!key) throw new StreamsConfigError(`unknown or unsupported property '${name}'`);
    if (key === 'bootstrapServers')
      config[key] = raw
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
    else if (key === 'checkCrcs') {
      const value = raw.trim().toLowerCase();
      if (value !== 'true' && value !== 'false')
        throw new StreamsConfigError(`${name} must be true or false, got '${raw}'`);
      config[key] = value === 'true';
    } else if (NUMERIC.has(key)) {
      const value = Number(raw);
      if (!Number.isFinite(value))
        throw new StreamsConfigError(`${name} must be a number, got '${raw}'`);
      config[key] = value;
    } else config[key] = raw;
  }
  return config as unknown as StreamsConfig;
}
