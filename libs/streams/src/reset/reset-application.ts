// The public entry of an application reset: connects the chosen client's admins and runs the
// reset's steps (./application-reset.ts).
import { DEFAULT_CLUSTER_RETRY_SETTINGS } from '../client/cluster-retry/cluster-retry-settings';
import { createKafkaClientAdapters } from '../client/kafka-client';
import type { KafkaClientName, KafkaClientSettings } from '../client/kafka-client-settings';
import { DEFAULT_KAFKA_CLIENT } from '../runtime/kafka-client-choice';
import type { StreamsLogger } from '../logging/logger';
import {
  runApplicationReset,
  type ApplicationResetReport,
  type ApplicationResetRequest,
} from './application-reset';

/** A reset and the cluster it runs against. */
export interface ApplicationResetOptions extends ApplicationResetRequest {
  /** `bootstrap.servers`: `host:port` strings. */
  readonly bootstrapServers: string[];
  /** The Kafka client to use; default `@platformatic/kafka` ({@link DEFAULT_KAFKA_CLIENT}). */
  readonly kafkaClient?: KafkaClientName;
  /** Extra connection settings (ssl, sasl) in kafkajs' shape, as the streams config's `kafka`. */
  readonly kafka?: KafkaClientSettings['kafka'];
  /** Receives the client's logs; default: none. */
  readonly logger?: StreamsLogger;
}

const quiet: StreamsLogger = {
  error: () => undefined,
  warn: () => undefined,
  info: () => undefined,
  debug: () => undefined,
};

/**
 * Resets a stopped application so that its next start reprocesses its input from a chosen
 * point, as Kafka's `kafka-streams-application-reset` does (the `nest-streams reset` command
 * runs it): refuses while the application's consumer group has members; commits every input
 * partition's offset at `position` (earliest by default); deletes the application's internal
 * topics (changelogs and repartition topics: the next start creates them empty); and, with
 * `stateDir`, deletes the local state there (else call `KafkaStreams.cleanUp()` on each
 * instance before its next start). With `dryRun`, only reports what it would do.
 *
 * Works with the classic group protocol only: a KIP-1071 `streams` group is refused.
 *
 * @throws ApplicationActiveError when the group has members: stop every instance (wait out
 *   the session timeout of a killed one) and run it again; UnsupportedGroupTypeError for a
 *   KIP-1071 `streams` group (nothing changed): reset it with Kafka's own tool;
 *   BrokersUnreachableError when no
 *   broker answers: check `bootstrapServers` and the network; BrokerAuthenticationError when
 *   the brokers refuse the credentials: fix `kafka.sasl`; StateDirectoryLockedError when an
 *   instance on this machine holds `stateDir`: stop it and run again; the client's error when
 *   the cluster refuses a step (authorization): fix the ACLs and run again (a reset repeated
 *   is the same reset).
 */
export async function resetApplication(
  options: ApplicationResetOptions,
): Promise<ApplicationResetReport> {
  const settings: KafkaClientSettings = {
    kafkaClient: options.kafkaClient ?? DEFAULT_KAFKA_CLIENT,
    clientId: `${options.applicationId}-reset`,
    bootstrapServers: options.bootstrapServers,
    kafka: options.kafka,
    checkCrcs: true,
    groupProtocol: 'classic',
    ...DEFAULT_CLUSTER_RETRY_SETTINGS,
  };
  const adapters = createKafkaClientAdapters(settings, options.logger ?? quiet);
  const admins = adapters.resetAdmins();
  try {
    await admins.cluster.connect();
    return await runApplicationReset(admins, options);
  } finally {
    await admins.cluster.disconnect().catch(() => undefined);
  }
}
