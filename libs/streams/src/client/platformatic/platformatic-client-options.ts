// The streams config's connection settings (kafkajs' shape) as @platformatic/kafka's options.
import type { BaseOptions, SASLOptions } from '@platformatic/kafka';
import { StreamsConfigError } from '../../errors/streams-config.error';
import type { KafkaClientSettings } from '../kafka-client-settings';
import { retryBackoff } from '../cluster-retry/cluster-retry-settings';

/** kafkajs' SASL mechanisms and platformatic's names for them; AWS IAM has none. */
const SASL_MECHANISMS = {
  plain: 'PLAIN',
  'scram-sha-256': 'SCRAM-SHA-256',
  'scram-sha-512': 'SCRAM-SHA-512',
  oauthbearer: 'OAUTHBEARER',
} as const;

/** The `kafka.retry` keys platformatic has an equivalent of. */
const RETRY_KEYS = new Set(['retries', 'initialRetryTime']);

/** The `kafka` keys platformatic has an equivalent of. */
const KAFKA_KEYS = new Set(['ssl', 'sasl', 'connectionTimeout', 'requestTimeout', 'retry']);

/**
 * The @platformatic/kafka client options of a streams config: `bootstrapServers` as
 * `bootstrapBrokers`, `clientId`, and from `kafka`: `ssl` as `tls`, `sasl` (`plain`,
 * `scram-sha-256`, `scram-sha-512`: username and password; `oauthbearer`: its provider's token,
 * asked at each authentication), `connectionTimeout` as `connectTimeout`, `requestTimeout`
 * (else `request.timeout.ms`), `retry.retries` and `retry.initialRetryTime` (as a fixed
 * `retryDelay`; else the pause of the engine's retry policy, `retry.backoff.ms` doubling up to
 * `retry.backoff.max.ms`).
 *
 * @throws StreamsConfigError naming the first setting platformatic cannot honour (`sasl`
 *   mechanism `aws`, `logLevel`, `logCreator`, `socketFactory`, `authenticationTimeout`,
 *   `reauthenticationThreshold`, `enforceRequestTimeout`, `retry.maxRetryTime`,
 *   `retry.factor`, `retry.multiplier`, `retry.restartOnFailure`): remove it, or use
 *   `kafkaClient: 'kafkajs'`.
 */
export function platformaticClientOptions(config: KafkaClientSettings): BaseOptions {
  const kafka = config.kafka ?? {};
  for (const [key, value] of Object.entries(kafka)) {
    if (value !== undefined && !KAFKA_KEYS.has(key)) throw unsupported(`kafka.${key}`);
  }
  for (const [key, value] of Object.entries(kafka.retry ?? {})) {
    if (value !== undefined && !RETRY_KEYS.has(key)) throw unsupported(`kafka.retry.${key}`);
  }
  const options: BaseOptions = {
    clientId: config.clientId,
    bootstrapBrokers: [...config.bootstrapServers],
    requestTimeout: kafka.requestTimeout ?? config.requestTimeoutMs,
    // platformatic's own retries (its lookups, metadata, coordinator calls) back off as the
    // engine's policy does, unless `kafka.retry.initialRetryTime` asks for a fixed pause.
    retryDelay:
      kafka.retry?.initialRetryTime ??
      ((_client: unknown, _operation: string, attempt: number) => retryBackoff(config, attempt)),
  };
  if (kafka.ssl) options.tls = kafka.ssl === true ? {} : kafka.ssl;
  if (kafka.sasl) options.sasl = platformaticSasl(kafka.sasl);
  if (kafka.connectionTimeout !== undefined) options.connectTimeout = kafka.connectionTimeout;
  if (kafka.retry?.retries !== undefined) options.retries = kafka.retry.retries;
  return options;
}

type KafkajsSasl = NonNullable<NonNullable<KafkaClientSettings['kafka']>['sasl']>;

function platformaticSasl(sasl: KafkajsSasl): SASLOptions {
  const name = String(sasl.mechanism).toLowerCase();
  if (!(name in SASL_MECHANISMS)) {
    throw new StreamsConfigError(
      `kafka.sasl.mechanism '${String(sasl.mechanism)}' is not supported by @platformatic/kafka (it has plain, scram-sha-256, scram-sha-512 and oauthbearer): use kafkaClient 'kafkajs' for it`,
    );
  }
  const mechanism = SASL_MECHANISMS[name as keyof typeof SASL_MECHANISMS];
  if ('oauthBearerProvider' in sasl) {
    const provider = sasl.oauthBearerProvider;
    return { mechanism, token: async () => (await provider()).value };
  }
  const { username, password } = sasl as { username?: string; password?: string };
  return { mechanism, username, password };
}

function unsupported(setting: string): StreamsConfigError {
  return new StreamsConfigError(
    `${setting} is a kafkajs setting @platformatic/kafka cannot honour: remove it, or use kafkaClient 'kafkajs'`,
  );
}
