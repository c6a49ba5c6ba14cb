// The kafkajs adapters of the four ports, made from the streams config.
import type { KafkaClientAdapters } from '../kafka-client-adapters';
import type { KafkaClientSettings } from '../kafka-client-settings';
import type { StreamsLogger } from '../../logging/logger';
import { Kafka, logLevel } from './kafkajs';
import { kafkajsAssignedReaderFactory } from './kafkajs-assigned-reader';
import { KafkajsClusterAdmin } from './kafkajs-cluster-admin';
import { KafkajsConfirmedReads } from './kafkajs-confirmed-reads';
import { KafkajsOffsetResetAdmin } from './kafkajs-offset-reset-admin';
import { kafkajsGroupConsumerFactory } from './kafkajs-group-consumer';
import { kafkajsLogCreator } from './kafkajs-log-creator';
import { kafkajsRecordProducerFactory } from './kafkajs-record-producer';
import { kafkajsClusterRetry } from './kafkajs-transient-faults';
import { RetryingClusterAdmin } from '../cluster-retry/retrying-cluster-admin';
import { assertKafkajsFixed, installKafkajsFixes, type KafkajsFixesOutcome } from './kafkajs-fixes';

/**
 * Every port's kafkajs adapter over one kafkajs client: `streams.kafka` as it is (kafkajs' own
 * shape), the client id and brokers from the config, `request.timeout.ms` as kafkajs'
 * `requestTimeout` unless `kafka.requestTimeout` says otherwise, logging through `logger`
 * (context `kafkajs`) from `kafka.logLevel` up (default WARN) unless `kafka.logCreator` is set.
 * The admin's and the producers' calls retry transient cluster faults through the engine's
 * policy ({@link kafkajsClusterRetry}) within the config's bounds. kafkajs checks its own
 * settings when it connects (a bad one fails `start()`).
 *
 * @param fixes what the engine's kafkajs fixes did in this process (tests give another outcome).
 * @throws KafkajsUnsupportedError when the fixes are not all in effect (another kafkajs version,
 *   one the engine cannot locate, or kafkajs loaded before the engine): the client refuses to
 *   run kafkajs unpatched; see the error for what to do.
 */
export function kafkajsClientAdapters(
  config: KafkaClientSettings,
  logger: StreamsLogger,
  fixes: KafkajsFixesOutcome = installKafkajsFixes(),
): KafkaClientAdapters {
  assertKafkajsFixed(fixes);
  const log = logger.child?.('kafkajs') ?? logger;
  const kafka = new Kafka({
    logLevel: logLevel.WARN,
    logCreator: kafkajsLogCreator(log),
    requestTimeout: config.requestTimeoutMs,
    ...config.kafka,
    clientId: config.clientId,
    brokers: config.bootstrapServers,
  });
  const retry = kafkajsClusterRetry(config, log);
  return {
    client: 'kafkajs',
    clusterAdmin: () =>
      new RetryingClusterAdmin(
        new KafkajsClusterAdmin(
          kafka.admin(),
          config.bootstrapServers,
          () => kafka.admin(),
          KafkajsConfirmedReads.of(kafka),
        ),
        retry,
      ),
    resetAdmins: () => {
      const admin = kafka.admin();
      return {
        cluster: new KafkajsClusterAdmin(admin, config.bootstrapServers),
        reset: new KafkajsOffsetResetAdmin(admin),
      };
    },
    assignedReaders: kafkajsAssignedReaderFactory(kafka, { checkCrcs: config.checkCrcs }),
    recordProducers: kafkajsRecordProducerFactory(kafka, retry),
    groupConsumers: kafkajsGroupConsumerFactory(kafka, retry),
    throwawayGroupClient: kafka,
  };
}
