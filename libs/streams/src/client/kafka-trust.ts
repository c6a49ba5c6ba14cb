import { isIP } from 'node:net';
import { connect, type ConnectionOptions } from 'node:tls';
import { KafkaAuthenticationError } from '../errors/kafka-authentication.error';
import { certificateFailure, inCauseChain } from './certificate-failure';
import type { KafkaClientSettings } from './kafka-client-settings';

/**
 * The typed error for a failure of trust between this client and the Kafka cluster found in
 * `error`'s cause chain (kafkajs' SASL authentication error or the port's
 * `BrokerAuthenticationError`, a certificate that does not verify), or undefined for any other
 * error.
 */
export function kafkaAuthenticationError(
  error: unknown,
  config: Pick<KafkaClientSettings, 'bootstrapServers' | 'kafka'>,
): KafkaAuthenticationError | undefined {
  if (error instanceof KafkaAuthenticationError) return error;
  const brokers = config.bootstrapServers.join(',');
  // kafkajs' own error first (its message is the broker's); else the ClusterAdmin port's typed
  // one, which is what @platformatic/kafka's refusal reaches the engine as.
  const sasl =
    inCauseChain(error, (e) => e.name === 'KafkaJSSASLAuthenticationError') ??
    inCauseChain(error, (e) => e.name === 'BrokerAuthenticationError');
  if (sasl) {
    const settings = config.kafka?.sasl as { mechanism?: string; username?: string } | undefined;
    const who =
      settings?.username === undefined
        ? `(${String(settings?.mechanism ?? 'SASL')})`
        : `of user '${settings.username}' (${String(settings.mechanism).toUpperCase()})`;
    return new KafkaAuthenticationError(
      'sasl',
      `the Kafka cluster (${brokers}) refused the SASL credentials ${who}: ${String(sasl.message)}. Check streams.kafka.sasl (mechanism, username, password) against the users the cluster knows`,
      { cause: error },
    );
  }
  const tls = certificateFailure(error);
  if (tls) {
    return new KafkaAuthenticationError(
      'tls',
      `the TLS certificate of the Kafka cluster (${brokers}) is not trusted (${String(tls.code)}: ${String(tls.message)}). Give the CA that signed the brokers' certificates in streams.kafka.ssl.ca, and make sure the certificates name the hosts in bootstrap.servers`,
      { cause: error },
    );
  }
  return undefined;
}

/**
 * With TLS to the brokers (`kafka.ssl`), opens one TLS connection to a bootstrap server with
 * the client's own TLS settings and checks the broker's certificate, so that an untrusted
 * certificate fails `start()` at once with a {@link KafkaAuthenticationError} rather than
 * after kafkajs' connection retries. Resolves when the certificate is trusted, when TLS is
 * off, or when no bootstrap server answers (kafkajs then reports that as it always does).
 */
export async function checkBrokerCertificate(
  config: Pick<KafkaClientSettings, 'bootstrapServers' | 'kafka'>,
): Promise<void> {
  const ssl = config.kafka?.ssl;
  if (!ssl) return;
  const options: ConnectionOptions = ssl === true ? {} : ssl;
  const timeoutMs = Math.max(config.kafka?.connectionTimeout ?? 0, 5000);
  for (const server of config.bootstrapServers) {
    const separator = server.lastIndexOf(':');
    const host = server.slice(0, separator);
    const port = Number(server.slice(separator + 1));
    const outcome = await new Promise<unknown>((resolve) => {
      const socket = connect({ host, port, servername: isIP(host) ? undefined : host, ...options });
      const timer = setTimeout(() => finish(undefined), timeoutMs);
      const finish = (result: unknown): void => {
        clearTimeout(timer);
        socket.destroy();
        resolve(result);
      };
      socket.once('secureConnect', () => finish('trusted'));
      socket.once('error', finish);
    });
    if (outcome === 'trusted') return;
    const failure = kafkaAuthenticationError(outcome, config);
    if (failure) throw failure;
  }
}
