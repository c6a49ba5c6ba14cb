// The @platformatic/kafka adapters of the four ports, made from the streams config.
import { Admin } from '@platformatic/kafka';
import type { KafkaClientAdapters } from '../kafka-client-adapters';
import type { ResolvedStreamsConfig } from '../../streams-config';
import { platformaticAssignedReaderFactory } from './platformatic-assigned-reader';
import { platformaticClientOptions } from './platformatic-client-options';
import { PlatformaticClusterAdmin } from './platformatic-cluster-admin';
import { platformaticGroupConsumerFactory } from './platformatic-group-consumer';
import { platformaticRecordProducerFactory } from './platformatic-record-producer';

/**
 * Every port's @platformatic/kafka adapter, each client made with the options
 * {@link platformaticClientOptions} maps from the config. No throwaway-group fallback: the
 * reader always reads by assignment. platformatic does not log through the engine's logger.
 *
 * @throws StreamsConfigError for a `kafka` setting platformatic cannot honour (see
 *   {@link platformaticClientOptions}): remove it, or use `kafkaClient: 'kafkajs'`.
 */
export function platformaticClientAdapters(config: ResolvedStreamsConfig): KafkaClientAdapters {
  const options = platformaticClientOptions(config);
  return {
    client: '@platformatic/kafka',
    clusterAdmin: () => new PlatformaticClusterAdmin(new Admin(options), config.bootstrapServers),
    assignedReaders: platformaticAssignedReaderFactory(options, { checkCrcs: config.checkCrcs }),
    recordProducers: platformaticRecordProducerFactory(options),
    groupConsumers: platformaticGroupConsumerFactory(options),
    throwawayGroupClient: undefined,
  };
}
