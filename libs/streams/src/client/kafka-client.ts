// Chooses the Kafka client of a streams config: the one place that knows both.
import type { StreamsLogger } from '../logging/logger';
import type { KafkaClientAdapters } from './kafka-client-adapters';
import type { KafkaClientSettings } from './kafka-client-settings';
import { kafkajsClientAdapters } from './kafkajs/kafkajs-client';
import { platformaticClientAdapters } from './platformatic/platformatic-client';

/**
 * The adapters of the client `config.kafkaClient` names (resolved: `@platformatic/kafka` unless
 * the config chose `kafkajs`), from the config's connection settings; `logger` receives the
 * client's logs (kafkajs' `logCreator`, platformatic's events).
 *
 * @throws StreamsConfigError when a `kafka` setting cannot be honoured by the chosen client
 *   (see `platformaticClientOptions`): fix the setting, or choose the other client.
 * @throws KafkajsUnsupportedError on kafkajs, when the engine's fixes could not be applied to the
 *   kafkajs installed (see the error for what to do).
 */
export function createKafkaClientAdapters(
  config: KafkaClientSettings,
  logger: StreamsLogger,
): KafkaClientAdapters {
  return config.kafkaClient === 'kafkajs'
    ? kafkajsClientAdapters(config, logger)
    : platformaticClientAdapters(config, logger);
}
