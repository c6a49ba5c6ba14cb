// The @platformatic/kafka adapters of the four ports, made from the streams config.
import { Admin } from '@platformatic/kafka';
import type { KafkaClientAdapters } from '../kafka-client-adapters';
import type { KafkaClientSettings } from '../kafka-client-settings';
import type { StreamsLogger } from '../../logging/logger';
import { platformaticAssignedReaderFactory } from './platformatic-assigned-reader';
import { platformaticClientOptions } from './platformatic-client-options';
import { PlatformaticClusterAdmin } from './platformatic-cluster-admin';
import { PlatformaticOffsetResetAdmin } from './platformatic-offset-reset-admin';
import { bridgePlatformaticLogs } from './platformatic-log-bridge';
import { platformaticGroupConsumerFactory } from './platformatic-group-consumer';
import { platformaticRecordProducerFactory } from './platformatic-record-producer';
import { platformaticStreamsGroupConsumerFactory } from './platformatic-streams-group-consumer';
import { platformaticClusterRetry } from './platformatic-transient-faults';
import { RetryingClusterAdmin } from '../cluster-retry/retrying-cluster-admin';

/**
 * Every port's @platformatic/kafka adapter, each client made with the options
 * {@link platformaticClientOptions} maps from the config. No throwaway-group fallback: the
 * reader always reads by assignment. What each client reports goes to `logger` (context
 * `@platformatic/kafka`) through {@link bridgePlatformaticLogs}. Every call the adapters make
 * retries transient cluster faults through the engine's policy ({@link platformaticClusterRetry})
 * within the config's bounds.
 *
 * @throws StreamsConfigError for a `kafka` setting platformatic cannot honour (see
 *   {@link platformaticClientOptions}): remove it, or use `kafkaClient: 'kafkajs'`.
 */
export function platformaticClientAdapters(
  config: KafkaClientSettings,
  logger: StreamsLogger,
): KafkaClientAdapters {
  const options = platformaticClientOptions(config);
  const log = logger.child?.('@platformatic/kafka') ?? logger;
  const retry = platformaticClusterRetry(config, log);
  return {
    client: '@platformatic/kafka',
    clusterAdmin: () => {
      const admin = new Admin(options);
      bridgePlatformaticLogs(admin, log);
      return new RetryingClusterAdmin(
        new PlatformaticClusterAdmin(admin, config.bootstrapServers),
        retry,
      );
    },
    resetAdmins: () => {
      const admin = new Admin(options);
      bridgePlatformaticLogs(admin, log);
      return {
        cluster: new PlatformaticClusterAdmin(admin, config.bootstrapServers),
        reset: new PlatformaticOffsetResetAdmin(admin),
      };
    },
    assignedReaders: platformaticAssignedReaderFactory(
      options,
      { checkCrcs: config.checkCrcs },
      log,
    ),
    recordProducers: platformaticRecordProducerFactory(options, log, retry),
    groupConsumers:
      config.groupProtocol === 'streams'
        ? platformaticStreamsGroupConsumerFactory(options, log, retry)
        : platformaticGroupConsumerFactory(options, log, retry),
    throwawayGroupClient: undefined,
  };
}
