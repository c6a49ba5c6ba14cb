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

/**
 * Every port's @platformatic/kafka adapter, each client made with the options
 * {@link platformaticClientOptions} maps from the config. No throwaway-group fallback: the
 * reader always reads by assignment. What each client reports goes to `logger` (context
 * `@platformatic/kafka`) through {@link bridgePlatformaticLogs}.
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
  return {
    client: '@platformatic/kafka',
    clusterAdmin: () => {
      const admin = new Admin(options);
      bridgePlatformaticLogs(admin, log);
      return new PlatformaticClusterAdmin(admin, config.bootstrapServers);
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
    recordProducers: platformaticRecordProducerFactory(options, log),
    groupConsumers:
      config.groupProtocol === 'streams'
        ? platformaticStreamsGroupConsumerFactory(options, log)
        : platformaticGroupConsumerFactory(options, log),
    throwawayGroupClient: undefined,
  };
}
